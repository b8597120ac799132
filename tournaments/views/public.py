"""Public pages: anyone may read them, no login (a tournament's draw, schedule and results are
public by nature, like the sheets pinned up in the hall). Views only read through
``scoring.results`` and ``tournaments.selectors`` and render; an unknown tournament, stage, round
or player gets a 404 page that says which one was not found.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.results.knockout import bracket_rounds
from scoring.results.next_match import board_estimate
from scoring.results.outcomes import current_round
from scoring.results.players import own_cards, player_standings
from scoring.results.players import player_page as read_player_page
from scoring.results.pools import pool_tables
from scoring.results.schedule import now_playing
from scoring.results.schedule import round_schedule as read_round_schedule
from scoring.results.shootouts import shootout_page
from tournaments.embedding import embed_snippet, embeddable
from tournaments.models import Stage, Tournament
from tournaments.selectors import stage_for_page, stage_rounds
from tournaments.services.calls import recent_calls
from tournaments.svg import bracket_svg

#: How often the hall screen reloads its boards, in seconds.
SCREEN_REFRESH_S = 20


def _missing(request: HttpRequest, tournament: Tournament | None, message: str) -> HttpResponse:
    return render(
        request,
        "tournaments/public/missing.html",
        {"tournament": tournament, "message": message},
        status=404,
    )


def _stage(slug: str, stage_id: int) -> Stage | None:
    return stage_for_page(slug, stage_id)


def _embed_missing(message: str, request: HttpRequest) -> HttpResponse:
    """A 404 that still fits in the club's frame: a stale link says what is missing instead of
    showing the whole site inside their page."""
    return render(request, "embed/missing.html", {"message": message}, status=404)


def _embed(request: HttpRequest, stage: Stage, kind: str) -> dict[str, str]:
    """The "Embed" disclosure's context for a stage's page of ``kind``."""
    url_name = {"bracket": "tournaments:embed-bracket", "schedule": "tournaments:embed-schedule"}
    names = {"category": stage.category.name, "stage": stage.name}
    if kind == "bracket":
        what = _("the bracket of %(category)s, %(stage)s") % names
        title = _("Bracket: %(category)s, %(stage)s") % names
    else:
        what = _("the schedule of %(category)s, %(stage)s") % names
        title = _("Schedule: %(category)s, %(stage)s") % names
    return {
        "embed_what": what,
        "embed_snippet": embed_snippet(
            request,
            reverse(url_name[kind], args=[stage.category.tournament.slug, stage.id]),
            title=title,
            kind=kind,
        ),
    }


@require_GET
def tournament_now(request: HttpRequest, slug: str) -> HttpResponse:
    """The hall screen: who plays where now, every stage in play; refreshes itself."""
    tournament = get_object_or_404(Tournament, slug=slug)
    context = {
        "tournament": tournament,
        "screens": now_playing(tournament),
        "refresh_url": request.path,
        "refresh_s": SCREEN_REFRESH_S,
    }
    if request.htmx:
        return render(request, "tournaments/public/_screen.html", context)
    return render(request, "tournaments/public/now.html", context)


@require_GET
def stage_schedule(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """A stage's schedule: its first round still in play (or its last round when finished)."""
    stage = _stage(slug, stage_id)
    if stage is None:
        return _missing(
            request,
            None,
            _("There is no stage %(stage)s at this tournament.") % {"stage": stage_id},
        )
    tournament = stage.category.tournament
    rounds = stage_rounds(stage)
    if not rounds:
        context = {"tournament": tournament, "stage": stage, "schedule": None, "ties": _ties(stage)}
        return render(
            request,
            "tournaments/public/schedule.html",
            context | _embed(request, stage, "schedule"),
        )
    current = current_round(stage) or rounds[-1]
    return redirect("tournaments:round", slug, stage.id, current)


def _ties(stage: Stage):
    if stage.kind != Stage.Kind.SHOOTOUT:
        return None
    return shootout_page(stage)


@require_GET
def round_schedule(
    request: HttpRequest, slug: str, stage_id: int, round_of_play: int
) -> HttpResponse:
    """The board list of one round of play: board, time, who plays whom, results so far."""
    stage = _stage(slug, stage_id)
    if stage is None:
        return _missing(
            request,
            None,
            _("There is no stage %(stage)s at this tournament.") % {"stage": stage_id},
        )
    schedule = read_round_schedule(stage, round_of_play)
    tournament = stage.category.tournament
    if not schedule.rows:
        return _missing(request, tournament, _no_round(stage, round_of_play, schedule.rounds))
    context = {"tournament": tournament, "stage": stage, "schedule": schedule, "ties": None}
    return render(
        request,
        "tournaments/public/schedule.html",
        context | _embed(request, stage, "schedule"),
    )


@require_GET
def round_now(request: HttpRequest, slug: str, stage_id: int, round_of_play: int) -> HttpResponse:
    """One round of play for the hall screen: big type, refreshes itself."""
    stage = _stage(slug, stage_id)
    if stage is None:
        return _missing(
            request,
            None,
            _("There is no stage %(stage)s at this tournament.") % {"stage": stage_id},
        )
    schedule = read_round_schedule(stage, round_of_play)
    tournament = stage.category.tournament
    if not schedule.rows:
        return _missing(request, tournament, _no_round(stage, round_of_play, schedule.rounds))
    context = {
        "tournament": tournament,
        "screens": [schedule],
        "refresh_url": request.path,
        "refresh_s": SCREEN_REFRESH_S,
    }
    if request.htmx:
        return render(request, "tournaments/public/_screen.html", context)
    return render(request, "tournaments/public/now.html", context)


def _no_round(stage: Stage, number: int, rounds: list[int]) -> str:
    if not rounds:
        return _("%(stage)s has not been drawn yet.") % {"stage": stage.name}
    return _("%(stage)s has no round %(number)s; the rounds drawn are %(rounds)s.") % {
        "stage": stage.name,
        "number": number,
        "rounds": ", ".join(str(r) for r in rounds),
    }


@require_GET
def stage_bracket(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The knockout bracket, drawn as SVG."""
    stage = _stage(slug, stage_id)
    if stage is None or stage.kind != Stage.Kind.KNOCKOUT:
        return _missing(
            request, None, _("There is no knockout stage %(stage)s here.") % {"stage": stage_id}
        )
    return render(
        request,
        "tournaments/public/bracket.html",
        _bracket(stage) | _embed(request, stage, "bracket"),
    )


def _bracket(stage: Stage) -> dict:
    """What the bracket page and its embed show: the bracket as drawn so far, in SVG, in both
    layouts (the page's CSS shows the phone one on narrow screens, the wide one elsewhere)."""
    rounds = bracket_rounds(stage)
    title = f"{stage.category.name}: {stage.name}"
    return {
        "tournament": stage.category.tournament,
        "stage": stage,
        "drawn": bool(rounds),
        # Built with ElementTree, which escapes every name.
        "svg": mark_safe(bracket_svg(rounds, title=title)),
        "phone_svg": mark_safe(bracket_svg(rounds, title=title, layout="phone")),
    }


@embeddable
def embed_bracket(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The bracket drawing alone, for a club's site to frame."""
    stage = _stage(slug, stage_id)
    if stage is None or stage.kind != Stage.Kind.KNOCKOUT:
        return _embed_missing(
            _("There is no knockout stage %(stage)s here.") % {"stage": stage_id}, request
        )
    return render(request, "tournaments/public/embed_bracket.html", _bracket(stage))


@embeddable
def embed_schedule(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The stage's round in play (its last round once finished), for a club's site to frame.
    One address for the whole stage: when the next round starts the live version moves on and
    the frame reloads onto it, so the club never edits its page between rounds."""
    stage = _stage(slug, stage_id)
    if stage is None:
        return _embed_missing(
            _("There is no stage %(stage)s at this tournament.") % {"stage": stage_id}, request
        )
    rounds = stage_rounds(stage)
    schedule = None
    if rounds:
        schedule = read_round_schedule(stage, current_round(stage) or rounds[-1])
    return render(
        request,
        "tournaments/public/embed_schedule.html",
        {"tournament": stage.category.tournament, "stage": stage, "schedule": schedule},
    )


@require_GET
def stage_bracket_svg(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The bracket picture alone, for printing or another screen."""
    stage = _stage(slug, stage_id)
    if stage is None or stage.kind != Stage.Kind.KNOCKOUT:
        return _missing(
            request, None, _("There is no knockout stage %(stage)s here.") % {"stage": stage_id}
        )
    svg = bracket_svg(bracket_rounds(stage), title=f"{stage.category.name}: {stage.name}")
    return HttpResponse(
        svg,
        content_type="image/svg+xml; charset=utf-8",  # untranslated: a MIME type
    )


@require_GET
def stage_pools(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """Round-robin pools: each pool's standings and crosstable."""
    stage = _stage(slug, stage_id)
    if stage is None or stage.kind != Stage.Kind.ROUND_ROBIN:
        return _missing(
            request, None, _("There is no round-robin stage %(stage)s here.") % {"stage": stage_id}
        )
    return render(
        request,
        "tournaments/public/pools.html",
        {
            "tournament": stage.category.tournament,
            "stage": stage,
            "tables": pool_tables(stage),
        },
    )


@require_GET
def player_lookup(request: HttpRequest, slug: str) -> HttpResponse:
    """Find a player's page by the ID number on their scorecard."""
    tournament = get_object_or_404(Tournament, slug=slug)
    raw = request.GET.get("number", "").strip()
    error = ""
    if raw:
        if raw.isdigit():
            return redirect("tournaments:player", slug, int(raw))
        error = _("“%(raw)s” is not a player ID; the ID is the number on the scorecard.") % {
            "raw": raw
        }
    return render(
        request,
        "tournaments/public/player_lookup.html",
        {"tournament": tournament, "error": error, "number": raw},
        status=400 if error else 200,
    )


@require_GET
def player_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A player's page, where a logged-in player or a private link lands: what they play now or
    next (board, time, opponent), where they stand in each stage, their cards when it is their
    own page, and every game with its result."""
    tournament = get_object_or_404(Tournament, slug=slug)
    page = read_player_page(tournament, number)
    if page is None:
        return _missing(
            request,
            tournament,
            _("No player has ID %(number)s at %(tournament)s.")
            % {"number": number, "tournament": tournament.name},
        )
    version = getattr(request, "live_version", None)
    next_game = page.next_game
    waiting = next_game is not None and next_game.result == "to play"  # untranslated: a key
    return render(
        request,
        "tournaments/public/player.html",
        {
            "tournament": tournament,
            "page": page,
            "next_game": next_game,
            "estimate": board_estimate(next_game.match, now=timezone.now()) if waiting else None,
            "calls": recent_calls(
                tournament_id=tournament.id, entry_ids=[e.id for e in page.entries]
            ),
            "standings": player_standings(page, version),
            "own_cards": own_cards(request.user, page),
            "lookup": reverse("tournaments:player_lookup", args=[slug]),
        },
    )
