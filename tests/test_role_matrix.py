"""Who may do what with scorecards and the officials' pages: every role against every action,
through the pages (HTTP) and through ``user.has_perm``.

WCC: players mark their own cards and the opponent validates them with ID and initials; any
correction must be initialled by a referee; the scoring table verifies or voids cards; the head
referee rules on what the rules do not settle, here the disputes between two cards.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scoring.models import CardRow
from scoring.scorecards.services import card_for, fill_row, validate_row
from tests.events import PLAYER, SmallEvent
from tests.factories import StageFactory
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role
Status = CardRow.Status

ROLES = [
    "organizer",
    "head-referee",
    "referee",
    "scoring-table",
    "owner",
    "opponent",
    "other-player",
    "anonymous",
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
]
#: The expected matrix: who may do each action (everyone else is refused).
ALLOWED = {
    "fill": {"head-referee", "referee", "owner"},
    "validate": {"owner", "opponent"},  # the owner's phone handed across, or the opponent's own
    "correct": {"head-referee", "referee"},
    "verify": {"head-referee", "scoring-table"},
    "void": {"head-referee", "scoring-table"},
    "resolve-dispute": {"head-referee"},
    "view-disputes": {"head-referee", "referee", "scoring-table"},
    "view-table": {"organizer", "head-referee", "referee", "scoring-table"},
}
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]
OTHER = [{"points": [0, 2], "twenties": [1, 3]}] * 3 + [{"points": [1, 1], "twenties": [1, 1]}]

#: Permissions the other officials' pages use, checked through ``has_perm`` only.
EXTRA_PERMS = {
    "tournaments.manage_tournament": {"organizer"},
    "scoring.print_cards": {"organizer", "scoring-table", "head-referee"},
}


class World:
    """The shared small event seen from one scorecard: the card owner is the event's player, in
    the game against the opponent; another player, the officials and an anonymous visitor."""

    def __init__(self, event: SmallEvent):
        self.stage = event.stage
        self.tournament = event.tournament
        self.users = {("owner" if role == PLAYER else role): u for role, u in event.users.items()}
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
            user=self.users["opponent"],
        )
        row = CardRow.objects.get(card=self.card, game=self.game)
        assert row.status == Status.DISPUTED
        return row

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
    raise AssertionError(action)


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ROLES)
def test_pages(world, client, role, action):
    if role != "anonymous":
        client.force_login(world.users[role])
    response, took_effect = act(world, client, action)
    if role in ALLOWED[action]:
        assert response.status_code in (200, 302), response.content[:400]
        if response.status_code == 302:
            assert "/accounts/login/" not in response["Location"]
        assert took_effect(), f"{role} was allowed to {action} but nothing happened"
    elif role == "anonymous":
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
}


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("role", ROLES)
def test_has_perm(world, role, action):
    target = _target(world, action)
    user = world.users[role]
    assert user.has_perm(PERMS[action], target) is (role in ALLOWED[action])


@pytest.mark.parametrize("perm", sorted(EXTRA_PERMS))
@pytest.mark.parametrize("role", ROLES)
def test_other_officials_permissions(world, role, perm):
    user = world.users[role]
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
