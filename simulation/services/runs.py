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

Every task may be delivered twice (tasks are acknowledged late, and a worker that dies hands
its tasks back), so every transition is safe to repeat: a batch that is no longer in flight is
dropped and the run goes on from where it stands, a game already written is never written
again (nor counted), a dry run delivered again picks up where the last delivery stopped.

A run that makes no progress for ``settings.SIMULATION_STALL_SECONDS`` is stalled
(``stall_of``): no batch came back, or its work was never picked up. ``retry`` sends its work
again (the batches out are dropped and planned anew from what is written) or reopens a failed
run; the periodic ``check_stalled`` does that by itself ``MAX_AUTO_RESUMES`` times, then fails
the run with the reason. Each batch in flight records when it was sent (``sent_at``) and how
many resumes it took (``resumed``).

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
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from simulation.models import AutoPlay, DryRun, MatchPreview, SimulatedGame, Status
from simulation.services import autoplay, dryrun
from simulation.services.background import (
    error_message,
    locked,
    refuse_unless,
    retry_refusal,
    stop_refusal,
)
from tournaments.models import Game, Tournament

logger = logging.getLogger(__name__)

#: Batches at the workers at once: the next rounds of play are simulated while one is written.
#: With two, the writer's batch (its chord body) queues behind the next round's games, and once
#: those are taken the other worker process waits, idle, for the round the write plans; with
#: three it plays that round meanwhile (a 400-player preliminary writes 200 games a round).
MAX_IN_FLIGHT = 3
#: Longest message kept on a stopped run.
MAX_ERROR = 4000
#: The planner of the batches a run's start put in flight (the others': the batch written).
STARTED = "start"
#: A stalled run is sent again this many times by the periodic check before it is failed.
MAX_AUTO_RESUMES = 3


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
    """queued -> running, and the first batches planned. Delivered again (its worker died
    after planning), it plans the batches it had not sent anew, as ``apply_batch`` does."""
    with transaction.atomic():
        run = locked(AutoPlay, run_id, Status.QUEUED, Status.RUNNING)
        if run is None:
            return Next(run_id)
        if run.status == Status.RUNNING:
            _drop_unsent(run, STARTED)
        else:
            run.status = Status.RUNNING
            run.started_at = timezone.now()
            run.phase = _("Starting")
            run.save(update_fields=["status", "started_at", "phase"])
    return plan(run_id, planner=STARTED)


def plan(run_id: int, resumed: int = 0, planner: str = "") -> Next:
    """Keep up to ``MAX_IN_FLIGHT`` batches out; with none out and nothing left to play,
    finish. Each batch records when it was sent, ``resumed``, the resumes it took, and
    ``planner``, the step that planned it (a batch id, or ``STARTED``).

    The batches are sent after this commits, then marked ``sent`` (``mark_sent``): a worker
    that dies in between leaves them in flight with no message at the workers. The step that
    planned them is then delivered again (tasks are acknowledged late) and plans the unsent
    ones anew (``_drop_unsent``); were they sent after all (the worker died before marking
    them), whichever of the two copies comes back second is not written.

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
                    {
                        "id": dispatch.id,
                        "label": batch.label,
                        "matches": batch.match_ids,
                        "sent_at": timezone.now().isoformat(),
                        "resumed": resumed,
                        "planner": planner,
                        "sent": False,
                    }
                )
                sent.append(dispatch)
            if run.in_flight:
                run.save(update_fields=["in_flight"])
                return Next(run_id, tuple(sent))
    except Exception as exc:  # recorded on the run for the organizer; the worker goes on
        return _stopped(run_id, exc, "could not plan its next batch")  # untranslated: log line
    return finish(run_id)


def apply_batch(run_id: int, batch_id: str, results: list[dict[str, Any]]) -> Next:
    """A played batch written through the scorecard workflow (all or nothing), then the next
    planned. A batch that is not in flight (applied already, dropped by a resume) is not
    written, and the run goes on from where it stands: a delivery that comes again after its
    worker died between writing and planning plans now, and one whose worker died between
    planning and sending plans the batches it had not sent anew. Within a batch each game
    counts once, and a game written already is left as it is."""
    try:
        with transaction.atomic():
            run = locked(AutoPlay, run_id, Status.RUNNING)
            if run is None:
                return Next(run_id)
            batch = _in_flight(run, batch_id)
            if batch is None:  # written already: this is a delivery that came again
                _drop_unsent(run, batch_id)
            else:
                played, fresh = _unwritten(results)
                if not played:
                    raise autoplay.AutoPlayError(
                        _("%(batch)s: no game could be played.") % {"batch": batch["label"]}
                    )
                if fresh:
                    autoplay.apply_results(run, fresh)
                run.in_flight = [b for b in run.in_flight if b["id"] != batch_id]
                run.save(update_fields=["in_flight"])
    except Exception as exc:  # recorded on the run for the organizer; the worker goes on
        return _stopped(run_id, exc, "could not write a batch")  # untranslated: log line
    return plan(run_id, planner=batch_id)


def _drop_unsent(run: AutoPlay, planner: str) -> None:
    """Forget the batches ``planner`` put in flight and never marked sent, so that planning
    again sends them (in the caller's transaction, with ``run`` locked)."""
    kept = [b for b in run.in_flight if b.get("planner") != planner or b.get("sent", True)]
    if len(kept) != len(run.in_flight):
        run.in_flight = kept
        run.save(update_fields=["in_flight"])


def mark_sent(run_id: int, batch_ids: list[str]) -> None:
    """The batches are at the workers: a delivery of their planner that comes again leaves
    them be."""
    with transaction.atomic():
        run = locked(AutoPlay, run_id, Status.RUNNING)
        if run is None:
            return
        changed = False
        for batch in run.in_flight:
            if batch["id"] in batch_ids and not batch.get("sent", True):
                batch["sent"] = changed = True
        if changed:
            run.save(update_fields=["in_flight"])


def _unwritten(results: list[dict[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """How many games ``results`` played, and the results cut down to the games not written
    yet, each once: a header task delivered twice may hand its games over twice."""
    games = [game for result in results for game in result.get("games", [])]
    ids = [game.get("game_id") for game in games]
    written = set(
        Game.objects.filter(id__in=ids, rounds__isnull=False).values_list("id", flat=True)
    )
    fresh = []
    for result in results:
        keep = []
        for game in result.get("games", []):
            if game.get("game_id") not in written:
                written.add(game.get("game_id"))
                keep.append(game)
        if keep:
            fresh.append({**result, "games": keep})
    return len(games), fresh


def finish(run_id: int) -> Next:
    """running -> done, once nothing is out; a dry run around the run finishes with it."""
    with transaction.atomic():
        run = locked(AutoPlay, run_id, Status.RUNNING)
        if run is None or run.in_flight:
            return Next(run_id)
        run.status = Status.DONE
        run.phase = _("Finished")
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
        run.phase = _("Stopped")
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
    """queued -> running, the copy tournament built, and its run started.

    Delivered again (its worker died, or a retry), it goes on from the step where the last
    delivery stopped: a copy not built yet is built, a run not started yet is started; a run
    under way is left to its own batches."""
    with transaction.atomic():
        dry = locked(DryRun, dry_run_id, Status.QUEUED, Status.RUNNING)
        if dry is None:
            return Next(None)
        if dry.status == Status.QUEUED:
            dry.status = Status.RUNNING
            dry.started_at = timezone.now()
            dry.phase = _("Building the copy tournament")
            dry.save(update_fields=["status", "started_at", "phase"])
    try:
        with transaction.atomic():
            dry = locked(DryRun, dry_run_id, Status.RUNNING)
            if dry is None:
                return Next(None)
            if dry.run_id is not None:
                run_id = dry.run_id
            else:
                run_id = dryrun.build_copy(dry).pk
                dry.phase = _("Playing")
                dry.save(update_fields=["copy", "run", "phase"])
    except Exception as exc:  # recorded on the dry run for the organizer
        if isinstance(exc, ValidationError):
            logger.info("dry run %s stopped: %s", dry_run_id, error_message(exc))
        else:
            logger.exception("dry run %s could not be prepared", dry_run_id)
        fail_dry_run(dry_run_id, error_message(exc))
        return Next(None)
    return start(run_id)


def finish_dry_run(dry_run_id: int) -> None:
    """running -> done, with the summary of what the copy tournament's play tells."""
    try:
        with transaction.atomic():
            dry = locked(DryRun, dry_run_id, Status.RUNNING)
            if dry is None:
                return
            dry.status = Status.DONE
            dry.phase = _("Finished")
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
        dry.phase = _("Stopped")
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


# --- stalls and retries --------------------------------------------------------------------------


@dataclass(frozen=True)
class Stall:
    """Work that has made no progress for the stall time: since when, and what it waits for."""

    since: datetime
    reason: str


def stall_after() -> timedelta:
    return timedelta(seconds=settings.SIMULATION_STALL_SECONDS)


def last_progress(run: AutoPlay) -> datetime | None:
    """When the run last moved: started, sent a batch, or wrote a game."""
    times = [run.started_at, *(_sent_at(batch) for batch in run.in_flight)]
    latest = max((t for t in times if t is not None), default=None)
    if latest is not None and timezone.now() - latest < stall_after():
        return latest  # recent enough: no need to look at the games
    written = (
        SimulatedGame.objects.filter(game__match__stage__category_id=run.category_id)
        .order_by("-id")
        .values_list("created_at", flat=True)
        .first()
    )
    return max((t for t in (latest, written) if t is not None), default=None)


def stall_of(run: AutoPlay) -> Stall | None:
    """The run's stall, if it has one: queued and never picked up by a worker, or running with
    nothing back from the workers for the stall time."""
    now = timezone.now()
    if run.status == Status.QUEUED and now - run.created_at >= stall_after():
        return Stall(run.created_at, _("no worker has started it: is a Celery worker running?"))
    if run.status != Status.RUNNING:
        return None
    since = last_progress(run)
    if since is None or now - since < stall_after():
        return None
    waiting = ", ".join(batch["label"] for batch in run.in_flight) or _("its next batch")
    return Stall(
        since, _("nothing has come back from the workers for %(waiting)s") % {"waiting": waiting}
    )


def dry_run_stall(dry: DryRun) -> Stall | None:
    """The dry run's stall: its own before its run exists, then its run's."""
    now = timezone.now()
    if dry.status == Status.QUEUED and now - dry.created_at >= stall_after():
        return Stall(dry.created_at, _("no worker has started it: is a Celery worker running?"))
    if dry.status != Status.RUNNING:
        return None
    if dry.run is None:
        since = dry.started_at or dry.created_at
        if now - since >= stall_after():
            return Stall(since, _("the copy tournament was not built: its worker stopped"))
        return None
    return stall_of(dry.run)


def retry(run_id: int, *, automatic: bool = False) -> Next:
    """Send a run's work again: a queued run is started; a running one that stalled has its
    batches out dropped (any that still comes back is not written) and planned anew from what
    is written; a failed one is reopened and goes on from there (its dry run too). A run that
    moves again by the time this runs is left to its batches (``run_retry_refusal``).
    ``automatic`` (the periodic check) fails a stalled run instead once ``MAX_AUTO_RESUMES``
    resumes brought nothing back."""
    with transaction.atomic():
        run = locked(AutoPlay, run_id, Status.QUEUED, Status.RUNNING, Status.FAILED)
        if run is None:
            return Next(run_id)
        if run.status == Status.QUEUED:
            queued = True
        else:
            queued = False
            stall = stall_of(run)
            if retry_refusal(run, stall and stall.since) is not None:
                # Moving again since the organizer (or the periodic check) asked: left to it.
                return Next(run_id)
            resumed = max((batch.get("resumed", 0) for batch in run.in_flight), default=0) + 1
            give_up = automatic and resumed > MAX_AUTO_RESUMES
            if not give_up:
                if run.status == Status.FAILED:
                    _reopen_dry_run(run_id)
                run.status = Status.RUNNING
                run.error = ""
                run.finished_at = None
                run.in_flight = []
                run.phase = _("Sending its work to the workers again")
                run.save(update_fields=["status", "error", "finished_at", "in_flight", "phase"])
    if queued:
        return start(run_id)
    if give_up and stall is not None:
        return fail(
            run_id,
            _(
                "Stalled: %(reason)s since %(since)s, and sending it again %(count)s times did not "
                "help. The workers' log may say why; Retry sends it again."
            )
            % {
                "reason": stall.reason,
                "since": f"{timezone.localtime(stall.since):%H:%M:%S}",
                "count": MAX_AUTO_RESUMES,
            },
        )
    logger.warning("auto-play %s: its work is sent to the workers again", run_id)
    return plan(run_id, resumed=resumed)


def retry_dry_run(dry_run_id: int) -> Next:
    """Send a dry run's work again: one that stopped before its copy was built (or was never
    picked up) starts again; one with a run retries the run."""
    with transaction.atomic():
        dry = locked(DryRun, dry_run_id, Status.QUEUED, Status.RUNNING, Status.FAILED)
        if dry is None or dry_run_retry_refusal(dry) is not None:
            return Next(None)  # gone, or moving again since the organizer asked: left be
        run_done = dry.run is not None and dry.run.status == Status.DONE
        if dry.status == Status.FAILED and (dry.run_id is None or run_done):
            # Stopped before its copy was built: from the start; after its run: the summary.
            dry.status = Status.QUEUED if dry.run_id is None else Status.RUNNING
            dry.error = ""
            dry.finished_at = None
            dry.phase = ""
            dry.save(update_fields=["status", "error", "finished_at", "phase"])
        run_id = dry.run_id
    if run_id is None:
        return start_dry_run(dry_run_id)
    if run_done:
        finish_dry_run(dry_run_id)
        return Next(run_id)
    return retry(run_id)


def run_retry_refusal(run: AutoPlay) -> str | None:
    """Why the organizer's Retry does not apply to ``run`` now: it neither stalled nor failed
    (``background.retry_refusal``). Asked again by :func:`retry` on the locked row."""
    stall = stall_of(run)
    return retry_refusal(run, stall.since if stall else None)


def played_for_a_dry_run(run: AutoPlay) -> str | None:
    """A dry run's own run is sent again through its dry run, which also ends with it."""
    dry_id = DryRun.objects.filter(run_id=run.pk).values_list("pk", flat=True).first()
    if dry_id is None:
        return None
    return _("This run plays dry run %(number)s: retry the dry run instead.") % {"number": dry_id}


def dry_run_retry_refusal(dry: DryRun) -> str | None:
    """Why the organizer's Retry does not apply to the dry run now: it neither stalled nor
    failed."""
    stall = dry_run_stall(dry)
    return retry_refusal(dry, stall.since if stall else None)


def stop(run_id: int, who: str) -> Next:
    """The organizer stops a run (stalled, or no longer wanted): it fails with who stopped it.
    Refused (``Refused``) when the run has ended already."""
    with transaction.atomic():
        run = AutoPlay.objects.select_for_update().filter(pk=run_id).first()
        if run is not None:
            refuse_unless(stop_refusal(run))
        return fail(run_id, _("Stopped by %(user)s.") % {"user": who})


def stop_dry_run(dry_run_id: int, who: str) -> None:
    """The organizer stops a dry run: its run fails, or the dry run itself before it has one.
    Refused (``Refused``) when the dry run has ended already."""
    with transaction.atomic():
        dry = DryRun.objects.select_for_update().filter(pk=dry_run_id).first()
        if dry is None:
            return
        refuse_unless(stop_refusal(dry))
        if dry.run_id is not None:
            fail(dry.run_id, _("Stopped by %(user)s.") % {"user": who})
        fail_dry_run(dry_run_id, _("Stopped by %(user)s.") % {"user": who})


def check_stalled() -> list[Next]:
    """The periodic check: dry runs left running after their run ended are ended the same way,
    and every stalled running run is sent again (``retry(automatic=True)``). Returns what must
    travel."""
    ended = DryRun.objects.filter(
        status=Status.RUNNING, run__status__in=[Status.DONE, Status.FAILED]
    )
    for run_id in ended.values_list("run_id", flat=True):
        _run_ended(run_id)
    steps = []
    for run in AutoPlay.objects.filter(status=Status.RUNNING):
        if stall_of(run) is not None:
            steps.append(retry(run.pk, automatic=True))
    return steps


def _reopen_dry_run(run_id: int) -> None:
    """failed -> running for the dry run around a run that is reopened."""
    dry = DryRun.objects.select_for_update().filter(run_id=run_id, status=Status.FAILED).first()
    if dry is not None:
        dry.status = Status.RUNNING
        dry.error = ""
        dry.phase = _("Playing")
        dry.finished_at = None
        dry.save(update_fields=["status", "error", "phase", "finished_at"])


def _sent_at(batch: dict[str, Any]) -> datetime | None:
    raw = batch.get("sent_at")
    return parse_datetime(raw) if isinstance(raw, str) else None


def work_under_way(tournament: Tournament) -> str | None:
    """Why ``tournament`` cannot be deleted now: the simulation's work queued or running on it
    (an auto-play, a dry run of it or on its copy, a match preview), whose workers would find
    their rows gone. The words, or None (``tournaments.services.setup.DELETION_CHECKS``)."""
    under_way = (Status.QUEUED, Status.RUNNING)
    if (
        AutoPlay.objects.filter(tournament=tournament, status__in=under_way).exists()
        or DryRun.objects.filter(
            Q(source=tournament) | Q(copy=tournament), status__in=under_way
        ).exists()
        or MatchPreview.objects.filter(
            match__stage__category__tournament=tournament, status__in=under_way
        ).exists()
    ):
        return _(
            "Simulation work (an auto-play, a dry run or a preview) is under way on this "
            "tournament: wait for it to end, or stop it on the simulation page, then delete."
        )
    return None
