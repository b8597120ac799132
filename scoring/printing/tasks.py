"""Celery task for printing: a whole round of play's scorecards as one PDF, with progress.

Thin on purpose: the work is :func:`scoring.printing.batch.build_round_batch`; the task passes its
own id (which names the stored file) and turns progress callbacks into ``PROGRESS`` states that the
print page's progress bar polls. Imported by ``scoring.tasks`` so worker autodiscovery finds it.
"""

import time

from celery import shared_task

from scoring.printing.batch import build_round_batch
from scoring.printing.options import PrintOptions


@shared_task(bind=True, name="scoring.render_round_cards")
def render_round_cards(
    self,
    stage_id: int,
    round_of_play: int,
    paper: str = "a4",
    scores: bool = False,
    site: str = "",
) -> dict[str, object]:
    """One card per entry of the round of play, stored as one PDF; returns where it is."""

    def progress(done: int, total: int) -> None:
        # ``at`` lets the page tell a batch whose worker died from one that is slow: no newer
        # progress for PRINT_STALL_SECONDS means stalled (scoring.printing.batch.batch_state).
        self.update_state(state="PROGRESS", meta={"done": done, "total": total, "at": time.time()})

    progress(0, 0)  # taken by a worker: the page stops saying "waiting"

    batch = build_round_batch(
        stage_id=stage_id,
        round_of_play=round_of_play,
        batch_id=self.request.id,
        options=PrintOptions(paper=paper, scores=scores, site=site),
        progress=progress,
    )
    return batch.as_result()
