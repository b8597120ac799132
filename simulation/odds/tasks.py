"""Celery tasks of the simulation's odds (thin: they call its services)."""

from __future__ import annotations

from celery import shared_task

from simulation.odds import services
from tournaments.models import Stage


@shared_task(ignore_result=True)
def refresh_stage_odds(stage_id: int) -> None:
    """Work the stage's cut odds out again, unless they already stand on its results: a burst
    of results queues one task each, and all but the first find nothing to do."""
    stage = Stage.objects.select_related("category__tournament").filter(pk=stage_id).first()
    if stage is not None:
        services.refresh_if_stale(stage)
