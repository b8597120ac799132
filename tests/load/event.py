"""The event a burst plays on: one round of 25 games between 50 players with logins, both rows
of every game filled (by a referee) and agreeing, the tokens of everyone who acts. Written
through the services, like any event; what the burst needs is handed over as plain data
(``Plan``), since the burst itself only speaks HTTP."""

from __future__ import annotations

from dataclasses import dataclass

from rest_framework.authtoken.models import Token

from scoring.scorecards.services import card_for, fill_row
from tests.events import OFFICIALS, build_small_event
from tests.factories import UserFactory
from tournaments.models import Match

#: Every game: Ann's side wins three rounds, drops one (her row; the opponent's is the mirror).
ROUNDS = [{"points": [2, 0], "twenties": [2, 1]}] * 3 + [{"points": [0, 2], "twenties": [0, 2]}]
#: The referee's correction raced against the verify: the last round was a tie.
CORRECTED = [*ROUNDS[:3], {"points": [1, 1], "twenties": [0, 2]}]


def mirror(rounds: list[dict]) -> list[dict]:
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


@dataclass(frozen=True)
class Side:
    token: str
    number: str
    card: int
    row: int


@dataclass(frozen=True)
class Pair:
    game: int
    a: Side
    b: Side


@dataclass(frozen=True)
class Plan:
    tournament: str
    pairs: list[Pair]
    referee: str
    table: str


def build_plan(pairs: int = 25) -> Plan:
    """The event, committed; returns who acts and on which rows."""
    event = build_small_event(players=2 * pairs, games_per_entry=1, boards=pairs)
    tokens = {
        str(role): Token.objects.create(user=event.users[str(role)]).key for role in OFFICIALS
    }
    plan = []
    for match in Match.objects.filter(stage=event.stage).select_related(
        "entry_a__player", "entry_b__player"
    ):
        game = match.games.get()
        sides = []
        for entry, rounds in ((match.entry_a, ROUNDS), (match.entry_b, mirror(ROUNDS))):
            user = entry.player.user or UserFactory(
                username=f"load-{event.tournament.slug}-{entry.player.number}"
            )
            if entry.player.user_id is None:
                entry.player.user = user
                entry.player.save(update_fields=["user"])
            card = card_for(event.stage, entry)
            # Typed in by a referee for the player: each row waits for the opponent's signature,
            # which the burst gives them all at once (two rows each player entered themselves
            # would validate each other as soon as both are in).
            row = fill_row(card=card, game=game, rounds=rounds, user=event.users["referee"])
            token = Token.objects.get_or_create(user=user)[0].key
            sides.append(Side(token, str(entry.player.number), card.pk, row.pk))
        plan.append(Pair(game.pk, *sides))
    return Plan(
        tournament=event.tournament.slug,
        pairs=plan,
        referee=tokens["referee"],
        table=tokens["scoring-table"],
    )
