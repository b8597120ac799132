"""``lock_games``: the one lock order of every write on a game's result."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tests.factories import GameFactory
from tournaments.models import Game
from tournaments.services.game_locks import lock_games

pytestmark = pytest.mark.django_db


def test_games_are_locked_in_ascending_id_order_from_instances_ids_or_a_query():
    games = [GameFactory() for _ in range(3)]
    ids = sorted(g.pk for g in games)
    with transaction.atomic():
        assert lock_games([games[2], ids[0], games[1]]) == ids
        assert (
            lock_games(Game.objects.filter(pk__in=ids[1:]).values_list("pk", flat=True))
            == (ids[1:])
        )
        assert lock_games([]) == []


def test_a_query_of_games_is_locked_in_one_statement():
    games = [GameFactory() for _ in range(2)]
    query = Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", flat=True)
    with transaction.atomic(), CaptureQueriesContext(connection) as seen:
        lock_games(query)
    statements = [q["sql"] for q in seen.captured_queries if "tournaments_game" in q["sql"]]
    assert len(statements) == 1
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in statements[0] and "ORDER BY" in statements[0]


@pytest.mark.django_db(transaction=True)
def test_locking_outside_a_transaction_is_a_programming_error():
    game = GameFactory()
    with pytest.raises(transaction.TransactionManagementError):
        lock_games([game])
    assert lock_games([]) == []  # nothing to lock: nothing to refuse
