"""From verified results to fresh odds: the receiver of
``scoring.results.signals.official_results_changed`` (connected in ``SimulationConfig.ready``)
queues one task per stage whose games changed. It runs after the result's transaction
committed, so the task reads the result; a queue that cannot be reached is logged and costs the
result nothing (the next result queues the stage again)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from tournaments.models import Game, Stage

logger = logging.getLogger(__name__)


def stages_with_odds(game_ids: Iterable[int]) -> list[int]:
    """The preliminaries the games belong to (one query): the only stages with cut odds."""
    games = Game.objects.filter(
        id__in=list(game_ids), match__stage__kind=Stage.Kind.PRELIMINARY
    ).order_by()
    return sorted(set(games.values_list("match__stage_id", flat=True)))


def results_changed(sender=None, game_ids: Iterable[int] = (), **kwargs) -> None:
    """Queue the odds of each stage the changed games belong to."""
    from config.celery import QueueUnreachable, publish
    from simulation.odds.tasks import refresh_stage_odds

    for stage_id in stages_with_odds(game_ids):
        try:
            publish(lambda stage_id=stage_id: refresh_stage_odds.delay(stage_id))
        except QueueUnreachable as exc:
            logger.warning("cut odds of stage %s not queued: %s", stage_id, exc)
