"""Simulation pages: previews, auto-play, dry runs and replays.

Reading is public, like the rest of a tournament's results: anyone may look at a preview, a
dry run's result or a replay. Starting, retrying and stopping work are the steps of
``simulation.actions``: the pages ask them whether a form or a button applies (and show the
words when it does not), and their posts take them; anonymous visitors are sent to log in,
other users without the role get a 403 page saying who may. One set of views serves the three
kinds of long work (``LONG_WORK``: start, status, retry, stop), each URL naming its kind. Views
are thin: reads through ``simulation.selectors``, writes through the steps. A bad form comes
back with the reason, never a server error.

Work is started only once the task queue answered (the steps ask it, a second or two at most):
a queue that cannot be reached is said on the page and nothing is written. Work that stalls
(``simulation.services.runs``) says since when; the organizers get Retry (stalled or failed)
and Stop (under way) as the steps allow; a dry run's copy tournament is linked only once the
dry run is done.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from simulation import selectors
from simulation.actions import (
    LONG_WORK,
    LongWork,
    Work,
    start_autoplay,
    start_dry_run,
    start_preview,
)
from simulation.models import AutoPlay, DryRun, MatchPreview, Status
from simulation.players.profiles import LEVEL_LABELS, LEVELS
from simulation.presets import PRESETS
from simulation.services import dryrun, previews, runs
from tournaments.actions import Refused, refusals
from tournaments.models import Category, Match, Tournament
from tournaments.views.access import refuse, safe_next
from tournaments.views.progress import Action, Progress, progress_partial

TEMPLATES = "simulation"
#: How often a progress bar asks for news, in seconds.
POLL_S = 2
#: How often a stalled job's progress asks for news, in seconds (its buttons stay clickable).
STALLED_POLL_S = 10
#: A job in these states is still under way: its progress partial keeps polling.
_RUNNING = (Status.QUEUED, Status.RUNNING)

PROFILE_CHOICES = [("", gettext_lazy("automatic"))] + [
    (level, gettext_lazy(LEVEL_LABELS[level])) for level in LEVELS
]


def _missing(request: HttpRequest, tournament: Tournament | None, message: str) -> HttpResponse:
    return render(
        request,
        f"{TEMPLATES}/missing.html",
        {"tournament": tournament, "message": message},
        status=404,
    )


# --- forms ---------------------------------------------------------------------------------------


class DryRunForm(forms.Form):
    preset = forms.ChoiceField(
        required=False,
        choices=[("", gettext_lazy("the category's own stages"))]
        + [(key, gettext_lazy(p.name)) for key, p in PRESETS.items()],
    )
    field = forms.ChoiceField(
        choices=[
            ("registered", gettext_lazy("registered players")),
            ("generated", gettext_lazy("generated players")),
        ],
        initial="registered",
        required=False,
    )
    category = forms.ModelChoiceField(queryset=Category.objects.none(), required=False)
    players = forms.IntegerField(
        required=False,
        min_value=2,
        max_value=dryrun.MAX_ENTRIES,
        help_text=gettext_lazy("Generated field."),
    )
    boards = forms.IntegerField(required=False, min_value=1, max_value=dryrun.MAX_BOARDS)
    seed = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].queryset = tournament.categories.all()


class PreviewForm(forms.Form):
    games = forms.IntegerField(
        min_value=previews.MIN_GAMES, max_value=previews.MAX_GAMES, initial=previews.DEFAULT_GAMES
    )
    profile_a = forms.ChoiceField(choices=PROFILE_CHOICES, required=False)
    profile_b = forms.ChoiceField(choices=PROFILE_CHOICES, required=False)


class AutoPlayForm(forms.Form):
    scope = forms.ChoiceField(choices=AutoPlay.Scope.choices)
    category = forms.IntegerField(required=False)
    stage = forms.IntegerField(required=False)
    round_of_play = forms.IntegerField(required=False, min_value=1)
    match = forms.IntegerField(required=False)
    profile_a = forms.ChoiceField(choices=PROFILE_CHOICES, required=False)
    profile_b = forms.ChoiceField(choices=PROFILE_CHOICES, required=False)


def _form_problem(form: forms.Form) -> str:
    return "; ".join(
        _("%(field)s: %(errors)s") % {"field": name.replace("_", " "), "errors": " ".join(errors)}
        if name != "__all__"
        else " ".join(errors)
        for name, errors in form.errors.items()
    )


# --- the hub -------------------------------------------------------------------------------------


@require_GET
def hub(request: HttpRequest, slug: str) -> HttpResponse:
    """Dry runs, auto-play and previews of a tournament."""
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(
        request,
        f"{TEMPLATES}/hub.html",
        {
            "tournament": tournament,
            "categories": selectors.hub_categories(tournament),
            "dry_runs": list(selectors.dry_runs_of(tournament)[:20]),
            "runs": selectors.autoplays_of(tournament),
            "steps": refusals(request.user, tournament, (start_dry_run, start_autoplay)),
            "form": DryRunForm(tournament=tournament),
            "presets": {key: replace(p, name=_(p.name)) for key, p in PRESETS.items()},
        },
    )


# --- the pages of each kind of work --------------------------------------------------------------


@require_GET
def dry_run_detail(request: HttpRequest, slug: str, dry_run_id: int) -> HttpResponse:
    """A dry run: its progress while it plays, its result when done."""
    dry = selectors.dry_run_for(slug, dry_run_id)
    if dry is None:
        return _not_here(request, LONG_WORK["dry_run"], dry_run_id)
    context = {
        "tournament": dry.source or dry.copy,
        "dry": dry,
        "progress": _progress(request, slug, LONG_WORK["dry_run"], dry),
    }
    if dry.status == Status.DONE:
        context["result"] = selectors.dry_run_result(dry)
    return render(request, f"{TEMPLATES}/dry_run.html", context)


@require_GET
def autoplay_detail(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """A run's progress while it plays; once done, what it wrote and, in a real tournament,
    the finished stage it stopped at, left for the organizer to advance."""
    run = selectors.autoplay_for(slug, run_id)
    if run is None:
        return _not_here(request, LONG_WORK["autoplay"], run_id)
    return render(
        request,
        f"{TEMPLATES}/autoplay.html",
        {
            "tournament": run.tournament,
            "run": run,
            "progress": _progress(request, slug, LONG_WORK["autoplay"], run),
            # In a real tournament play stops at a stage's end: the organizer goes on from there.
            "to_advance": selectors.stage_to_advance(run),
        },
    )


def _games_done(run: AutoPlay, phase: str) -> str:
    return " · ".join(
        part
        for part in (
            _("%(played)s of about %(expected)s games")
            % {"played": run.games_played, "expected": run.games_expected},
            phase,
        )
        if part
    )


def _dry_run_progress(slug: str, dry: DryRun) -> tuple[Progress, runs.Stall | None]:
    run = dry.run
    progress = Progress(
        element_id="dry-run-progress",
        status_url=reverse("simulation:dry_run_status", args=[slug, dry.pk]),
        running=dry.status in _RUNNING,
        state=dry.get_status_display(),
        detail=_games_done(run, run.phase or dry.phase) if run else dry.phase,
        percent=run.percent if run else 0,
        error=dry.error,
        poll_s=POLL_S,
        reload_when_finished=True,
    )
    return progress, runs.dry_run_stall(dry)


def _autoplay_progress(slug: str, run: AutoPlay) -> tuple[Progress, runs.Stall | None]:
    progress = Progress(
        element_id="run-progress",
        status_url=reverse("simulation:autoplay_status", args=[slug, run.pk]),
        running=run.status in _RUNNING,
        state=run.get_status_display(),
        detail=_games_done(run, run.phase),
        percent=run.percent,
        error=run.error,
        poll_s=POLL_S,
        reload_when_finished=True,
    )
    return progress, runs.stall_of(run)


def _preview_progress(slug: str, preview: MatchPreview) -> tuple[Progress, runs.Stall | None]:
    failed = preview.status == Status.FAILED
    played, win, tie, loss = preview.so_far
    if failed:
        detail = ""
    elif played:
        match = preview.match
        detail = _(
            "%(played)s of %(games)s games played; so far %(a)s wins %(win)s, %(tie)s tied, "
            "%(b)s wins %(loss)s (give or take %(margin)s points)"
        ) % {
            "played": played,
            "games": preview.games,
            "a": match.entry_a.name,
            "b": match.entry_b.name,
            "win": _percent(win, played),
            "tie": _percent(tie, played),
            "loss": _percent(loss, played),
            "margin": previews.margin_points(win, played),
        }
    else:
        detail = _("%(games)s games are being simulated…") % {"games": preview.games}
    progress = Progress(
        element_id="preview-progress",
        status_url=reverse("simulation:preview_status", args=[slug, preview.pk]),
        running=preview.status in _RUNNING,
        state=preview.get_status_display(),
        percent=min(100, round(100 * played / preview.games)) if preview.games else None,
        detail=detail,
        error=_("The preview failed: %(error)s") % {"error": preview.error} if failed else "",
        poll_s=POLL_S,
        reload_when_finished=True,
    )
    since = previews.stalled_since(preview)
    stall = None
    if since is not None:
        stall = runs.Stall(
            since,
            _("its games have not come back from the workers; stop it and start a new preview"),
        )
    return progress, stall


def _percent(count: int, total: int) -> str:
    return _("%(percent)s%%") % {"percent": round(100 * count / total)}


#: Each kind's progress (and its stall, if any), by the name of the kind.
_PROGRESS: dict[str, Callable[[str, Any], tuple[Progress, runs.Stall | None]]] = {
    "dry_run": _dry_run_progress,
    "autoplay": _autoplay_progress,
    "preview": _preview_progress,
}


def _progress(request: HttpRequest, slug: str, kind: LongWork, row: Any) -> Progress:
    """The work's progress with the buttons its steps offer to this user: a stalled job says
    since when and why, and polls less often; Retry and Stop are shown when their steps allow
    them (Retry: stalled or failed; Stop: under way), to the organizers."""
    progress, stall = _PROGRESS[kind.name](slug, row)
    work = Work(row)
    retry = kind.retry is not None and kind.retry.refusal(request.user, work) is None
    stop = kind.stop.refusal(request.user, work) is None
    if stall is not None:
        minutes = int((timezone.now() - stall.since).total_seconds() // 60)
        progress = replace(
            progress,
            state=_("Stalled"),
            error=(
                _("Stalled since %(since)s (%(minutes)s min ago): %(reason)s.")
                % {
                    "since": f"{timezone.localtime(stall.since):%H:%M:%S}",
                    "minutes": minutes,
                    "reason": stall.reason,
                }
                + (" " + _("Retry sends its work again; Stop ends it.") if retry else "")
            ),
            poll_s=STALLED_POLL_S,
        )
    buttons: list[Action] = []
    args = [slug, row.pk]
    if retry:
        buttons.append(Action(_("Retry"), reverse(f"simulation:{kind.name}_retry", args=args)))
    if stop:
        buttons.append(Action(_("Stop"), reverse(f"simulation:{kind.name}_stop", args=args)))
    return replace(progress, actions=tuple(buttons))


def _not_here(
    request: HttpRequest, kind: LongWork, work_id: int, tournament: Tournament | None = None
) -> HttpResponse:
    return _missing(request, tournament, kind.missing % {"number": work_id})


def _page_of(slug: str, kind: LongWork, row: Any) -> str:
    """Where the work shows: its own page, or its match's page for a preview."""
    if kind.name == "preview":
        return reverse("simulation:match", args=[slug, row.match_id])
    return reverse(f"simulation:{kind.name}", args=[slug, row.pk])


# --- the steps on each kind of work: start, status, retry, stop ----------------------------------


@dataclass(frozen=True)
class _StartForm:
    """How a kind's start is posted: its form, and the page a refusal goes back to."""

    form: Callable[[HttpRequest, Tournament], forms.Form]
    back: Callable[[HttpRequest, Tournament, Any], str]


_START_FORMS = {
    "dry_run": _StartForm(
        form=lambda request, tournament: DryRunForm(request.POST, tournament=tournament),
        back=lambda request, tournament, target: reverse("simulation:hub", args=[tournament.slug]),
    ),
    "autoplay": _StartForm(
        form=lambda request, tournament: AutoPlayForm(request.POST),
        back=lambda request, tournament, target: safe_next(
            request, reverse("simulation:hub", args=[tournament.slug])
        ),
    ),
    "preview": _StartForm(
        form=lambda request, tournament: PreviewForm(request.POST),
        back=lambda request, tournament, match: reverse(
            "simulation:match", args=[tournament.slug, match.pk]
        ),
    ),
}


def _tournament_for(
    request: HttpRequest, slug: str, step: Any
) -> tuple[Tournament | None, HttpResponse | None]:
    """The URL's tournament once ``step``'s role is held there; else the page that says no."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        message = _("There is no tournament “%(slug)s”.") % {"slug": slug}
        return None, _missing(request, None, message)
    forbidden = step.forbidden(request.user, tournament)
    if forbidden is not None:
        return None, refuse(request, forbidden.text, tournament)
    return tournament, None


@require_POST
def work_start(
    request: HttpRequest, slug: str, *, work: str, match_id: int | None = None
) -> HttpResponse:
    """Start a kind of work (``work``) from its form: a dry run, auto-play of a match, a round
    of play, a stage or the rest of a category, or a match's preview (``match_id``). Its page
    shows it; a form or a step refused goes back with the reason."""
    kind, start = LONG_WORK[work], _START_FORMS[work]
    tournament, refused = _tournament_for(request, slug, kind.start)
    if tournament is None:
        return refused
    target: Tournament | Match | None = tournament
    if match_id is not None:
        target = selectors.match_for(slug, match_id)
        if target is None:
            message = _("There is no match %(number)s at this tournament.") % {"number": match_id}
            return _missing(request, tournament, message)
    back = start.back(request, tournament, target)
    form = start.form(request, tournament)
    if not form.is_valid():
        messages.error(request, kind.not_started % {"problem": _form_problem(form) + "."})
        return redirect(back)
    inputs = {name: form.cleaned_data.get(name) for name in kind.start.fields}
    try:
        row = kind.start(request.user, target, **inputs)
    except Refused as exc:
        messages.error(request, kind.not_started % {"problem": exc.text})
        return redirect(back)
    return redirect(_page_of(slug, kind, row))


@require_GET
def work_status(request: HttpRequest, slug: str, work_id: int, *, work: str) -> HttpResponse:
    """The progress bar alone, for htmx polling; once finished it tells the page to reload."""
    kind = LONG_WORK[work]
    row = kind.find(slug, work_id)
    if row is None:
        return _not_here(request, kind, work_id)
    return progress_partial(request, _progress(request, slug, kind, row))


@require_POST
def work_retry(request: HttpRequest, slug: str, work_id: int, *, work: str) -> HttpResponse:
    """Send a stalled or failed piece of work to the workers again."""
    kind = LONG_WORK[work]
    if kind.retry is None:
        return _not_here(request, kind, work_id)
    tournament, refused = _tournament_for(request, slug, kind.retry)
    if tournament is None:
        return refused
    row = kind.find(slug, work_id)
    if row is None:
        return _not_here(request, kind, work_id, tournament)
    try:
        kind.retry(request.user, Work(row))
    except Refused as exc:
        messages.error(
            request,
            _("%(what)s was not sent again: %(error)s") % {"what": kind.what, "error": exc.text},
        )
    else:
        messages.success(
            request, _("%(what)s was sent to the workers again.") % {"what": kind.what}
        )
    return redirect(_page_of(slug, kind, row))


@require_POST
def work_stop(request: HttpRequest, slug: str, work_id: int, *, work: str) -> HttpResponse:
    """Stop a piece of work under way: it fails, saying who stopped it (what auto-play played
    stays); a run or a dry run may be sent again with Retry."""
    kind = LONG_WORK[work]
    tournament, refused = _tournament_for(request, slug, kind.stop)
    if tournament is None:
        return refused
    row = kind.find(slug, work_id)
    if row is None:
        return _not_here(request, kind, work_id, tournament)
    try:
        kind.stop(request.user, Work(row))
    except Refused as exc:
        messages.error(request, exc.text)
    else:
        messages.success(request, kind.stopped % {"number": row.pk})
    return redirect(_page_of(slug, kind, row))


# --- stages and matches --------------------------------------------------------------------------


@require_GET
def stage_page(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """A stage's matches by round of play, each linking to its match page."""
    stage = selectors.stage_for(slug, stage_id)
    if stage is None:
        return _missing(
            request,
            None,
            _("There is no stage %(number)s at this tournament.") % {"number": stage_id},
        )
    tournament = stage.category.tournament
    return render(
        request,
        f"{TEMPLATES}/stage.html",
        {
            "tournament": tournament,
            "stage": stage,
            "rounds": selectors.stage_rounds(stage),
            "steps": refusals(request.user, tournament, (start_autoplay,)),
        },
    )


@require_GET
def match_page(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    """A match: its games, its preview with the chart, and the replay of a simulated game."""
    match = selectors.match_for(slug, match_id)
    if match is None:
        return _missing(
            request,
            None,
            _("There is no match %(number)s at this tournament.") % {"number": match_id},
        )
    raw = request.GET.get("game", "")
    page = selectors.match_page(match, int(raw) if raw.isdigit() else None)
    tournament = match.stage.category.tournament
    steps = refusals(request.user, tournament, (start_autoplay,))
    steps.update(refusals(request.user, match, (start_preview,)))
    return render(
        request,
        f"{TEMPLATES}/match.html",
        {
            "tournament": tournament,
            "page": page,
            "match": match,
            "board": (
                selectors.board_picture(side_names=selectors.side_names(match))
                if page.replay_game
                else None
            ),
            "replay_rounds": (
                selectors.replay_rounds(page.replay_game.game) if page.replay_game else []
            ),
            "steps": steps,
            "preview_form": PreviewForm(initial={"games": previews.DEFAULT_GAMES}),
            "profile_choices": PROFILE_CHOICES,
            "progress": (
                _progress(request, slug, LONG_WORK["preview"], page.preview)
                if page.preview
                else None
            ),
        },
    )


# --- replays -------------------------------------------------------------------------------------


@require_GET
def game_record(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """A simulated game's record as JSON: every shot with its physics events, for replays."""
    game = selectors.game_for(slug, game_id)
    record = selectors.replay_record(game) if game is not None else None
    if record is None:
        return JsonResponse(
            {
                "error": _("Game %(number)s of this tournament has no simulated record to replay.")
                % {"number": game_id}
            },
            status=404,
        )
    return JsonResponse(record)


@require_GET
def game_replay(request: HttpRequest, slug: str, game_id: int) -> HttpResponse:
    """The replay of one simulated game, on its own page."""
    game = selectors.game_for(slug, game_id)
    if game is None or not hasattr(game, "simulation"):
        return _missing(
            request,
            None,
            _("Game %(number)s of this tournament was not simulated.") % {"number": game_id},
        )
    return render(
        request,
        f"{TEMPLATES}/replay.html",
        {
            "tournament": game.match.stage.category.tournament,
            "game": game,
            "match": game.match,
            "board": selectors.board_picture(side_names=selectors.side_names(game.match)),
            "replay_rounds": selectors.replay_rounds(game),
        },
    )
