"""Reads of planning runs, and the result as the page shows it (clock times, histograms)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from simulation.models import PlanningRun
from simulation.planning import chart
from simulation.planning.forecast import clock_time
from tournaments.models import Tournament

STAGE_NAMES = {
    "preliminary": gettext_noop("Preliminary rounds"),
    "playoffs": gettext_noop("Playoffs"),
}


def runs_of(tournament: Tournament, limit: int = 10) -> QuerySet[PlanningRun]:
    """The tournament's latest planning runs, newest first."""
    return PlanningRun.objects.filter(tournament=tournament).order_by("-created_at", "-id")[:limit]


def run_of(tournament: Tournament, run_id: int) -> PlanningRun | None:
    return PlanningRun.objects.filter(tournament=tournament, pk=run_id).first()


def format_label(row: dict[str, Any]) -> str:
    """A format in words: "8 games, top 16, best of 3"."""
    parts = []
    if row["prelim_games"]:
        parts.append(_("%(games)s games") % {"games": row["prelim_games"]})
    if row["playoff"]:
        parts.append(_("top %(count)s") % {"count": row["playoff"]})
        parts.append(_("best of %(games)s") % {"games": row["best_of"]})
    return ", ".join(parts)


def _percent(share: float) -> str:
    return _("%(percent)s%%") % {"percent": round(100 * share)}


def shown(run: PlanningRun) -> dict[str, Any]:
    """The stored result with what the page prints: labels, clock times, percentages and each
    stage's histogram drawing."""
    result = run.result or {}
    end = run.options.get("day_end")
    words = {
        "median": _("median"),
        "p90": _("%(percent)s%%") % {"percent": 90},
        "end": _("end"),
        "days": _("%(count)s days ending %(range)s"),
    }
    formats = []
    best = None
    for row in result.get("formats", []):
        stages = []
        for stage in row["stages"]:
            stages.append(
                {
                    **stage,
                    "label": _(STAGE_NAMES.get(stage["name"], stage["name"])),
                    "median_at": clock_time(stage["median"]),
                    "p90_at": clock_time(stage["p90"]),
                    "games_cut": _percent(stage["games_cut_share"]),
                    "chart": chart.histogram(
                        stage["histogram"], stage["median"], stage["p90"], end, words
                    ),
                }
            )
        item = {
            **row,
            "label": format_label(row),
            "stages": stages,
            "median_at": clock_time(row["median"]),
            "p90_at": clock_time(row["p90"]),
            "overrun": _percent(row["p_overrun"]),
            "risky": row["p_overrun"] >= 0.1,
        }
        formats.append(item)
        if best is None or (row["p_overrun"], row["median"]) < (best["p_overrun"], best["median"]):
            best = item
    return {
        "formats": formats,
        "model": result.get("model"),
        "entries": result.get("entries"),
        "wall_s": result.get("wall_s"),
        "day_start": clock_time(run.options.get("day_start", 0)),
        "day_end": clock_time(end or 0),
    }
