"""Celery tasks for printing: a whole round of play's scorecards as one PDF, with progress.

Thin on purpose: the work is in :mod:`scoring.printing.batch`; the tasks pass the batch's id (which
names the stored file) and turn progress callbacks into ``PROGRESS`` states that the print page's
progress bar polls. A round of more than one part (``batch.PART_CARDS``) run by a worker is cut
across the workers: ``render_round_cards`` replaces itself with a chord of one
``render_round_part`` per part and a ``join_round_parts`` that takes over the batch's id, so the
page that polls the batch sees the joined PDF's result. Imported by ``scoring.tasks`` so worker
autodiscovery finds them.

A worker serves no request, so it has no language of its own: each task runs in the ``language``
of the page that queued the batch (the words printed on the cards, the messages of a failure).

:func:`send_round_batch` is how the steps of ``scoring.printing.actions`` queue a batch.
"""

import time
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from celery import chord, group, shared_task
from django.utils import translation

from config.celery import check_queue, publish
from scoring.printing.batch import (
    build_round_batch,
    build_round_part,
    join_round_parts,
    plan_round_batch,
)
from scoring.printing.options import PrintOptions


def send_round_batch(
    *, stage_id: int, round_of_play: int, options: PrintOptions, language: str = ""
) -> str:
    """Queue the round's cards as one batch once the queue answered (``QueueUnreachable``
    within a second or two when it does not, and nothing is queued); the batch's id, which
    names its stored file."""
    kwargs = {
        "stage_id": stage_id,
        "round_of_play": round_of_play,
        **options.as_task_kwargs(),
        "language": language,
    }
    check_queue()
    return publish(lambda: render_round_cards.apply_async(kwargs=kwargs)).id


def _in_language(language: str) -> AbstractContextManager[Any]:
    """The language of the page that queued the batch, while the task runs (none given: the
    site's default)."""
    return translation.override(language) if language else nullcontext()


def _reporter(task: Any, **extra: object):
    def progress(done: int, total: int) -> None:
        # ``at`` lets the page tell a batch whose worker died from one that is slow: no newer
        # progress for PRINT_STALL_SECONDS means stalled (scoring.printing.batch.batch_state).
        meta = {"done": done, "total": total, "at": time.time(), **extra}
        task.update_state(state="PROGRESS", meta=meta)

    return progress


@shared_task(bind=True, name="scoring.render_round_cards")
def render_round_cards(
    self,
    stage_id: int,
    round_of_play: int,
    paper: str = "a4",
    scores: bool = False,
    site: str = "",
    language: str = "",
) -> dict[str, object]:
    """One card per entry of the round of play, stored as one PDF; returns where it is."""
    progress = _reporter(self)
    progress(0, 0)  # taken by a worker: the page stops saying "waiting"
    options = PrintOptions(paper=paper, scores=scores, site=site)
    batch_id = self.request.id
    with _in_language(language):
        if not self.request.is_eager:
            parts = plan_round_batch(
                stage_id=stage_id, round_of_play=round_of_play, options=options
            )
            if len(parts) > 1:
                return _split(
                    self, stage_id, round_of_play, batch_id, parts, paper, scores, site, language
                )
        batch = build_round_batch(
            stage_id=stage_id,
            round_of_play=round_of_play,
            batch_id=batch_id,
            options=options,
            progress=progress,
        )
    return batch.as_result()


def _split(
    task: Any,
    stage_id: int,
    round_of_play: int,
    batch_id: str,
    parts: list[range],
    paper: str,
    scores: bool,
    site: str,
    language: str,
):
    """Replace the batch's task with a chord: a task per part, then the join under its id."""
    ids = [f"{batch_id}-part-{i}" for i in range(len(parts))]
    total = parts[-1].stop
    task.update_state(
        state="PROGRESS",
        meta={
            "done": 0,
            "total": total,
            "at": time.time(),
            "parts": [[part_id, len(part)] for part_id, part in zip(ids, parts, strict=True)],
        },
    )
    header = group(
        render_round_part.si(
            stage_id,
            round_of_play,
            batch_id,
            i,
            part.start,
            part.stop,
            paper,
            scores,
            site,
            language,
        ).set(task_id=ids[i])
        for i, part in enumerate(parts)
    )
    body = join_round_parts_task.s(stage_id, round_of_play, batch_id, total, language)
    return task.replace(chord(header, body))


@shared_task(bind=True, name="scoring.render_round_part")
def render_round_part(
    self,
    stage_id: int,
    round_of_play: int,
    batch_id: str,
    index: int,
    start: int,
    stop: int,
    paper: str = "a4",
    scores: bool = False,
    site: str = "",
    language: str = "",
) -> str:
    """One part of a batch cut across workers, stored beside it; returns where."""
    with _in_language(language):
        return build_round_part(
            stage_id=stage_id,
            round_of_play=round_of_play,
            batch_id=batch_id,
            index=index,
            cards=range(start, stop),
            options=PrintOptions(paper=paper, scores=scores, site=site),
            progress=_reporter(self),
        )


@shared_task(bind=True, name="scoring.join_round_parts")
def join_round_parts_task(
    self,
    parts: list[str],
    stage_id: int,
    round_of_play: int,
    batch_id: str,
    cards: int,
    language: str = "",
) -> dict[str, object]:
    """The parts joined in order into the batch's PDF (this task runs under the batch's id)."""
    _reporter(self)(cards, cards)  # every card laid out: the page says the PDF is being written
    with _in_language(language):
        batch = join_round_parts(
            stage_id=stage_id,
            round_of_play=round_of_play,
            batch_id=batch_id,
            parts=parts,
            cards=cards,
        )
    return batch.as_result()
