"""Who may do what with scorecards and the officials' pages: every role against every action,
through the pages (HTTP) and through ``user.has_perm``.

WCC: players mark their own cards and the opponent validates them with ID and initials; any
correction must be initialled by a referee; the scoring table verifies or voids cards; the head
referee rules on what the rules do not settle, here the disputes between two cards.

Staff who also play (most of them, at a club night) are columns of their own: nobody rules on a
game they play in, so each staff role held by the card's owner (or by the opponent, or by a
referee whose browser holds the owner's private link) keeps its role's rights everywhere except
over that game, where the refusal says why ("You play in this game ...: another official must
...").
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse

from scoring.models import CardRow
from scoring.permissions import ShootoutTakers, conflict_refusal
from scoring.scorecards import actions as row_steps
from scoring.scorecards.services import card_for, enter_paper_row, fill_row, validate_row
from tests import matrix
from tests.events import PLAYER, SmallEvent
from tests.factories import StageFactory
from tests.row_versions import disputed, seen_fields
from tournaments import actions
from tournaments.models import TournamentRole
from tournaments.services.links import link_of

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Status = CardRow.Status

ROLES = [
    "organizer",
    "co-organizer",
    "head-referee",
    "referee",
    "scoring-table",
    "owner",
    "opponent",
    "other-player",
    "anonymous",
    # no account: a browser that opened the entry's private link
    "owner-link",
    "opponent-link",
    # staff who play: the owner's login holding a staff role, the opponent's login as head
    # referee, and a referee's login in a browser that also holds the owner's private link
    "organizer-who-plays",
    "head-referee-who-plays",
    "referee-who-plays",
    "scoring-table-who-plays",
    "head-referee-opponent",
    "owner-link-referee",
]
#: The staff-who-play roles: whose login they are, and the role it holds at the tournament.
WHO_PLAYS = {
    "organizer-who-plays": ("owner", Role.ORGANIZER),
    "head-referee-who-plays": ("owner", Role.HEAD_REFEREE),
    "referee-who-plays": ("owner", Role.REFEREE),
    "scoring-table-who-plays": ("owner", Role.SCORING_TABLE),
    "head-referee-opponent": ("opponent", Role.HEAD_REFEREE),
}
#: Every staff role, with or without a game of its own here (who sees the officials' pages).
STAFF = {"organizer", "co-organizer", "head-referee", "referee", "scoring-table", *WHO_PLAYS}
STAFF.add("owner-link-referee")
#: Who plays in the card's game while holding a referee's rights (referee or head referee).
REFEREES_WHO_PLAY = {
    "head-referee-who-plays",
    "referee-who-plays",
    "head-referee-opponent",
    "owner-link-referee",
}
ACTIONS = [
    "fill",
    "validate",
    "correct",
    "verify",
    "void",
    "resolve-dispute",
    "view-disputes",
    "view-table",
    "enter-paper",
    "confirm-paper",
]
#: The expected matrix: who may do each action (everyone else is refused).
ALLOWED = {
    # The card's player fills it, whatever role they hold too; a referee fills it for them,
    # unless the referee plays in the game (the opponent would fill the row they then sign).
    "fill": {
        "head-referee",
        "referee",
        "owner",
        "owner-link",
        "organizer-who-plays",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "owner-link-referee",
    },
    # the opponent's act, on their own login or link: never the owner's, whatever ID is typed
    "validate": {"opponent", "opponent-link", "head-referee-opponent"},
    # Nobody rules on a game they play in: none of the staff who play below.
    "correct": {"head-referee", "referee"},
    "verify": {"head-referee", "scoring-table"},
    "void": {"head-referee", "scoring-table"},
    "resolve-dispute": {"head-referee"},
    # The organizers see the staff pages of the event they run (ruling stays the head referee's).
    "view-disputes": STAFF,
    "view-table": STAFF,
    # paper cards: staff type the row in (a player never can), a second staff member confirms
    "enter-paper": {"head-referee", "referee", "scoring-table"},
    "confirm-paper": {"head-referee", "referee", "scoring-table"},
}
#: Who is refused *because they play in the game*: their role would allow it, and the refusal
#: says so ("You play in ...: another official must ...").
CONFLICTS = {
    "fill": {"head-referee-opponent"},
    "validate": set(),
    "correct": REFEREES_WHO_PLAY,
    "verify": {"head-referee-who-plays", "scoring-table-who-plays", "head-referee-opponent"},
    "void": {"head-referee-who-plays", "scoring-table-who-plays", "head-referee-opponent"},
    "resolve-dispute": {"head-referee-who-plays", "head-referee-opponent"},
    "view-disputes": set(),
    "view-table": set(),
    "enter-paper": REFEREES_WHO_PLAY | {"scoring-table-who-plays"},
    "confirm-paper": REFEREES_WHO_PLAY | {"scoring-table-who-plays"},
}
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
OTHER = [{"points": [0, 2], "twenties": [1, 3]}] * 3 + [{"points": [1, 1], "twenties": [1, 1]}]

#: Permissions the other officials' pages use, checked through ``has_perm`` only.
#: Asked of the tournament, these concern no game: staff who play hold their role's rights.
EXTRA_PERMS = {
    "tournaments.manage_tournament": {"organizer", "co-organizer", "organizer-who-plays"},
    "tournaments.manage_staff": {"organizer", "co-organizer", "organizer-who-plays"},
    "scoring.print_cards": {
        "organizer",
        "co-organizer",
        "scoring-table",
        "head-referee",
        "organizer-who-plays",
        "head-referee-who-plays",
        "scoring-table-who-plays",
        "head-referee-opponent",
    },
    # shoot-outs are recorded where they are shot: a referee or the scoring table (one the
    # official shoots in is another's to record: ``test_shootout_takers``)
    "scoring.record_shootout": {
        "head-referee",
        "referee",
        "scoring-table",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "head-referee-opponent",
        "owner-link-referee",
    },
    # the round clock: the officials who run the hall start, pause and reset it; players watch
    "tournaments.run_clock": STAFF,
}


class World:
    """The shared small event seen from one scorecard: the card owner is the event's player, in
    the game against the opponent; another player, the officials and an anonymous visitor."""

    def __init__(self, event: SmallEvent):
        self.stage = event.stage
        self.tournament = event.tournament
        self.users = {("owner" if role == PLAYER else role): u for role, u in event.users.items()}
        # A co-organizer holds the organizer's permissions (given on the staff page).
        self.users["co-organizer"] = TournamentRole.objects.create(
            tournament=self.tournament,
            user=User.objects.create_user(f"co-organizer-{self.tournament.slug}"),
            role=Role.CO_ORGANIZER,
        ).user
        self.owner, self.opponent = event.player, event.opponent
        self.other = event.other_player
        self.game = event.game
        self.card = card_for(self.stage, self.owner)

    def user_for(self, role: str) -> User | AnonymousUser:
        """The user object a ``has_perm`` test asks about: a login, what the private-link
        middleware makes of a browser holding a ``-link`` role's link, or a staff member who
        plays (the owner's or the opponent's login given the staff role now, or a referee whose
        browser holds the owner's link)."""
        if role.endswith("-link"):
            return link_user(self, role)
        if role in WHO_PLAYS:
            whose, staff_role = WHO_PLAYS[role]
            user = self.users[whose]
            if role not in self.users:
                TournamentRole.objects.create(
                    tournament=self.tournament, user=user, role=staff_role
                )
                # The roles (and entries) a user object read before are cached on it.
                for cached in ("_tournament_roles", "_played_entry_ids"):
                    user.__dict__.pop(cached, None)
                self.users[role] = user
            return user
        if role == "owner-link-referee":
            user = User.objects.get(pk=self.users["referee"].pk)
            user.entry_links = [(self.owner.id, link_of(self.owner).token)]
            return user
        return self.users[role]

    # States the actions start from ---------------------------------------------------------

    def filled(self) -> CardRow:
        return fill_row(card=self.card, game=self.game, rounds=WIN, user=self.users["owner"])

    def validated(self) -> CardRow:
        return validate_row(
            row=self.filled(),
            opponent_number=str(self.opponent.player.number),
            initials="OP",
            user=self.users["opponent"],
        )

    def disputed(self) -> CardRow:
        """The opponent's own row contradicts the owner's row he validated: saved after the
        warning, it opens a dispute."""
        self.validated()
        theirs = card_for(self.stage, self.opponent)
        fill_row(
            card=theirs,
            game=self.game,
            rounds=OTHER,
            user=self.users["opponent"],
            confirm_contradiction=True,
        )
        row = CardRow.objects.get(card=self.card, game=self.game)
        assert row.status == Status.DISPUTED
        return row

    def awaiting(self) -> CardRow:
        """A row entered from paper by a referee of its own, awaiting confirmation."""
        self.tournament.paper_rows_need_confirmation = True
        self.tournament.save()
        clerk = User.objects.create_user("paper-clerk")
        TournamentRole.objects.create(tournament=self.tournament, user=clerk, role=Role.REFEREE)
        return enter_paper_row(
            card=self.card,
            game=self.game,
            rounds=WIN,
            opponent_number=str(self.opponent.player.number),
            initials="OP",
            user=clerk,
        )

    def row(self) -> CardRow | None:
        return CardRow.objects.filter(card=self.card, game=self.game).first()

    def url(self, name: str, *extra) -> str:
        slug = self.tournament.slug
        if name in ("table", "disputes"):
            return reverse(f"scoring:cards:{name}", args=[slug])
        if name in ("verify_card", "void_card"):
            return reverse(f"scoring:cards:{name}", args=[slug, self.card.id])
        if name == "resolve_dispute":
            return reverse(f"scoring:cards:{name}", args=[slug, self.game.id])
        return reverse(
            f"scoring:cards:{name}", args=[slug, self.stage.id, self.owner.id, self.game.id]
        )

    def boxes(self, prefix: str, rounds, **extra) -> dict:
        data = {}
        for n, r in enumerate(rounds, start=1):
            for what in ("points", "twenties"):
                data[f"{prefix}-r{n}_{what}_own"], data[f"{prefix}-r{n}_{what}_opp"] = r[what]
        data.update({f"{prefix}-{k}": v for k, v in extra.items()})
        return data


@pytest.fixture
def world(small_event):
    return World(small_event)


def act(world: World, client, action: str):
    """Do ``action`` through its page; return the response and a check that it took effect."""
    g = world.game.id
    if action == "fill":
        response = client.post(world.url("fill_row"), world.boxes(f"g{g}", WIN, version=0))
        return response, lambda: world.row() is not None
    if action == "validate":
        row = world.filled()
        data = {
            f"v{g}-opponent_number": world.opponent.player.number,
            f"v{g}-initials": "OP",
            f"v{g}-version": row.version,
        }
        response = client.post(world.url("validate_row"), data)
        return response, lambda: world.row().status == Status.VALIDATED
    if action == "correct":
        row = world.validated()
        data = world.boxes(f"g{g}", OTHER, version=row.version, referee_initials="RF")
        response = client.post(world.url("correct_row"), data)
        return response, lambda: world.row().referee_initials == "RF"
    if action == "verify":
        row = world.validated()
        response = client.post(world.url("verify_card"), seen_fields([row]))
        return response, lambda: world.row().status == Status.VERIFIED
    if action == "void":
        row = world.validated()
        response = client.post(
            world.url("void_card"), {"reason": "illegible", **seen_fields([row])}
        )
        return response, lambda: world.row().status == Status.VOIDED
    if action == "resolve-dispute":
        world.disputed()
        data = world.boxes(f"d{g}", WIN, initials="HR")
        response = client.post(
            world.url("resolve_dispute"), {**data, **seen_fields(disputed(world.game))}
        )
        return response, lambda: world.row().status == Status.VERIFIED
    if action == "view-disputes":
        world.disputed()
        response = client.get(world.url("disputes"))
        return response, lambda: b'class="dispute"' in response.content
    if action == "view-table":
        world.validated()
        response = client.get(world.url("table"))
        return response, lambda: b"1 card waiting" in response.content
    if action == "enter-paper":
        data = world.boxes(
            "paper", WIN, version=0, opponent_number=world.opponent.player.number, initials="OP"
        )
        response = client.post(world.url("paper_row"), data)
        return response, lambda: world.row() is not None
    if action == "confirm-paper":
        row = world.awaiting()
        url = reverse("scoring:cards:confirm_paper_row", args=[world.tournament.slug, row.id])
        response = client.post(url, {"version": row.version})
        return response, lambda: world.row().status == Status.VALIDATED
    raise AssertionError(action)


def as_role(world: World, client, role: str):
    """The client signed in as ``role``, or holding the private link of a ``-link`` role (a
    referee's browser holding the owner's link: both)."""
    if role.endswith("-link"):
        entry = world.owner if role == "owner-link" else world.opponent
        token = link_of(entry).token
        assert client.get(reverse("scoring:private_link", args=[world.tournament.slug, token]))
    elif role == "owner-link-referee":
        client.force_login(world.users["referee"])
        session = client.session
        session["entry_links"] = [[world.owner.id, link_of(world.owner).token]]
        session.save()
    elif role != "anonymous":
        client.force_login(world.user_for(role))
    return client


def refused_because_playing(response, role: str, conflicts: set[str]) -> None:
    """A refusal of staff who play says why, in words; anyone else's says who may."""
    text = response.content.decode()
    if role in conflicts:
        assert "You play" in text or "your own" in text, text[:600]
        assert "another official must" in text, text[:600]
    else:
        assert "another official must" not in text, text[:600]


def link_user(world: World, role: str) -> AnonymousUser:
    """What the private-link middleware makes of a browser holding the role's link."""
    entry = world.owner if role == "owner-link" else world.opponent
    user = AnonymousUser()
    user.entry_links = [(entry.id, link_of(entry).token)]
    return user


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ROLES)
def test_pages(world, client, role, action):
    as_role(world, client, role)
    response, took_effect = act(world, client, action)
    if role in ALLOWED[action]:
        assert response.status_code in (200, 302), response.content[:400]
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
        assert took_effect(), f"{role} was allowed to {action} but nothing happened"
    elif role == "anonymous" or (role.endswith("-link") and response.status_code == 302):
        # Staff pages ask for a login first: a private link is not one.
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
        assert action.startswith("view") or not took_effect()
    else:
        assert response.status_code == 403, (role, action, response.status_code)
        assert b"Not allowed" in response.content  # a readable page, not a bare status
        refused_because_playing(response, role, CONFLICTS[action])
        assert action.startswith("view") or not took_effect()


def _target(world: World, action: str):
    """The object each action's permission is asked about."""
    if action == "fill":
        return CardRow(card=world.card, game=world.game)
    if action in ("validate",):
        return world.filled()
    if action == "correct":
        return world.validated()
    if action in ("verify", "void"):
        world.validated()
        return world.card
    if action == "resolve-dispute":
        return world.disputed()
    if action == "enter-paper":
        return CardRow(card=world.card, game=world.game)  # the row it would write
    if action == "confirm-paper":
        return world.awaiting()
    return world.tournament


PERMS = {
    "fill": "scoring.fill_row",
    "validate": "scoring.validate_row",
    "correct": "scoring.correct_row",
    "verify": "scoring.verify_card",
    "void": "scoring.void_card",
    "resolve-dispute": "scoring.resolve_dispute",
    "view-disputes": "scoring.view_disputes",
    "view-table": "tournaments.view_official_pages",
    "enter-paper": "scoring.enter_paper_row",
    "confirm-paper": "scoring.confirm_paper_row",
}


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ROLES)
def test_has_perm(world, role, action):
    user = world.user_for(role)
    target = _target(world, action)
    assert user.has_perm(PERMS[action], target) is (role in ALLOWED[action])
    # The words of the refusal, for staff who play: why, not who may.
    words = conflict_refusal(user, PERMS[action], target)
    assert (words is not None) is (role in CONFLICTS[action]), words


def _import_every_step() -> None:
    """Import every ``actions`` module of the apps, where steps are declared (``actions.py``, or
    ``<what>_actions.py`` beside other steps: ``tournaments/staff_actions.py``)."""
    root = Path(__file__).resolve().parent.parent
    for package in ("tournaments", "scoring", "simulation"):
        for path in sorted((root / package).rglob("*actions.py")):
            importlib.import_module(".".join(path.relative_to(root).with_suffix("").parts))


#: Every declared step's row (``tests/matrix/``): who may, on what, who is refused as a player.
STEP_ROWS = matrix.rows()


def test_every_declared_step_has_its_rows():
    _import_every_step()
    declared = {action.name for action in actions.declared()}
    assert {step.name for step in row_steps.ROW_STEPS} <= declared
    missing = declared - set(STEP_ROWS)
    assert not missing, f"declared without rows in tests/matrix/: {sorted(missing)}"
    assert set(STEP_ROWS) <= declared, sorted(set(STEP_ROWS) - declared)


def test_the_card_steps_rows_agree_with_the_pages_matrix():
    """The card's steps are also taken through the pages (``test_pages``): both say the same."""
    for action, name in {
        "fill": "scoring.fill_row",
        "validate": "scoring.validate_row",
        "correct": "scoring.correct_row",
    }.items():
        assert STEP_ROWS[name].allowed == ALLOWED[action], name
        assert STEP_ROWS[name].conflicts == CONFLICTS[action], name


def _step_refusal_problem(step: actions.Action, row: matrix.Row, role: str, user, target):
    """What is wrong with ``step``'s refusal for ``role`` on ``target`` (None: as its row says)."""
    refused = step.refusal(user, target)
    if role in row.allowed:
        return None if refused is None else f"allowed, yet refused: {refused.text}"
    if refused is None or refused.kind != actions.Kind.FORBIDDEN:
        return f"not refused for the role: {refused and (refused.kind, refused.text)}"
    if not refused.text:
        return "refused without words"
    if ("another official must" in refused.text) is not (role in row.conflicts):
        return f"the words do not say why for staff who play: {refused.text}"
    return None


@pytest.mark.parametrize("name", sorted(STEP_ROWS))
def test_declared_steps_refuse_as_the_matrix_says(world, name):
    """Each step's own refusal (what a page shows beside a button it does not offer, and what
    the API answers) matches its row for every role: none for those allowed, on an object in a
    state where the step applies; the role's refusal (never a state's) for everyone else, in
    words, which say why for staff who play.

    One world per step, asked of every role: a staff-who-plays role gives the owner's (or the
    opponent's) login a staff role, so each is asked in a savepoint rolled back after it."""
    _import_every_step()
    step = actions.REGISTRY[name]
    row = STEP_ROWS[name]
    target = row.target(world)
    problems = {}
    for role in ROLES:
        if role not in WHO_PLAYS:
            problem = _step_refusal_problem(step, row, role, world.user_for(role), target)
        else:
            with transaction.atomic():
                user = world.user_for(role)
                problem = _step_refusal_problem(step, row, role, user, target)
                transaction.set_rollback(True)
            del world.users[role]
            for cached in ("_tournament_roles", "_played_entry_ids"):
                user.__dict__.pop(cached, None)
        if problem:
            problems[role] = problem
    assert not problems, (name, problems)


@pytest.mark.parametrize("perm", sorted(EXTRA_PERMS))
@pytest.mark.parametrize("role", ROLES)
def test_other_officials_permissions(world, role, perm):
    user = world.user_for(role)
    assert user.has_perm(perm, world.tournament) is (role in EXTRA_PERMS[perm])


def test_an_official_of_another_tournament_has_no_say_here(world, client):
    stranger = User.objects.create_user("elsewhere")
    other = StageFactory().category.tournament
    for role in (Role.HEAD_REFEREE, Role.SCORING_TABLE):
        TournamentRole.objects.create(tournament=other, user=stranger, role=role)
    world.validated()
    assert not stranger.has_perm("scoring.verify_card", world.card)
    client.force_login(stranger)
    assert client.post(world.url("verify_card")).status_code == 403
    assert client.get(world.url("disputes")).status_code == 403
    assert world.row().status == Status.VALIDATED


@pytest.mark.parametrize("path", ["page-login", "page-link", "api", "service"])
def test_the_owner_never_validates_their_own_row(world, client, path):
    """Whatever the path and however the owner signs in, typing the opponent's ID (printed on
    the owner's own card) does not validate the owner's row."""
    row = world.filled()
    number = str(world.opponent.player.number)
    g = world.game.id
    if path.startswith("page"):
        as_role(world, client, "owner" if path == "page-login" else "owner-link")
        data = {f"v{g}-opponent_number": number, f"v{g}-initials": "OP", f"v{g}-version": 1}
        assert client.post(world.url("validate_row"), data).status_code == 403
    elif path == "api":
        client.force_login(world.users["owner"])
        response = client.post(
            f"/api/card-rows/{row.id}/validate/",
            {"opponent_number": number, "initials": "OP", "version": row.version},
            content_type="application/json",
        )
        assert response.status_code == 403, response.content
    else:
        with pytest.raises(PermissionDenied):
            validate_row(row=row, opponent_number=number, initials="OP", user=world.users["owner"])
    assert world.row().status == Status.FILLED


# --- the event-day API and the seed editor -------------------------------------------------------
#
# Draws, check-in, seeds and pools, advancing, the round clock and the permission to create
# tournaments, through the API (and the seed editor's page): the same permission as the pages.
# Without a login (a private link is not one) the API answers 401; with one, 403.

# Draws, seeds, check-in and the clock rule on no game: organizers who play keep them.
ORGANIZERS = {"organizer", "co-organizer", "organizer-who-plays"}
CLOCK_RUNNERS = STAFF
EVENT_DAY_ALLOWED = {
    "api-draw": ORGANIZERS,
    "api-undo-draw": ORGANIZERS,
    "api-swap": ORGANIZERS,
    "api-advance": ORGANIZERS,
    "api-check-in": ORGANIZERS,
    "api-seeds": ORGANIZERS,
    "api-pool-move": ORGANIZERS,
    "api-clock-start": CLOCK_RUNNERS,
    "api-clock-set": CLOCK_RUNNERS,
    "api-may-create": ORGANIZERS,
    "api-may-not-create": ORGANIZERS,
    "page-seeds": ORGANIZERS,
    "page-pool-move": ORGANIZERS,
}


def _event_day_category(world: World, name: str, size: int):
    from django.db.models import Max

    from tests.factories import CategoryFactory, EntryFactory

    category = CategoryFactory(tournament=world.tournament, name=name)
    top = world.tournament.players.aggregate(top=Max("number"))["top"] or 0
    entries = [EntryFactory(category=category, player__number=top + 1 + n) for n in range(size)]
    return category, entries


def _pools_stage(world: World):
    """A round robin of five entries drawn into pools of three and two."""
    from tournaments.models import Stage
    from tournaments.services.draws import draw_stage
    from tournaments.services.seeding import stage_pools

    category, _ = _event_day_category(world, "Pools singles", 5)
    stage = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=1)
    draw_stage(stage, pool_count=2)
    lines = stage_pools(stage)
    big = max(lines, key=lambda line: len(line.entries))
    small = min(lines, key=lambda line: len(line.entries))
    mover = big.entries[0]

    def moved() -> bool:
        return any(
            line.name == small.name and mover.pk in {e.pk for e in line.entries}
            for line in stage_pools(stage)
        )

    return stage, mover, small.name, moved


def event_day_act(world: World, client, action: str):
    """Do ``action`` through its endpoint (or page); return the response and a check that it
    took effect."""
    from django.contrib.auth.models import Permission

    from scoring.results.services import record_game
    from tests.factories import allow_creating_tournaments
    from tournaments.models import Entry, Match, RoundClock, Stage
    from tournaments.services.draws import draw_stage

    slug = world.tournament.slug
    api = {"content_type": "application/json"}
    if action == "api-draw":
        category, _ = _event_day_category(world, "Draw singles", 4)
        stage = StageFactory(category=category, name="Prelim", games_per_entry=1, order=1)
        response = client.post(f"/api/stages/{stage.pk}/draw/", {}, **api)
        return response, lambda: Match.objects.filter(stage=stage).exists()
    if action == "api-undo-draw":
        response = client.post(f"/api/stages/{world.stage.pk}/undo-draw/", {}, **api)
        return response, lambda: not Match.objects.filter(stage=world.stage).exists()
    if action == "api-swap":
        body = {"entry_a": world.owner.pk, "entry_b": world.opponent.pk}
        response = client.post(f"/api/stages/{world.stage.pk}/swap/", body, **api)
        return response, lambda: Match.objects.get(pk=world.game.match_id).entry_a == world.opponent
    if action == "api-advance":
        from scoring.engine import round_data

        category, _ = _event_day_category(world, "Advance singles", 4)
        prelim = StageFactory(category=category, name="Prelim", games_per_entry=1, order=1)
        prelim.advance_count = 2
        prelim.save()
        final = StageFactory(category=category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
        draw_stage(prelim, method="rotation")
        for n, match in enumerate(Match.objects.filter(stage=prelim).order_by("id")):
            rounds = [round_data(points=(2, 0), twenties=(2 - n, 0))] * 4  # no two level
            record_game(match.games.get(), rounds)
        response = client.post(f"/api/stages/{prelim.pk}/advance/", {}, **api)
        return response, lambda: Match.objects.filter(stage=final).exists()
    if action == "api-check-in":
        Entry.objects.filter(pk=world.owner.pk).update(checked_in=False)
        body = {"entries": [world.owner.pk]}
        response = client.post(f"/api/categories/{world.owner.category_id}/check-in/", body, **api)
        return response, lambda: Entry.objects.get(pk=world.owner.pk).checked_in
    if action == "api-seeds":
        body = {"seeds": [{"entry": world.owner.pk, "seed": 1}]}
        response = client.patch(f"/api/categories/{world.owner.category_id}/seeds/", body, **api)
        return response, lambda: Entry.objects.get(pk=world.owner.pk).seed == 1
    if action in ("api-pool-move", "page-pool-move"):
        stage, mover, target, moved = _pools_stage(world)
        body = {"entry": mover.pk, "pool": target}
        if action == "api-pool-move":
            response = client.post(f"/api/stages/{stage.pk}/pools/", body, **api)
        else:
            url = reverse("tournaments:manage-stage-seeding", args=[slug, stage.pk])
            response = client.post(url, {"action": "move", **body})
        return response, moved
    if action == "page-seeds":
        url = reverse("tournaments:manage-stage-seeding", args=[slug, world.stage.pk])
        response = client.post(url, {"action": "seeds", f"seed-{world.owner.pk}": "1"})
        return response, lambda: Entry.objects.get(pk=world.owner.pk).seed == 1
    if action == "api-clock-start":
        response = client.post(f"/api/tournaments/{slug}/clock/start/", {}, **api)
        return response, lambda: RoundClock.objects.filter(
            tournament=world.tournament, state=RoundClock.State.RUNNING
        ).exists()
    if action == "api-clock-set":
        response = client.patch(f"/api/tournaments/{slug}/clock/", {"duration_s": 90}, **api)
        return response, lambda: RoundClock.objects.filter(
            tournament=world.tournament, duration_s=90
        ).exists()
    add = Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
    if action == "api-may-create":
        hopeful = User.objects.create_user("hopeful")  # of the staff: only they may be given it
        TournamentRole.objects.create(tournament=world.tournament, user=hopeful, role="referee")
        body = {"tournament": slug, "username": "hopeful"}
        response = client.post("/api/tournament-creators/", body, **api)
        return response, lambda: hopeful.user_permissions.filter(pk=add.pk).exists()
    if action == "api-may-not-create":
        referee = world.users["referee"]
        allow_creating_tournaments(referee)
        url = f"/api/tournament-creators/{referee.username}/?tournament={slug}"
        response = client.delete(url)
        return response, lambda: not referee.user_permissions.filter(pk=add.pk).exists()
    raise AssertionError(action)


@pytest.mark.parametrize("action", sorted(EVENT_DAY_ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_event_day_api_and_seed_editor(world, client, role, action):
    as_role(world, client, role)
    response, took_effect = event_day_act(world, client, action)
    allowed = role in EVENT_DAY_ALLOWED[action]
    if allowed:
        assert response.status_code in (200, 201, 204, 302), response.content[:400]
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
    elif action.startswith("page-"):
        # A private link is no login: the page asks for one, or says who may (as above).
        if role == "anonymous" or (role.endswith("-link") and response.status_code == 302):
            assert response.status_code == 302
            assert response["Location"].startswith("/accounts/login/")
        else:
            assert response.status_code == 403 and b"Not allowed" in response.content
    elif role == "anonymous" or role.endswith("-link"):
        assert response.status_code == 401, (role, action, response.status_code)
    else:
        assert response.status_code == 403, (role, action, response.status_code)
        assert response.json()["detail"]  # says who may
    assert took_effect() is allowed, f"{role} / {action}"


# --- closed stages: the head referee's change of a closed result, undoing an advance -----------
#
# Once a stage has advanced its results are locked: only the head referee changes one (with a
# reason; the page previews first, then confirms), and only the organizers undo the advance.

CLOSED_ALLOWED = {
    # the head referee who plays in the game changes none of its results: another official
    "page-change-closed": {"head-referee"},
    "api-change-closed": {"head-referee"},
    # undoing an advance rules on no game
    "page-undo-advance": ORGANIZERS,
    "api-undo-advance": ORGANIZERS,
}
CLOSED_CONFLICTS = {
    "page-change-closed": {"head-referee-who-plays", "head-referee-opponent"},
    "api-change-closed": {"head-referee-who-plays", "head-referee-opponent"},
    "page-undo-advance": set(),
    "api-undo-advance": set(),
}
#: Asked of the tournament (is the button's page for them), then of the game's match.
CLOSED_PERMS = {
    "scoring.change_closed_result": {
        "head-referee",
        "head-referee-who-plays",
        "head-referee-opponent",
    },
    "scoring.undo_advance": ORGANIZERS,
}
CLOSED_PERMS_OF_THE_GAME = {
    "scoring.change_closed_result": {"head-referee"},
    "scoring.undo_advance": ORGANIZERS,
}


def _close_stage(world: World) -> None:
    """The owner's game played, a final after the stage seeded with the two players: the stage
    has advanced (its next stage holds entries), so its results are closed."""
    from scoring.progression.locks import stage_closed
    from scoring.results.services import record_game
    from tournaments.models import Stage
    from tournaments.selectors import BRACKET_POOL
    from tournaments.services.draws import store_pool

    record_game(world.game, WIN)
    final = StageFactory(
        category=world.stage.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2
    )
    store_pool(final, BRACKET_POOL, [world.owner, world.opponent])
    assert stage_closed(world.stage)


def closed_act(world: World, client, action: str):
    from scoring.models import ClosedStageChange
    from scoring.progression.locks import stage_closed

    _close_stage(world)
    slug = world.tournament.slug
    if action.endswith("change-closed"):
        if action.startswith("page"):
            url = reverse("scoring:closed_change", args=[slug, world.stage.pk, world.game.pk])
            data = world.boxes("change", OTHER, initials="HR", reason="misread")
            data["action"] = "confirm"
            response = client.post(url, data)
        else:
            body = {"rounds": OTHER, "reason": "misread", "initials": "HR"}
            response = client.post(
                f"/api/games/{world.game.pk}/closed-change/", body, content_type="application/json"
            )
        return response, lambda: ClosedStageChange.objects.filter(game=world.game).exists()
    if action == "page-undo-advance":
        response = client.post(reverse("scoring:undo_advance", args=[slug, world.stage.pk]))
    else:
        response = client.post(f"/api/stages/{world.stage.pk}/undo-advance/")
    return response, lambda: not stage_closed(world.stage)


@pytest.mark.parametrize("action", sorted(CLOSED_ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_closed_stage_actions(world, client, role, action):
    as_role(world, client, role)
    response, took_effect = closed_act(world, client, action)
    allowed = role in CLOSED_ALLOWED[action]
    if allowed:
        assert response.status_code in (200, 201, 302), response.content[:400]
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
    elif action.startswith("page-"):
        if role == "anonymous" or (role.endswith("-link") and response.status_code == 302):
            assert response.status_code == 302
            assert response["Location"].startswith("/accounts/login/")
        else:
            assert response.status_code == 403 and b"Not allowed" in response.content
            refused_because_playing(response, role, CLOSED_CONFLICTS[action])
    elif role == "anonymous" or role.endswith("-link"):
        assert response.status_code in (401, 403), (role, action, response.status_code)
    elif role in CLOSED_CONFLICTS[action]:
        assert response.status_code == 403, (role, action, response.status_code)
        assert "another official must" in response.json()["detail"]  # says why
    else:
        assert response.status_code == 403, (role, action, response.status_code)
        assert response.json()["detail"].startswith("Only the ")  # says who may
    assert took_effect() is allowed, f"{role} / {action}"


@pytest.mark.parametrize("perm", sorted(CLOSED_PERMS))
@pytest.mark.parametrize("role", ROLES)
def test_closed_stage_permissions(world, role, perm):
    user = world.user_for(role)
    assert user.has_perm(perm, world.tournament) is (role in CLOSED_PERMS[perm])
    assert user.has_perm(perm, world.game.match) is (role in CLOSED_PERMS_OF_THE_GAME[perm])


# --- walkovers and forfeits: withdrawals, disqualifications, the head referee's forfeits -------
#
# WCC: "Careless or deliberate contravention of the rules may result in the forfeiture of a round
# or a game and possible disqualification from the tournament." Withdrawing (and reinstating a
# withdrawal) is the organizers'; disqualifying the head referee's, and the organizers' too (they
# run the event); forfeiting a round or a game the head referee's alone. Each through its page
# and through the API, the same roles.

FORFEIT_ALLOWED = {
    # The opponent withdraws or is disqualified, and the owner's game against them becomes a
    # walkover in the owner's favour: the owner, whatever staff role, is not the one to record
    # it, nor the opponent to disqualify himself (see ``test_withdrawing_oneself`` for the one
    # thing a player who organizes may do to their own entry).
    "withdraw": {"organizer", "co-organizer"},
    "disqualify": {"organizer", "co-organizer", "head-referee"},
    "reinstate": {"organizer", "co-organizer"},
    # taking back a disqualification: whoever may disqualify
    "reinstate-disqualified": {"organizer", "co-organizer", "head-referee"},
    "forfeit-game": {"head-referee"},
    "forfeit-round": {"head-referee"},
}
FORFEIT_CONFLICTS = {
    "withdraw": {"organizer-who-plays"},
    "disqualify": {"organizer-who-plays", "head-referee-who-plays", "head-referee-opponent"},
    "reinstate": {"organizer-who-plays"},
    "reinstate-disqualified": {
        "organizer-who-plays",
        "head-referee-who-plays",
        "head-referee-opponent",
    },
    "forfeit-game": {"head-referee-who-plays", "head-referee-opponent"},
    "forfeit-round": {"head-referee-who-plays", "head-referee-opponent"},
}
FORFEIT_PERMS = {
    "withdraw": "tournaments.withdraw_entry",
    "disqualify": "tournaments.disqualify_entry",
    "reinstate": "tournaments.withdraw_entry",
    "reinstate-disqualified": "tournaments.disqualify_entry",
    "forfeit-game": "scoring.forfeit",
    "forfeit-round": "scoring.forfeit",
}


def forfeit_act(world: World, client, action: str, *, api: bool):
    """Do ``action`` through its page (or the API); return the response and a check that it
    took effect. The opponent withdraws, or the owner's game (or its first round) is forfeited."""
    from scoring.results.services import record_game
    from tournaments.models import Entry, Game, Round
    from tournaments.services.forfeits import withdraw_entry

    slug = world.tournament.slug
    opponent = world.opponent
    json = {"content_type": "application/json"}

    def withdrawn() -> bool:
        return Entry.objects.get(pk=opponent.pk).withdrawn

    if action in ("withdraw", "disqualify"):
        body = {"kind": "withdrawal" if action == "withdraw" else "disqualification"}
        body["reason"] = "coaching after a warning"
        if api:
            response = client.post(f"/api/entries/{opponent.pk}/withdraw/", body, **json)
        else:
            url = reverse("scoring:rulings:withdraw", args=[slug, opponent.pk])
            response = client.post(url, body)
        return response, withdrawn
    if action.startswith("reinstate"):
        if action == "reinstate":
            withdraw_entry(entry=opponent)
        else:
            withdraw_entry(entry=opponent, kind="disqualification", reason="coaching")
        if api:
            response = client.post(f"/api/entries/{opponent.pk}/reinstate/", {}, **json)
        else:
            response = client.post(reverse("scoring:rulings:reinstate", args=[slug, opponent.pk]))
        return response, lambda: not withdrawn()
    record_game(world.game, WIN)
    game = world.game.pk
    if action == "forfeit-game":
        if api:
            body = {"side": "b", "reason": "coaching"}
            response = client.post(f"/api/games/{game}/forfeit/", body, **json)
        else:
            url = reverse("scoring:rulings:forfeit_game", args=[slug, game])
            response = client.post(url, {"game-side": "b", "game-reason": "coaching"})
        return response, lambda: Game.objects.get(pk=game).forfeited_by == "b"
    if api:
        body = {"round": 1, "side": "a", "reason": "slow play"}
        response = client.post(f"/api/games/{game}/forfeit-round/", body, **json)
    else:
        url = reverse("scoring:rulings:forfeit_round", args=[slug, game])
        data = {"round-round": "1", "round-side": "a", "round-reason": "slow play"}
        response = client.post(url, data)
    return response, lambda: Round.objects.get(game_id=game, number=1).forfeited_by == "a"


@pytest.mark.parametrize("path", ["page", "api"])
@pytest.mark.parametrize("action", sorted(FORFEIT_ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_walkovers_and_forfeits(world, client, role, action, path):
    as_role(world, client, role)
    response, took_effect = forfeit_act(world, client, action, api=path == "api")
    allowed = role in FORFEIT_ALLOWED[action]
    if allowed:
        assert response.status_code in (200, 302), response.content[:400]
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
    elif path == "page":
        if role == "anonymous" or (role.endswith("-link") and response.status_code == 302):
            assert response.status_code == 302
            assert response["Location"].startswith("/accounts/login/")
        else:
            assert response.status_code == 403 and b"Not allowed" in response.content
            refused_because_playing(response, role, FORFEIT_CONFLICTS[action])
    elif role == "anonymous" or role.endswith("-link"):
        assert response.status_code in (401, 403), (role, action, response.status_code)
    elif role in FORFEIT_CONFLICTS[action]:
        assert response.status_code == 403, (role, action, response.status_code)
        assert "another official must" in response.json()["detail"]  # says why
    else:
        assert response.status_code == 403, (role, action, response.status_code)
        assert response.json()["detail"].startswith("Only the ")  # says who may
    assert took_effect() is allowed, f"{role} / {action} / {path}"


@pytest.mark.parametrize("action", sorted(FORFEIT_ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_walkover_and_forfeit_permissions(world, role, action):
    user = world.user_for(role)
    target = world.game.match if action.startswith("forfeit") else world.opponent
    assert user.has_perm(FORFEIT_PERMS[action], target) is (role in FORFEIT_ALLOWED[action])


@pytest.mark.parametrize("role", ROLES)
def test_shootout_takers(world, role):
    """A shoot-out is recorded by a referee or the scoring table who does not shoot in it."""
    user = world.user_for(role)
    takers = ShootoutTakers(world.stage, frozenset({world.owner.id, world.opponent.id}))
    allowed = {"head-referee", "referee", "scoring-table"}
    assert user.has_perm("scoring.record_shootout", takers) is (role in allowed)
    others = ShootoutTakers(world.stage, frozenset({world.other.id}))
    assert user.has_perm("scoring.record_shootout", others) is (
        role in EXTRA_PERMS["scoring.record_shootout"]
    )


def test_withdrawing_oneself(world, client):
    """An organizer who plays may record their own withdrawal (their own choice to leave; the
    walkovers go against them), and take it back; never their own disqualification."""
    from tournaments.models import Entry

    as_role(world, client, "organizer-who-plays")
    url = reverse("scoring:rulings:withdraw", args=[world.tournament.slug, world.owner.pk])
    response = client.post(url, {"kind": "disqualification", "reason": "no"})
    assert response.status_code == 403 and "your own entry" in response.content.decode()
    assert not Entry.objects.get(pk=world.owner.pk).withdrawn
    response = client.post(url, {"kind": "withdrawal", "reason": "unwell"})
    assert response.status_code == 302, response.content[:400]
    assert Entry.objects.get(pk=world.owner.pk).withdrawn
    back = reverse("scoring:rulings:reinstate", args=[world.tournament.slug, world.owner.pk])
    assert client.post(back).status_code == 302
    assert not Entry.objects.get(pk=world.owner.pk).withdrawn
