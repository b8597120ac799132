"""Pages of the broadcast kit: the featured match's public page, the scorer's page (phone
first), the organizer's stream queue, the overlay for streaming software, the hall screen's
panel. Thin: the steps (``simulation.broadcast.actions``) write, the selectors read."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_http_methods

from simulation.broadcast import selectors
from simulation.broadcast.actions import QUEUE_WHO, change_queue, queue_match, score_round
from simulation.models import FeaturedMatch
from simulation.permissions import MANAGE_STREAM
from tournaments.actions import Refused
from tournaments.models import Match, Tournament
from tournaments.views.access import missing, refuse, tournament_page

TEMPLATES = "simulation/broadcast"
LAYOUTS = ("full", "lower-third")


def _featured(tournament: Tournament, featured_id: int) -> FeaturedMatch | None:
    return (
        FeaturedMatch.objects.filter(tournament=tournament, pk=featured_id)
        .select_related("match__entry_a", "match__entry_b", "match__stage__category")
        .first()
    )


def _context(tournament: Tournament, featured: FeaturedMatch | None) -> dict[str, Any]:
    state = selectors.live_state(featured, tournament)
    return {
        "tournament": tournament,
        "featured": featured,
        "live": state,
        "course_points": selectors.course_points(state.get("course") or []),
    }


@require_GET
@tournament_page()
def match_page(request: HttpRequest, tournament: Tournament, featured_id: int) -> HttpResponse:
    """A featured match's running score per game and round, its 20s, hammer and win chance."""
    featured = _featured(tournament, featured_id)
    if featured is None:
        return missing(request, _("That match is not featured."), tournament)
    context = _context(tournament, featured)
    context["may_score"] = score_round.forbidden(request.user, featured.match) is None
    return render(request, f"{TEMPLATES}/match.html", context)


@require_GET
@tournament_page()
def live_block(request: HttpRequest, tournament: Tournament, featured_id: int) -> HttpResponse:
    """The running score and the win chance alone (the pages reload it with htmx)."""
    featured = _featured(tournament, featured_id)
    if featured is None:
        return missing(request, _("That match is not featured."), tournament)
    return render(request, f"{TEMPLATES}/_live.html", _context(tournament, featured))


def _whole(request: HttpRequest, name: str) -> int:
    raw = request.POST.get(name, "0").strip() or "0"
    try:
        return int(raw)
    except ValueError:
        raise Refused(
            _("%(field)s must be a whole number, not %(value)r") % {"field": name, "value": raw},
            field=name,
        ) from None


@require_http_methods(["GET", "POST"])
@tournament_page()
def score_page(request: HttpRequest, tournament: Tournament, featured_id: int) -> HttpResponse:
    """The scorer's page: 2-0 / 1-1 / 0-2 buttons, 20s steppers, undo the last round."""
    featured = _featured(tournament, featured_id)
    if featured is None:
        return missing(request, _("That match is not featured."), tournament)
    refused = score_round.forbidden(request.user, featured.match)
    if refused is not None:
        return refuse(request, refused.text, tournament)
    status = 200
    if request.method == "POST":
        try:
            if "undo" in request.POST:
                score_round(request.user, featured.match, undo=True)
                messages.success(request, _("The last round was taken back."))
            else:
                points = request.POST.get("points", "")
                expired = points == "time"
                pa, _sep, pb = points.partition("-")
                if not expired and not (pa.isdigit() and pb.isdigit()):
                    raise Refused(
                        _("Choose the round's points: 2-0, 1-1, 0-2, or time ran out."),
                        field="points",
                    )
                score_round(
                    request.user,
                    featured.match,
                    points_a=0 if expired else int(pa),
                    points_b=0 if expired else int(pb),
                    twenties_a=_whole(request, "twenties_a"),
                    twenties_b=_whole(request, "twenties_b"),
                    time_expired=expired,
                )
                messages.success(request, _("Round saved."))
        except Refused as exc:
            messages.error(request, _("Not saved: %(problem)s") % {"problem": exc.text})
            status = exc.status
        else:
            return redirect("broadcast:score", tournament.slug, featured.pk)
    featured.refresh_from_db()
    context = _context(tournament, featured)
    context["discs"] = featured.match.stage.category.discs_per_side
    return render(request, f"{TEMPLATES}/score.html", context, status=status)


@require_http_methods(["GET", "POST"])
@tournament_page(MANAGE_STREAM, QUEUE_WHO)
def queue_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The organizer's stream queue: add a match, move it, put it on air, remove it."""
    status = 200
    if request.method == "POST":
        try:
            if "featured" in request.POST:
                featured = FeaturedMatch.objects.filter(
                    tournament=tournament, pk=request.POST.get("featured") or 0
                ).first()
                if featured is None:
                    raise Refused(_("That match is no longer in the queue."), field="featured")
                change_queue(request.user, featured, move=request.POST.get("move", ""))
            else:
                queue_match(request.user, tournament, match=request.POST.get("match", ""))
            messages.success(request, _("The stream queue is changed."))
        except Refused as exc:
            messages.error(request, _("Not changed: %(problem)s") % {"problem": exc.text})
            status = exc.status
        else:
            return redirect("broadcast:queue", tournament.slug)
    queued = {f.match_id for f in selectors.queue(tournament)}
    candidates = [
        m
        for m in Match.objects.filter(
            stage__category__tournament=tournament, entry_b__isnull=False, entry_c__isnull=True
        )
        .select_related("entry_a", "entry_b", "stage__category")
        .order_by("stage__category__name", "stage__id", "round_of_play", "id")
        if m.pk not in queued
    ]
    return render(
        request,
        f"{TEMPLATES}/queue.html",
        {"tournament": tournament, "queue": selectors.queue(tournament), "candidates": candidates},
        status=status,
    )


def _layout(request: HttpRequest) -> str:
    layout = request.GET.get("layout", "full")
    return layout if layout in LAYOUTS else "full"


@xframe_options_exempt
@require_GET
@tournament_page()
def overlay(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The overlay for streaming software (a browser source): a transparent page, 1920x1080
    (``?layout=full``) or a lower third (``?layout=lower-third``); it follows the queue and
    updates itself from the event stream, polling the feed where the stream fails."""
    layout = _layout(request)
    context = _context(tournament, selectors.on_air(tournament))
    context["layout"] = layout
    return render(request, f"{TEMPLATES}/overlay.html", context)


@require_GET
@tournament_page()
def overlay_panel(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The overlay's panel alone, which the overlay swaps in at each change."""
    context = _context(tournament, selectors.on_air(tournament))
    context["layout"] = _layout(request)
    return render(request, f"{TEMPLATES}/_overlay_panel.html", context)


@require_GET
@tournament_page()
def hall_panel(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The hall screen's "featured" panel: the match on air, its score and win chance."""
    return render(
        request, f"{TEMPLATES}/_hall.html", _context(tournament, selectors.on_air(tournament))
    )
