"""Celery tasks run on a real worker: Redis in CI, the in-memory broker elsewhere."""

import pytest

from scoring.engine import round_data
from scoring.results.services import record_game
from scoring.tasks import standings_snapshot
from tests.celery_support import running_worker
from tests.factories import EntryFactory, StageFactory
from tournaments.models import Game, Match


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_standings_snapshot_through_a_worker():
    stage = StageFactory()
    a, b = (EntryFactory(category=stage.category) for _ in range(2))
    game = Game.objects.create(match=Match.objects.create(stage=stage, entry_a=a, entry_b=b))
    record_game(
        game, [round_data(points=(2, 0), twenties=(1, 0))] * 3 + [round_data(points=(0, 2))]
    )
    with running_worker():
        result = standings_snapshot.delay(stage.id).get(timeout=30)
    assert [row["entry"] for row in result] == [a.name, b.name]
    assert [row["points"] for row in result] == [6, 2]
    assert result[0]["twenties"] == 3
