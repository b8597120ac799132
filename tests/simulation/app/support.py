"""Small tournaments for the simulation tests: tiny games (few discs, one or two rounds) so that
simulated play stays fast."""

from __future__ import annotations

from django.contrib.auth.models import User

from tests.factories import (
    BoardFactory,
    CategoryFactory,
    EntryFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tournaments.models import Category, Stage, Tournament, TournamentRole


def make_tournament(
    slug: str = "sim-open",
    *,
    players: int = 4,
    discs: int = 2,
    rounds: int = 1,
    boards: int = 2,
) -> tuple[Tournament, Category]:
    tournament = TournamentFactory(name=f"Sim Open {slug}", slug=slug, game_minutes=20)
    for number in range(1, boards + 1):
        BoardFactory(tournament=tournament, number=number)
    category = CategoryFactory(
        tournament=tournament,
        name="Competitive Singles",
        preset="competitive-singles",
        discs_per_player=discs,
        rounds_per_game=rounds,
    )
    for n in range(players):
        EntryFactory(
            category=category,
            checked_in=True,
            player__first_name=f"P{n + 1}",
            player__last_name="Sim",
            player__number=201 + n,
            player__club=f"Club {n % 3}",
        )
    return tournament, category


def add_stage(category: Category, order: int, kind: str, **fields) -> Stage:
    return Stage.objects.create(
        category=category, name=fields.pop("name", kind.title()), kind=kind, order=order, **fields
    )


def organizer_of(tournament: Tournament, username: str = "org") -> User:
    return TournamentRoleFactory(
        tournament=tournament, role=TournamentRole.Role.ORGANIZER, user__username=username
    ).user
