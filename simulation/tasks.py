"""Celery tasks of the simulation: each calls one service transition and sends what it returns.

The games of a batch (a round of play, or the open matches of a knockout) are a chord: a group
of ``play_jobs`` tasks, each playing a few matches with no database access and returning the
compressed records, whose results go to ``write_batch``, which applies them
(``simulation.services.runs.apply_batch``) and sends the batches the run plans next. Nothing
blocks waiting for subtasks, so a single worker can run a whole dry run. Previews go the same
way: ``preview_games`` in parallel, then ``store_preview``.

Which transition runs, and in which state, is the services' (``simulation.services.runs``,
``simulation.services.previews``); how a chord travels is ``simulation.transport``'s, the one
place where eager mode (``CELERY_TASK_ALWAYS_EAGER``) differs from workers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from celery import shared_task

from simulation import transport
from simulation.services import playing, previews, runs

#: A batch is cut into about this many tasks, so every worker process gets a share.
TASKS_PER_BATCH = 24
PREVIEW_TASKS = 8


def _chunks(items: Sequence[Any], parts: int) -> list[list[Any]]:
    size = max(1, -(-len(items) // parts))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def _flatten(results: Iterable[Iterable[Any]]) -> list[Any]:
    return [item for part in results for item in part]


# --- auto-play and dry runs ----------------------------------------------------------------------


@shared_task
def run_autoplay(run_id: int) -> None:
    """Start an auto-play run: its first batches go out."""
    _send(runs.start(run_id))


@shared_task
def run_dry_run(dry_run_id: int) -> None:
    """Build the dry run's copy tournament and start playing it."""
    _send(runs.start_dry_run(dry_run_id))


@shared_task
def play_jobs(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play matches' games (no database): the parallel part."""
    return [playing.play_match_job(job) for job in jobs]


@shared_task
def write_batch(results: list[list[dict[str, Any]]], run_id: int, batch_id: str) -> None:
    """Chord body: write a played batch, and send what the run plans next."""
    _send(runs.apply_batch(run_id, batch_id, _flatten(results)))


@shared_task
def run_failed(request: Any, exc: BaseException, traceback: Any, run_id: int) -> None:
    """Errback of a batch whose games could not be played."""
    runs.fail(run_id, f"A simulated game failed: {exc}")


def _send(step: runs.Next) -> None:
    for batch in step.batches:
        transport.send_chord(
            [play_jobs.s(chunk) for chunk in _chunks(batch.jobs, TASKS_PER_BATCH)],
            write_batch.s(step.run_id, batch.id),
            run_failed.s(step.run_id),
        )


# --- previews ------------------------------------------------------------------------------------


@shared_task
def run_preview(preview_id: int) -> None:
    """Start a preview: its games go out over the workers."""
    job = previews.start(preview_id)
    if job is None:
        return
    transport.send_chord(
        [preview_games.s(job.spec, chunk) for chunk in _chunks(job.seeds, PREVIEW_TASKS)],
        store_preview.s(preview_id),
        preview_failed.s(preview_id),
    )


@shared_task
def preview_games(spec: dict[str, Any], seeds: list[int]) -> list[list[int]]:
    """Play preview games (no database): points and 20s per game."""
    return playing.play_summaries(spec, seeds)


@shared_task
def store_preview(results: list[list[list[int]]], preview_id: int) -> None:
    """Chord body: sum the preview's games up."""
    previews.store_result(preview_id, _flatten(results))


@shared_task
def preview_failed(request: Any, exc: BaseException, traceback: Any, preview_id: int) -> None:
    """Errback of a preview whose games could not be played."""
    previews.fail(preview_id, f"A simulated game failed: {exc}")
