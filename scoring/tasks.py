"""Celery tasks of the scoring app: thin wrappers around selectors and services."""

from celery import shared_task

from scoring.standings.selectors import stage_standings
from tournaments.models import Stage


@shared_task
def standings_snapshot(stage_id: int) -> list[dict]:
    """The stage's standings as plain data, e.g. for a hall screen or an export."""
    standings = stage_standings(Stage.objects.get(pk=stage_id))
    return [
        {
            "rank": line.rank,
            "entry": line.entry.name,
            "points": line.points,
            "twenties": line.twenties,
            "tiebreak": line.tiebreak,
        }
        for line in standings.lines
    ]


from scoring.printing.tasks import render_round_cards  # noqa: E402, F401  (autodiscovery finds it here)
