"""Public pages of the cut odds: a stage's page, the block the standings page loads, a player's
line and the hall screen's panel. Reads only (results are public), as the standings are."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from simulation.odds.selectors import StageOdds, stage_odds
from tournaments.models import Stage

TEMPLATES = "simulation/odds"


def _read(request: HttpRequest, slug: str, stage_id: int) -> StageOdds:
    stage = get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament__slug=slug,
    )
    return stage_odds(stage, getattr(request, "live_version", None))


def _context(odds: StageOdds) -> dict:
    return {"odds": odds, "stage": odds.stage, "tournament": odds.stage.category.tournament}


@require_GET
def stage_page(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Every entry's chance of the cut and of the places, and what it still needs."""
    return render(request, f"{TEMPLATES}/stage.html", _context(_read(request, slug, stage_id)))


@require_GET
def stage_block(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The odds as a block of the public standings page (loaded there by htmx)."""
    return render(request, f"{TEMPLATES}/_block.html", _context(_read(request, slug, stage_id)))


@require_GET
def entry_line(request: HttpRequest, slug: str, stage_id: int, entry_id: int) -> HttpResponse:
    """One entry's odds, for the player's page: an empty answer where the stage has none, or
    none for this entry yet (one drawn after they were worked out), so the page stays as it is."""
    odds = _read(request, slug, stage_id)
    line = odds.line_of(entry_id)
    context = {**_context(odds), "line": line}
    return render(request, f"{TEMPLATES}/_entry.html", context)


@require_GET
def hall_panel(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The hall screen's odds panel (``?show=odds&stage=<id>``)."""
    return render(request, f"{TEMPLATES}/_hall.html", _context(_read(request, slug, stage_id)))
