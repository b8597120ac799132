"""Celery tasks of the scoring app, here so worker autodiscovery finds them: printing a round's
scorecards as one PDF (``scoring.printing.tasks``)."""

from scoring.printing.tasks import render_round_cards

__all__ = ["render_round_cards"]
