"""Celery tasks of the simulation: each calls one service transition and sends what it returns.

The games of a batch (a round of play, or the open matches of a knockout) are a chord: a group
of ``play_jobs`` tasks, each playing a match (a few in a big round, ``playing.share_out``) with
no database access and returning the compressed records, whose results go to ``write_batch``,
which applies them (``simulation.services.runs.apply_batch``) and sends the batches the run
plans next. Nothing blocks waiting for subtasks, so a single worker can run a whole dry run.
Previews go the same way: ``preview_games`` in parallel, then ``store_preview``.

Which transition runs, and in which state, is the services' (``simulation.services.runs``,
``simulation.services.previews``); how a chord travels is ``simulation.transport``'s, the one
place where eager mode (``CELERY_TASK_ALWAYS_EAGER``) differs from workers.

Tasks are acknowledged late: one whose worker dies goes back to the queue and runs again, which
every transition allows. Work that stalls anyway (a broker that loses a dead worker's tasks) is
found by ``check_stalled_runs``, run periodically by the worker's beat, and sent again. The
organizer's steps (``simulation.actions``: start, retry, stop) send their task once their
transaction committed, after ``config.celery.check_queue`` said the queue is there; only the
games' results (``play_jobs``, ``preview_games``) are kept in the result store, for the chord's
body, and forgotten once their batch is long written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from celery import Task, shared_task
from celery.signals import worker_init
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import QueueUnreachable, app, publish
from simulation import transport
from simulation.services import playing, previews, runs

#: A batch goes out as one task per match, so that any number of worker processes share it,
#: up to this many tasks (a bigger round is dealt out by its games: ``playing.share_out``).
MAX_TASKS_PER_BATCH = 96


@worker_init.connect
def _load_the_physics(**_kwargs: Any) -> None:
    """A worker loads the compiled physics once, before it starts its pool processes, which
    inherit it (``playing.warm_up``). Otherwise each pool process loaded it in the first game it
    was sent, about a second on a warm cache and far longer when it had to compile, and a
    preview's first parts came back that much later."""
    playing.warm_up()


def _flatten(results: Iterable[Iterable[Any]]) -> list[Any]:
    return [item for part in results for item in part]


# --- auto-play and dry runs ----------------------------------------------------------------------


@shared_task(ignore_result=True)
def run_autoplay(run_id: int) -> None:
    """Start an auto-play run: its first batches go out."""
    _send(runs.start(run_id))


@shared_task(ignore_result=True)
def run_dry_run(dry_run_id: int) -> None:
    """Build the dry run's copy tournament and start playing it."""
    _send(runs.start_dry_run(dry_run_id))


@shared_task
def play_jobs(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play matches' games (no database): the parallel part."""
    return [playing.play_match_job(job) for job in jobs]


@shared_task(ignore_result=True)
def write_batch(results: list[list[dict[str, Any]]], run_id: int, batch_id: str) -> None:
    """Chord body: write a played batch, and send what the run plans next."""
    _send(runs.apply_batch(run_id, batch_id, _flatten(results)))


@shared_task(ignore_result=True)
def run_failed(request: Any, exc: BaseException, traceback: Any, run_id: int) -> None:
    """Errback of a batch whose games could not be played."""
    runs.fail(run_id, _("A simulated game failed: %(error)s") % {"error": exc})


@shared_task(ignore_result=True)
def retry_run(run_id: int) -> None:
    """The organizer's Retry: send a stalled or failed run's work again."""
    _send(runs.retry(run_id))


@shared_task(ignore_result=True)
def retry_dry_run(dry_run_id: int) -> None:
    """The organizer's Retry on a dry run: start it again where it stopped."""
    _send(runs.retry_dry_run(dry_run_id))


@shared_task(ignore_result=True)
def check_stalled_runs() -> None:
    """Periodic (the worker's beat): stalled runs are sent again or failed with the reason, and
    the games' results of batches long written are forgotten."""
    for step in runs.check_stalled():
        _send(step)
    _forget_played_games()


def _forget_played_games() -> None:
    """Each header task's result holds its games' records (tens of kB each): once the batch is
    long written, nobody reads them again. Only the database result store keeps them for good;
    Redis lets results expire by itself."""
    if app.conf.result_backend != "django-db":
        return
    from django_celery_results.models import TaskResult

    TaskResult.objects.filter(
        task_name__in=[play_jobs.name, preview_games.name],
        date_done__lt=timezone.now() - 2 * runs.stall_after(),
    ).delete()


def send(task: Task, row_id: int, *, on_unreachable: Callable[[str], Any]) -> None:
    """Send ``task(row_id)`` now; a queue that cannot be reached is handed to
    ``on_unreachable`` with the message, to fail the row: nothing is left queued that no worker
    will ever see. What a step of ``simulation.actions`` runs once its transaction committed."""
    try:
        publish(lambda: task.delay(row_id))
    except QueueUnreachable as exc:
        on_unreachable(str(exc))


def send_after_commit(task: Task, row_id: int, *, on_unreachable: Callable[[str], Any]) -> None:
    """:func:`send` once the current transaction has committed (the worker must find the
    row)."""
    transaction.on_commit(lambda: send(task, row_id, on_unreachable=on_unreachable))


def _send(step: runs.Next) -> None:
    for batch in step.batches:
        transport.send_chord(
            [play_jobs.s(chunk) for chunk in playing.share_out(batch.jobs, MAX_TASKS_PER_BATCH)],
            write_batch.s(step.run_id, batch.id),
            run_failed.s(step.run_id),
        )
    if step.batches and step.run_id is not None:
        runs.mark_sent(step.run_id, [batch.id for batch in step.batches])


# --- previews ------------------------------------------------------------------------------------


@shared_task(ignore_result=True)
def run_preview(preview_id: int) -> None:
    """Start a preview: its games go out over the workers."""
    job = previews.start(preview_id)
    if job is None:
        return
    transport.send_chord(
        [
            preview_games.s(job.spec, seeds, preview_id, part, first)
            for part, (first, seeds) in enumerate(playing.preview_parts(job.seeds))
        ],
        store_preview.s(preview_id),
        preview_failed.s(preview_id),
    )


@shared_task
def preview_games(
    spec: dict[str, Any],
    seeds: list[int],
    preview_id: int | None = None,
    part: int = 0,
    first: int = 0,
) -> list[list[int]]:
    """Play preview games: points and 20s per game; ``first`` is the place of the part's first
    game in the preview (``playing.play_summaries``). With ``preview_id``, the part's figures
    are also recorded on the preview (one small write), so that its page shows the
    probabilities so far while the other parts are played."""
    rows = playing.play_summaries(spec, seeds, first)
    if preview_id is not None:
        previews.record_part(preview_id, part, rows)
    return rows


@shared_task(ignore_result=True)
def store_preview(results: list[list[list[int]]], preview_id: int) -> None:
    """Chord body: sum the preview's games up."""
    previews.store_result(preview_id, _flatten(results))


@shared_task(ignore_result=True)
def preview_failed(request: Any, exc: BaseException, traceback: Any, preview_id: int) -> None:
    """Errback of a preview whose games could not be played."""
    previews.fail(preview_id, _("A simulated game failed: %(error)s") % {"error": exc})


# The tasks of the simulation's other parts, registered with the worker through this module.
from simulation.broadcast import tasks as _broadcast_tasks  # noqa: E402,F401
from simulation.odds import tasks as _odds_tasks  # noqa: E402,F401
from simulation.planning import tasks as _planning_tasks  # noqa: E402,F401
