"""List endpoints cost the same number of queries for 3 rows as for 10 (no N+1)."""

import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.engine import round_data
from scoring.models import CardRow
from scoring.results.services import record_game
from scoring.scorecards.services import card_for
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    PlayerFactory,
    StageFactory,
    TournamentFactory,
)
from tournaments.models import Board, Category, Game, Match, Pool, Team

pytestmark = pytest.mark.django_db

ROW = [{"points": [2, 0], "twenties": [1, 0], "score": None, "time_expired": False}] * 4
_numbers = itertools.count(100)


def grow(world, n: int) -> None:
    """Add ``n`` of everything the list endpoints show, with all their related rows."""
    t, stage = world.tournament, world.stage
    doubles = Category.objects.get_or_create(
        tournament=t, name="Doubles", defaults={"kind": Category.Kind.DOUBLES}
    )[0]
    for _ in range(n):
        number = next(_numbers)
        TournamentFactory()
        CategoryFactory(tournament=t)
        StageFactory(category=stage.category)
        a = EntryFactory(category=stage.category)
        b = EntryFactory(category=stage.category)
        team = Team.objects.create(
            tournament=t,
            player_one=PlayerFactory(tournament=t),
            player_two=PlayerFactory(tournament=t),
        )
        EntryFactory(category=doubles, player=None, team=team)
        board = Board.objects.create(tournament=t, number=number)
        pool = Pool.objects.create(stage=stage, name=f"P{number}")
        match = Match.objects.create(stage=stage, entry_a=a, entry_b=b, board=board, pool=pool)
        game = Game.objects.create(match=match, number=1)
        record_game(game, [round_data(points=(2, 0), twenties=(1, 0))] * 4)
        CardRow.objects.create(card=card_for(stage, a), game=game, rounds=ROW)
        CardRow.objects.create(card=card_for(stage, b), game=game, rounds=ROW)


def count_queries(client, url: str) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    body = response.json()
    size = body["count"] if "count" in body else len(body["lines"])
    return len(queries), size


@pytest.mark.parametrize(
    ("user", "url"),
    [
        (None, "/api/tournaments/"),
        (None, "/api/categories/"),
        (None, "/api/players/"),
        (None, "/api/teams/"),
        (None, "/api/entries/"),
        (None, "/api/stages/"),
        (None, "/api/matches/"),
        ("table", "/api/scorecards/"),
        ("table", "/api/card-rows/"),
        (None, "/api/stages/{stage}/standings/"),
    ],
)
def test_list_queries_do_not_grow_with_the_list(world, client_for, user, url):
    client = client_for(user)
    url = url.format(stage=world.stage.id)
    grow(world, 3)
    small, small_size = count_queries(client, url)
    grow(world, 7)
    large, large_size = count_queries(client, url)
    assert large_size > small_size
    assert large == small, f"{url}: {small} queries for {small_size} rows, {large} for {large_size}"
