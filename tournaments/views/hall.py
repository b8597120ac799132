"""The hall screen: a page for a projector or a TV in the playing hall, set up by its address
(``tournaments.hall_screen``) and left alone for the day.

It is public, like the board lists it summarises. It is drawn without the site's header, in
type large enough to read from the back of the hall, and pages through long lists by itself
(``static/js/screen.js``): the page asks again for its panels (the same address, as an htmx
request) when the tournament's live version moves on, so it keeps its place in the rotation
instead of reloading from the first page. With JavaScript off it shows the first page of each
panel.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scoring.results.hall import hall_screen as read_hall_screen
from tournaments.hall_screen import (
    DEFAULT_SECONDS,
    DEFAULT_SHOW,
    MAX_SECONDS,
    MIN_SECONDS,
    PANELS,
    ScreenOptionError,
    parse_screen_options,
)
from tournaments.models import Stage, Tournament
from tournaments.selectors import stage_for_page, tournament_categories
from tournaments.services.calls import recent_calls
from tournaments.views.live import POLL_SECONDS

TEMPLATES = "tournaments/screen"


def _stage(tournament: Tournament, stage_id: int | None) -> Stage | None:
    """The stage the screen follows, which must be one of this tournament's."""
    if stage_id is None:
        return None
    stage = stage_for_page(tournament.slug, stage_id)
    if stage is None:
        known = [
            f"{stage.id} ({category.name} · {stage.name})"
            for category in tournament_categories(tournament, with_shootouts=False)
            for stage in category.stages.all()
        ]
        accepts = (
            gettext("the stages of %(tournament)s are %(stages)s.")
            % {"tournament": tournament.name, "stages": ", ".join(known)}
            if known
            else gettext("%(tournament)s has no stages yet.") % {"tournament": tournament.name}
        )
        raise ScreenOptionError("stage", str(stage_id), accepts)
    return stage


def _options_help(tournament: Tournament) -> dict:
    """What the help page and the 400 page say about the options, with this event's stages."""
    return {
        "panels": PANELS,
        "default_show": ",".join(DEFAULT_SHOW),
        "default_seconds": DEFAULT_SECONDS,
        "min_seconds": MIN_SECONDS,
        "max_seconds": MAX_SECONDS,
        # A shoot-out stage has no games to show (nor standings of its own): not offered.
        "categories": tournament_categories(tournament, with_shootouts=False),
        "screen_url": reverse("tournaments:screen", args=[tournament.slug]),
    }


@require_GET
@never_cache
def hall_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """``?show=now,clock,results,standings&stage=<id>&seconds=<n>``; see :func:`screen_help`."""
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        options = parse_screen_options(dict(request.GET.lists()))
        stage = _stage(tournament, options.stage_id)
    except ScreenOptionError as error:
        context = {"tournament": tournament, "error": error, **_options_help(tournament)}
        return render(request, f"{TEMPLATES}/bad_options.html", context, status=400)
    context = {
        "tournament": tournament,
        "options": options,
        "stage": stage,
        "screen": read_hall_screen(tournament, options.panels, stage),
        "calls": recent_calls(tournament_id=tournament.id, limit=24)
        if "calls" in options.panels
        else [],
        "version": tournament.live_version,
    }
    if request.htmx:
        return render(request, f"{TEMPLATES}/_panels.html", context)
    context["live_url"] = reverse("tournaments:live", args=[slug])
    context["poll_ms"] = POLL_SECONDS * 1000
    return render(request, f"{TEMPLATES}/screen.html", context)


@require_GET
def screen_help(request: HttpRequest, slug: str) -> HttpResponse:
    """How to set up a screen: the options of its address, with this event's stage numbers."""
    tournament = get_object_or_404(Tournament, slug=slug)
    context = {"tournament": tournament, **_options_help(tournament)}
    return render(request, f"{TEMPLATES}/help.html", context)
