"""Celery tasks of the simulation: thin wrappers that fan games out and write them back.

The games of a batch (a round of play, or the open matches of a knockout) are a ``group`` of
``play_jobs`` tasks, each playing a few matches with no database access and returning the
compressed records. A chord hands all of them to ``write_batch``, which writes them through the
scorecard services, one batch at a time under a lock on the run, and sends the next batch out;
so nothing blocks waiting for subtasks and a single worker can run a whole dry run. While a
batch is written the next round of play (when its pairings are already drawn) is at the workers.
With eager tasks (no broker configured) the same loop runs in-process, batch after batch.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from celery import chord, group, shared_task
from django.core.exceptions import ValidationError
from django.db import transaction

from simulation.models import AutoPlay, DryRun, MatchPreview, Status
from simulation.services import autoplay, dryrun, playing, previews

logger = logging.getLogger(__name__)

#: A batch is cut into about this many tasks, so every worker process gets a share.
TASKS_PER_BATCH = 24
PREVIEW_TASKS = 8
#: Batches at the workers at once: the next round of play is simulated while one is written.
MAX_IN_FLIGHT = 2


def _chunks(items: Sequence[Any], parts: int) -> list[list[Any]]:
    size = max(1, -(-len(items) // parts))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _flatten(results: Iterable[Iterable[Any]]) -> list[Any]:
    return [item for part in results for item in part]


def _eager() -> bool:
    from config.celery import app

    return bool(app.conf.task_always_eager)


def _message(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(exc.messages)
    return str(exc) or exc.__class__.__name__


# --- auto-play and dry runs ----------------------------------------------------------------------


@shared_task
def play_jobs(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play matches' games (no database): the parallel part."""
    return [playing.play_match_job(job) for job in jobs]


@shared_task
def run_autoplay(run_id: int) -> None:
    """Start an auto-play run."""
    autoplay.start(AutoPlay.objects.get(pk=run_id))
    continue_run(run_id)


def continue_run(run_id: int) -> None:
    """Send the run's first batches out (or, eager, play the whole run here)."""
    if _eager():
        _run_eagerly(run_id)
        return
    try:
        with transaction.atomic():
            run = AutoPlay.objects.select_for_update().get(pk=run_id)
            idle = run.status == Status.RUNNING and not run.in_flight
            if idle and not _send_batches(run, writing=()):
                _complete_run(run)
    except Exception as exc:  # recorded on the run for the organizer; the worker goes on
        logger.exception("auto-play %s could not go on", run_id)
        _fail_run(run_id, _message(exc))


@shared_task
def write_batch(results: list[list[dict[str, Any]]], run_id: int) -> None:
    """Chord body: write a played batch and keep the workers busy.

    The run's row is locked, so batches are written one at a time. The next independent round
    of play is sent out before this one is written, so the workers simulate while this task
    writes; once nothing is at the workers any more, the run looks further (drawing, advancing
    a finished stage) or finishes."""
    played = _flatten(results)
    ids = {result["match_id"] for result in played}
    try:
        with transaction.atomic():
            run = AutoPlay.objects.select_for_update().get(pk=run_id)
            if run.status != Status.RUNNING or not any(set(b) == ids for b in run.in_flight):
                return  # the run stopped, or the batch was sent by a transaction that failed
            run.in_flight = [batch for batch in run.in_flight if set(batch) != ids]
            _send_batches(run, writing=ids)
            autoplay.apply_results(run, played)
        if not run.in_flight:
            # Written and committed; drawing and advancing go in a transaction of their own, so
            # a tie no shoot-out settles does not undo the games just written.
            continue_run(run_id)
    except Exception as exc:  # recorded on the run for the organizer; the worker goes on
        logger.exception("auto-play %s: writing a batch failed", run_id)
        _fail_run(run_id, _message(exc))


@shared_task
def run_failed(request: Any, exc: BaseException, traceback: Any, run_id: int) -> None:
    """Errback of a batch whose games could not be played."""
    _fail_run(run_id, f"A simulated game failed: {exc}")


def _send_batches(run: AutoPlay, writing: Iterable[int]) -> bool:
    """Keep up to ``MAX_IN_FLIGHT`` batches at the workers. Returns whether anything is still
    to be written.

    A batch goes out at once, not when this transaction commits: its games need nothing from
    the database, so the workers play them while this task writes. Its chord body waits for the
    lock on the run, so it sees the batch in ``in_flight`` once this transaction commits; if
    the transaction fails instead, the run is marked failed and the body drops the results."""
    writing = set(writing)
    while len(run.in_flight) < MAX_IN_FLIGHT:
        busy = writing | {match_id for batch in run.in_flight for match_id in batch}
        batch = autoplay.next_batch(run, busy=busy)
        if batch is None:
            break
        run.in_flight.append(batch.match_ids)
        header = group(play_jobs.s(chunk) for chunk in _chunks(batch.jobs, TASKS_PER_BATCH))
        body = write_batch.s(run.pk).on_error(run_failed.s(run.pk))
        chord(header, body).apply_async()
    AutoPlay.objects.filter(pk=run.pk).update(in_flight=run.in_flight)
    return bool(run.in_flight or writing)


def _run_eagerly(run_id: int) -> None:
    """Eager tasks (no broker): play and write batch after batch in this process."""
    run = AutoPlay.objects.get(pk=run_id)
    while True:
        try:
            batch = autoplay.next_batch(run)
            if batch is None:
                _complete_run(run)
                return
            played = [play_jobs(chunk) for chunk in _chunks(batch.jobs, TASKS_PER_BATCH)]
            written = autoplay.apply_results(run, _flatten(played))
        except Exception as exc:  # recorded on the run for the organizer
            logger.exception("auto-play %s failed", run_id)
            _fail_run(run_id, _message(exc))
            return
        if not written:
            _fail_run(run_id, f"{batch.label}: no game could be played.")
            return


def _complete_run(run: AutoPlay) -> None:
    autoplay.finish(run)
    dry = DryRun.objects.filter(run=run).first()
    if dry is not None:
        dryrun.finish(dry)


def _fail_run(run_id: int, error: str) -> None:
    run = AutoPlay.objects.get(pk=run_id)
    autoplay.finish(run, error=error)
    dry = DryRun.objects.filter(run=run).first()
    if dry is not None:
        dryrun.fail(dry.pk, error)


@shared_task
def run_dry_run(dry_run_id: int) -> None:
    """Build the dry run's copy tournament, then play it to the end."""
    dry = DryRun.objects.get(pk=dry_run_id)
    try:
        run = dryrun.prepare(dry)
    except Exception as exc:  # recorded on the dry run for the organizer
        logger.exception("dry run %s could not be prepared", dry_run_id)
        dryrun.fail(dry_run_id, _message(exc))
        return
    autoplay.start(run)
    continue_run(run.pk)


# --- previews ------------------------------------------------------------------------------------


@shared_task
def preview_games(spec: dict[str, Any], seeds: list[int]) -> list[list[int]]:
    """Play preview games (no database): points and 20s per game."""
    return playing.play_summaries(spec, seeds)


@shared_task
def store_preview(results: list[list[list[int]]], preview_id: int) -> None:
    """Chord body: sum the preview's games up."""
    preview = MatchPreview.objects.select_related("match__stage__category").get(pk=preview_id)
    try:
        previews.store_result(preview, _flatten(results))
    except Exception as exc:  # recorded on the preview
        previews.fail(preview_id, _message(exc))


@shared_task
def preview_failed(request: Any, exc: BaseException, traceback: Any, preview_id: int) -> None:
    previews.fail(preview_id, f"A simulated game failed: {exc}")


@shared_task
def run_preview(preview_id: int) -> None:
    """Fan a preview's games out over the workers."""
    preview = MatchPreview.objects.select_related("match__stage__category").get(pk=preview_id)
    spec, seeds = previews.preview_job(preview)
    chunks = _chunks(seeds, PREVIEW_TASKS)
    if not _eager():
        header = group(preview_games.s(spec, chunk) for chunk in chunks)
        chord(header)(store_preview.s(preview_id).on_error(preview_failed.s(preview_id)))
        return
    try:
        previews.store_result(preview, _flatten(preview_games(spec, chunk) for chunk in chunks))
    except Exception as exc:  # recorded on the preview
        logger.exception("preview %s failed", preview_id)
        previews.fail(preview_id, _message(exc))
