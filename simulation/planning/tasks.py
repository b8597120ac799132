"""Celery tasks of the simulation's planning (thin: they call its services)."""

from __future__ import annotations

from celery import shared_task

from simulation.planning import services


@shared_task(ignore_result=True)
def run_plan(run_id: int) -> None:
    """Work out a planning run's forecast (a 100-player day in a few seconds)."""
    services.run_plan(run_id)
