"""The organizer's step on planning: start a planning dry run (``planning.start_plan``).

Declared once (``tournaments.actions``): the page's form and the API take the same inputs; the
task queue is asked first, so nothing is written that no worker will ever see, and the run's
task is sent once the transaction committed (a queue gone meanwhile fails the run in words).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext_lazy

from config.celery import QueueUnreachable, check_queue
from simulation.models import PlanningRun, Status
from simulation.planning import services
from tournaments.actions import Action, Kind, Refused
from tournaments.models import Tournament
from tournaments.permissions import MANAGE_TOURNAMENT

FIELDS = (
    "category",
    "entries",
    "boards",
    "day_start",
    "day_end",
    "game_minutes",
    "break_minutes",
    "prelim_games",
    "playoffs",
    "best_of",
    "repetitions",
)

WHO = gettext_lazy(
    "Organizers only: only the organizers of a tournament plan its day; the plans stay open to "
    "them alone."
)


def _start(user: Any, tournament: Tournament, **inputs: Any) -> PlanningRun:
    run = services.create_run(tournament, inputs, user)  # refuses bad options first
    try:
        check_queue()
    except QueueUnreachable as exc:
        raise Refused(str(exc), kind=Kind.CONFLICT) from None
    return run


def _fail(run_id: int, error: str) -> None:
    PlanningRun.objects.filter(pk=run_id, status=Status.QUEUED).update(
        status=Status.FAILED, error=error, finished_at=timezone.now()
    )


def _send(run: PlanningRun) -> None:
    from simulation.planning import tasks
    from simulation.tasks import send

    send(tasks.run_plan, run.pk, on_unreachable=lambda error: _fail(run.pk, error))


start_plan = Action(
    name="planning.start_plan",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    fields=FIELDS,
    run=_start,
    after=(_send,),
    form="simulation.planning.views.PlanForm",
    serializer="simulation.planning.api.PlanSerializer",
)
