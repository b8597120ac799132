"""Who may do what with scorecards and the officials' pages: every role against every action,
through the pages (HTTP) and through ``user.has_perm``.

WCC: players mark their own cards and the opponent validates them with ID and initials; any
correction must be initialled by a referee; the scoring table verifies or voids cards; the head
referee rules on what the rules do not settle, here the disputes between two cards.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.models import CardRow
from scoring.scorecards.services import card_for, enter_paper_row, fill_row, validate_row
from tests.events import PLAYER, SmallEvent
from tests.factories import StageFactory
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
]
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
    "fill": {"head-referee", "referee", "owner", "owner-link"},
    # the opponent's act, on their own login or link: never the owner's, whatever ID is typed
    "validate": {"opponent", "opponent-link"},
    "correct": {"head-referee", "referee"},
    "verify": {"head-referee", "scoring-table"},
    "void": {"head-referee", "scoring-table"},
    "resolve-dispute": {"head-referee"},
    # The organizers see the staff pages of the event they run (ruling stays the head referee's).
    "view-disputes": {"organizer", "co-organizer", "head-referee", "referee", "scoring-table"},
    "view-table": {"organizer", "co-organizer", "head-referee", "referee", "scoring-table"},
    # paper cards: staff type the row in (a player never can), a second staff member confirms
    "enter-paper": {"head-referee", "referee", "scoring-table"},
    "confirm-paper": {"head-referee", "referee", "scoring-table"},
}
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
OTHER = [{"points": [0, 2], "twenties": [1, 3]}] * 3 + [{"points": [1, 1], "twenties": [1, 1]}]

#: Permissions the other officials' pages use, checked through ``has_perm`` only.
EXTRA_PERMS = {
    "tournaments.manage_tournament": {"organizer", "co-organizer"},
    "tournaments.manage_staff": {"organizer", "co-organizer"},
    "scoring.print_cards": {"organizer", "co-organizer", "scoring-table", "head-referee"},
    # shoot-outs are recorded where they are shot: a referee or the scoring table
    "scoring.record_shootout": {"head-referee", "referee", "scoring-table"},
    # the round clock: the officials who run the hall start, pause and reset it; players watch
    "tournaments.run_clock": {
        "organizer",
        "co-organizer",
        "head-referee",
        "referee",
        "scoring-table",
    },
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
        self.game = event.game
        self.card = card_for(self.stage, self.owner)

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
        self.validated()
        theirs = card_for(self.stage, self.opponent)
        row = fill_row(card=theirs, game=self.game, rounds=OTHER, user=self.users["opponent"])
        validate_row(
            row=row,
            opponent_number=str(self.owner.player.number),
            initials="OW",
            user=self.users["owner"],
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
        world.validated()
        response = client.post(world.url("verify_card"))
        return response, lambda: world.row().status == Status.VERIFIED
    if action == "void":
        world.validated()
        response = client.post(world.url("void_card"), {"reason": "illegible"})
        return response, lambda: world.row().status == Status.VOIDED
    if action == "resolve-dispute":
        world.disputed()
        response = client.post(
            world.url("resolve_dispute"), world.boxes(f"d{g}", WIN, initials="HR")
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
    """The client signed in as ``role``, or holding the private link of a ``-link`` role."""
    if role.endswith("-link"):
        entry = world.owner if role == "owner-link" else world.opponent
        token = link_of(entry).token
        assert client.get(reverse("scoring:private_link", args=[world.tournament.slug, token]))
    elif role != "anonymous":
        client.force_login(world.users[role])
    return client


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
        return world.card
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
    target = _target(world, action)
    user = link_user(world, role) if role.endswith("-link") else world.users[role]
    assert user.has_perm(PERMS[action], target) is (role in ALLOWED[action])


@pytest.mark.parametrize("perm", sorted(EXTRA_PERMS))
@pytest.mark.parametrize("role", ROLES)
def test_other_officials_permissions(world, role, perm):
    user = link_user(world, role) if role.endswith("-link") else world.users[role]
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
