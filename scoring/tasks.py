"""Celery tasks of the scoring app, here so worker autodiscovery finds them: printing a round's
scorecards as one PDF (``scoring.printing.tasks``).

Tasks are acknowledged late and handed back to the queue when their worker dies, so a batch may
be rendered twice: it writes the one file its batch id names, and a second run writes the same
file again. The print page asks ``config.celery.check_queue`` before sending one."""

from scoring.printing.tasks import render_round_cards
from scoring.ratings.tasks import nightly_ratings, recompute_ratings

__all__ = ["nightly_ratings", "recompute_ratings", "render_round_cards"]
