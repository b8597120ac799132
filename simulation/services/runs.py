"""An auto-play run, and the dry run around one, as one state machine.

::

    queued --start--> running --finish--> done
                      (plan a batch -> its games played -> apply_batch) again and again
    queued, running --fail--> failed

Every transition here takes the run's row under a lock (``select_for_update``), checks the
state it starts from, writes the next one and returns ``Next``: the batches whose games must
now be played. Nothing else changes a run's status. The Celery tasks (``simulation.tasks``)
call one transition each and send what it returns; they are the same tasks, calling the same
transitions, whether they travel through a broker to workers or run eagerly in this process
(``simulation.transport``).

While running, the batches sent out and not applied yet are the run's ``in_flight`` list
(``{"id", "label", "matches"}`` each), at most ``MAX_IN_FLIGHT``: the next round of play is at
the workers while one is written. A batch is applied only while it is in flight and leaves it
in the transaction that writes its games, so a batch delivered twice is written once, and a
batch arriving after the run stopped is dropped. When nothing is in flight and nothing is left
to play, the run finishes.

What to play and how to write it is ``simulation.services.autoplay``'s (``next_batch``,
``apply_results``); this module only says when.

A dry run is a thin layer over the same machine: ``start_dry_run`` takes it from queued to
running, builds the copy tournament (``simulation.services.dryrun``) and starts the copy's
run; when that run finishes or fails, the dry run does too, with its summary or the run's
error.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from simulation.models import AutoPlay, DryRun, Status
from simulation.services import autoplay, dryrun
from simulation.services.background import error_message, locked

logger = logging.getLogger(__name__)

#: Batches at the workers at once: the next round of play is simulated while one is written.
MAX_IN_FLIGHT = 2
#: Longest message kept on a stopped run.
MAX_ERROR = 4000


@dataclass(frozen=True)
class Dispatch:
    """A batch to play: its id in the run's ``in_flight`` and the plain jobs of its games."""

    id: str
    label: str
    jobs: list[dict[str, Any]]


@dataclass(frozen=True)
class Next:
    """What must travel after a transition: the run's batches to play, none when the run waits
    for batches already out, has finished or has failed."""

    run_id: int | None
    batches: tuple[Dispatch, ...] = field(default=())


# --- auto-play -----------------------------------------------------------------------------------


def start(run_id: int) -> Next:
    """queued -> running, and the first batches planned."""
    with transaction.atomic():
        run = locked(AutoPlay, run_id, Status.QUEUED)
        if run is None:
            return Next(run_id)
        run.status = Status.RUNNING
        run.started_at = timezone.now()
        run.phase = "Starting"
        run.save(update_fields=["status", "started_at", "phase"])
    return plan(run_id)


def plan(run_id: int) -> Next:
    """Keep up to ``MAX_IN_FLIGHT`` batches out; with none out and nothing left to play,
    finish.

    With nothing out, ``autoplay.next_batch`` may change the draw (draw a stage, the next Swiss
    round, advance a finished stage); with batches out it only looks ahead at rounds already
    drawn. This runs in a transaction of its own, after the games of a batch are committed, so
    a tie that no shoot-out settles stops the run without undoing what was written."""
    try:
        with transaction.atomic():
            run = locked(AutoPlay, run_id, Status.RUNNING)
            if run is None:
                return Next(run_id)
            sent = []
            while len(run.in_flight) < MAX_IN_FLIGHT:
                busy = {match_id for batch in run.in_flight for match_id in batch["matches"]}
                batch = autoplay.next_batch(run, busy=busy)
                if batch is None:
                    break
                dispatch = Dispatch(id=uuid.uuid4().hex, label=batch.label, jobs=batch.jobs)
                run.in_flight.append(
                    {"id": dispatch.id, "label": batch.label, "matches": batch.match_ids}
                )
                sent.append(dispatch)
            if run.in_flight:
                run.save(update_fields=["in_flight"])
                return Next(run_id, tuple(sent))
    except Exception as exc:  # recorded on the run for the organizer; the worker goes on
        return _stopped(run_id, exc, "could not plan its next batch")
    return finish(run_id)


def apply_batch(run_id: int, batch_id: str, results: list[dict[str, Any]]) -> Next:
    """A played batch written through the scorecard workflow (all or nothing), then the next
    planned. A batch that is not in flight (applied already, or the run stopped) is dropped."""
    try:
        with transaction.atomic():
            run = locked(AutoPlay, run_id, Status.RUNNING)
            batch = _in_flight(run, batch_id)
            if run is None or batch is None:
                return Next(run_id)
            if not autoplay.apply_results(run, results):
                raise autoplay.AutoPlayError(f"{batch['label']}: no game could be played.")
            run.in_flight = [b for b in run.in_flight if b["id"] != batch_id]
            run.save(update_fields=["in_flight"])
    except Exception as exc:  # recorded on the run for the organizer; the worker goes on
        return _stopped(run_id, exc, "could not write a batch")
    return plan(run_id)


def finish(run_id: int) -> Next:
    """running -> done, once nothing is out; a dry run around the run finishes with it."""
    with transaction.atomic():
        run = locked(AutoPlay, run_id, Status.RUNNING)
        if run is None or run.in_flight:
            return Next(run_id)
        run.status = Status.DONE
        run.phase = "Finished"
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "phase", "finished_at"])
    _run_ended(run_id)
    return Next(run_id)


def fail(run_id: int, error: str) -> Next:
    """queued or running -> failed with ``error``; batches still out are dropped when they
    come back. A run that already ended keeps its state and message."""
    with transaction.atomic():
        run = locked(AutoPlay, run_id, Status.QUEUED, Status.RUNNING)
        if run is None:
            return Next(run_id)
        run.status = Status.FAILED
        run.error = error[:MAX_ERROR]
        run.phase = "Stopped"
        run.in_flight = []
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "phase", "in_flight", "finished_at"])
    _run_ended(run_id)
    return Next(run_id)


def _in_flight(run: AutoPlay | None, batch_id: str) -> dict[str, Any] | None:
    if run is None:
        return None
    return next((batch for batch in run.in_flight if batch.get("id") == batch_id), None)


def _stopped(run_id: int, exc: Exception, doing: str) -> Next:
    if isinstance(exc, ValidationError):
        logger.info("auto-play %s stopped: %s", run_id, error_message(exc))
    else:
        logger.exception("auto-play %s %s", run_id, doing)
    return fail(run_id, error_message(exc))


# --- dry runs ------------------------------------------------------------------------------------


def start_dry_run(dry_run_id: int) -> Next:
    """queued -> running, the copy tournament built, and its run started."""
    with transaction.atomic():
        dry = locked(DryRun, dry_run_id, Status.QUEUED)
        if dry is None:
            return Next(None)
        dry.status = Status.RUNNING
        dry.started_at = timezone.now()
        dry.phase = "Building the copy tournament"
        dry.save(update_fields=["status", "started_at", "phase"])
    try:
        with transaction.atomic():
            dry = locked(DryRun, dry_run_id, Status.RUNNING)
            if dry is None or dry.run_id is not None:
                return Next(None)
            run = dryrun.build_copy(dry)
            dry.phase = "Playing"
            dry.save(update_fields=["copy", "run", "phase"])
    except Exception as exc:  # recorded on the dry run for the organizer
        if isinstance(exc, ValidationError):
            logger.info("dry run %s stopped: %s", dry_run_id, error_message(exc))
        else:
            logger.exception("dry run %s could not be prepared", dry_run_id)
        fail_dry_run(dry_run_id, error_message(exc))
        return Next(None)
    return start(run.pk)


def finish_dry_run(dry_run_id: int) -> None:
    """running -> done, with the summary of what the copy tournament's play tells."""
    try:
        with transaction.atomic():
            dry = locked(DryRun, dry_run_id, Status.RUNNING)
            if dry is None:
                return
            dry.status = Status.DONE
            dry.phase = "Finished"
            dry.finished_at = timezone.now()
            dry.summary = dryrun.summary(dry)
            dry.save(update_fields=["summary", "status", "phase", "finished_at"])
    except Exception as exc:  # recorded on the dry run for the organizer
        logger.exception("dry run %s: the summary failed", dry_run_id)
        fail_dry_run(dry_run_id, error_message(exc))


def fail_dry_run(dry_run_id: int, error: str) -> None:
    """queued or running -> failed with ``error``."""
    with transaction.atomic():
        dry = locked(DryRun, dry_run_id, Status.QUEUED, Status.RUNNING)
        if dry is None:
            return
        dry.status = Status.FAILED
        dry.error = error[:MAX_ERROR]
        dry.phase = "Stopped"
        dry.finished_at = timezone.now()
        dry.save(update_fields=["status", "error", "phase", "finished_at"])


def _run_ended(run_id: int) -> None:
    """The dry run around a run that has just ended (if any) ends the same way."""
    run = AutoPlay.objects.filter(pk=run_id).values("status", "error").first()
    dry_id = DryRun.objects.filter(run_id=run_id).values_list("pk", flat=True).first()
    if run is None or dry_id is None:
        return
    if run["status"] == Status.DONE:
        finish_dry_run(dry_id)
    else:
        fail_dry_run(dry_id, run["error"])
