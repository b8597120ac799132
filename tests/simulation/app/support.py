"""Small tournaments for the simulation tests: tiny games (few discs, one or two rounds) so that
simulated play stays fast."""

from __future__ import annotations

from django.contrib.auth.models import User

from tournaments.models import Board, Category, Entry, Player, Stage, Tournament, TournamentRole


def make_tournament(
    slug: str = "sim-open",
    *,
    players: int = 4,
    discs: int = 2,
    rounds: int = 1,
    boards: int = 2,
) -> tuple[Tournament, Category]:
    tournament = Tournament.objects.create(name=f"Sim Open {slug}", slug=slug, game_minutes=20)
    Board.objects.bulk_create(Board(tournament=tournament, number=n) for n in range(1, boards + 1))
    category = Category.objects.create(
        tournament=tournament,
        name="Competitive Singles",
        preset="competitive-singles",
        discs_per_player=discs,
        rounds_per_game=rounds,
    )
    for n in range(players):
        player = Player.objects.create(
            tournament=tournament,
            first_name=f"P{n + 1}",
            last_name="Sim",
            number=201 + n,
            club=f"Club {n % 3}",
        )
        Entry.objects.create(category=category, player=player, checked_in=True)
    return tournament, category


def add_stage(category: Category, order: int, kind: str, **fields) -> Stage:
    return Stage.objects.create(
        category=category, name=fields.pop("name", kind.title()), kind=kind, order=order, **fields
    )


def organizer_of(tournament: Tournament, username: str = "org") -> User:
    user = User.objects.create_user(username, password="pw")
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    return user
