"""Celery tasks of the ratings: a full recompute (queued after a result that cannot be applied
alone, by a record keeper's button, after an event is published to the ranking) and the nightly
run (``CELERY_BEAT_SCHEDULE``). Imported by ``scoring.tasks`` so worker autodiscovery finds them.

A recompute rewrites every rating of its discipline from the record, so running one twice (a
worker that died and the task handed out again) writes the same figures twice: harmless.
"""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task

from scoring.models.record import RankingSnapshot
from scoring.ratings.ranking import take_snapshot
from scoring.ratings.services import disciplines_of, recompute


def _reporter(task: Any):
    def progress(done: int, total: int) -> None:
        if task.request.called_directly or task.request.is_eager:
            return
        task.update_state(state="PROGRESS", meta={"done": done, "total": total, "at": time.time()})

    return progress


@shared_task(bind=True, name="scoring.recompute_ratings")
def recompute_ratings(
    self,
    discipline: str | list[str] | None = None,
    reason: str = "",
    tournament_id: int | None = None,
) -> dict[str, object]:
    """Recompute ``discipline`` (one, a list, or every one for None); with ``reason`` (``event``,
    ``nightly``, ``import``), take a snapshot of each ranking recomputed."""
    from tournaments.models import Tournament

    done = recompute(discipline, progress=_reporter(self))
    disciplines = disciplines_of(discipline)
    if reason:
        tournament = Tournament.objects.filter(pk=tournament_id).first() if tournament_id else None
        for each in disciplines:
            take_snapshot(each, reason, tournament)
    return {
        "games": done.games,
        "people": done.people,
        "points": done.points,
        "seconds": round(done.seconds, 2),
    }


@shared_task(name="scoring.nightly_ratings")
def nightly_ratings() -> dict[str, object]:
    """Every night: every discipline recomputed from the record and its ranking kept."""
    return recompute_ratings.run(reason=RankingSnapshot.Reason.NIGHTLY)
