"""Simulation pages: previews, auto-play, dry runs and replays.

Reading is public, like the rest of a tournament's results: anyone may look at a preview, a
dry run's result or a replay. Starting work (a preview, auto-play, a dry run) needs
``tournaments.manage_tournament``: anonymous visitors are sent to log in, other users get a 403
page saying who may do it. Views are thin: reads through ``simulation.selectors``, writes
through ``simulation.services``, the work itself in ``simulation.tasks`` (sent when the
request's transaction commits). A bad form comes back with the reason, never a server error.

Work is started only once the task queue answered (``config.celery.check_queue``, a second or
two at most): a queue that cannot be reached is said on the page and nothing is written. Work
that stalls (``simulation.services.runs``) says since when, with Retry and Stop buttons for
the organizers; a dry run's copy tournament is linked only once the dry run is done.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from config.celery import QueueUnreachable, check_queue
from simulation import selectors, tasks
from simulation.models import AutoPlay, DryRun, MatchPreview, Status
from simulation.players.profiles import LEVEL_LABELS, LEVELS
from simulation.presets import PRESETS
from simulation.services import autoplay, dryrun, previews, runs
from tournaments.models import Category, Match, Stage, Tournament
from tournaments.views.access import MANAGE, safe_next, tournament_page
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


def _can_manage(request: HttpRequest, tournament: Tournament) -> bool:
    return request.user.has_perm(MANAGE, tournament)


def _errors(exc: ValidationError | QueueUnreachable) -> str:
    if isinstance(exc, QueueUnreachable):
        return str(exc)
    return "; ".join(exc.messages)


#: Starting work (POST views) is for the tournament's organizers.
manager_only = tournament_page(
    MANAGE,
    gettext_lazy(
        "Organizers only: only the organizers of a tournament start previews, auto-play and dry "
        "runs; the results and replays stay open to everyone."
    ),
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
            "can_manage": _can_manage(request, tournament),
            "form": DryRunForm(tournament=tournament),
            "presets": {key: replace(p, name=_(p.name)) for key, p in PRESETS.items()},
        },
    )


# --- dry runs ------------------------------------------------------------------------------------


@require_POST
@manager_only
def dry_run_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Queue a dry run of this tournament and show its progress."""
    form = DryRunForm(request.POST, tournament=tournament)
    if not form.is_valid():
        messages.error(
            request,
            _("The dry run was not started: %(problem)s.") % {"problem": _form_problem(form)},
        )
        return redirect("simulation:hub", tournament.slug)
    data = form.cleaned_data
    generated = (
        data["field"] == "generated"
        or not tournament.categories.filter(entries__isnull=False).exists()
    )
    try:
        check_queue()
        dry = dryrun.create_dry_run(
            source=tournament,
            category=data["category"],
            preset=data["preset"] or None,
            entries=data["players"],
            boards=data["boards"],
            seed=data["seed"],
            user=request.user,
            generated=generated,
        )
    except (ValidationError, QueueUnreachable) as exc:
        messages.error(
            request, _("The dry run was not started: %(problem)s") % {"problem": _errors(exc)}
        )
        return redirect("simulation:hub", tournament.slug)
    tasks.send_after_commit(
        tasks.run_dry_run, dry.pk, on_unreachable=lambda error: runs.fail_dry_run(dry.pk, error)
    )
    return redirect("simulation:dry_run", tournament.slug, dry.pk)


@require_GET
def dry_run_detail(request: HttpRequest, slug: str, dry_run_id: int) -> HttpResponse:
    """A dry run: its progress while it plays, its result when done."""
    dry = selectors.dry_run_for(slug, dry_run_id)
    if dry is None:
        return _missing(
            request, None, _("There is no dry run %(number)s here.") % {"number": dry_run_id}
        )
    tournament = dry.source or dry.copy
    progress = _dry_run_progress(slug, dry, _can_manage(request, tournament))
    context = {"tournament": tournament, "dry": dry, "progress": progress}
    if dry.status == Status.DONE:
        context["result"] = selectors.dry_run_result(dry)
    return render(request, f"{TEMPLATES}/dry_run.html", context)


@require_GET
def dry_run_status(request: HttpRequest, slug: str, dry_run_id: int) -> HttpResponse:
    """The progress bar alone, for htmx polling; once finished it tells the page to reload."""
    dry = selectors.dry_run_for(slug, dry_run_id)
    if dry is None:
        return _missing(
            request, None, _("There is no dry run %(number)s here.") % {"number": dry_run_id}
        )
    can_manage = _can_manage(request, dry.source or dry.copy)
    return progress_partial(request, _dry_run_progress(slug, dry, can_manage))


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


def _dry_run_progress(slug: str, dry: DryRun, can_manage: bool) -> Progress:
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
    buttons = {
        "retry": reverse("simulation:dry_run_retry", args=[slug, dry.pk]),
        "stop": reverse("simulation:dry_run_stop", args=[slug, dry.pk]),
    }
    return _with_stall(progress, dry.status, runs.dry_run_stall(dry), buttons, can_manage)


def _with_stall(
    progress: Progress,
    status: str,
    stall: runs.Stall | None,
    buttons: dict[str, str],
    can_manage: bool,
) -> Progress:
    """A stalled job says since when and why, and polls less often; the organizers get Retry
    (stalled or failed) and Stop (stalled)."""
    actions: list[Action] = []
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
                + (" " + _("Retry sends its work again; Stop ends it.") if can_manage else "")
            ),
            poll_s=STALLED_POLL_S,
        )
    if can_manage and "retry" in buttons and (stall is not None or status == Status.FAILED):
        actions.append(Action(_("Retry"), buttons["retry"]))
    if can_manage and stall is not None:
        actions.append(Action(_("Stop"), buttons["stop"]))
    return replace(progress, actions=tuple(actions))


@require_POST
@manager_only
def dry_run_retry(request: HttpRequest, tournament: Tournament, dry_run_id: int) -> HttpResponse:
    """Send a stalled or failed dry run's work to the workers again."""
    dry = selectors.dry_run_for(tournament.slug, dry_run_id)
    if dry is None:
        return _missing(
            request, tournament, _("There is no dry run %(number)s here.") % {"number": dry_run_id}
        )
    _retry(request, tasks.retry_dry_run, dry.pk, _("The dry run"))
    return redirect("simulation:dry_run", tournament.slug, dry.pk)


@require_POST
@manager_only
def dry_run_stop(request: HttpRequest, tournament: Tournament, dry_run_id: int) -> HttpResponse:
    """Stop a dry run: it fails, saying who stopped it; Retry can send it again."""
    dry = selectors.dry_run_for(tournament.slug, dry_run_id)
    if dry is None:
        return _missing(
            request, tournament, _("There is no dry run %(number)s here.") % {"number": dry_run_id}
        )
    runs.stop_dry_run(dry.pk, request.user.get_username())
    messages.success(request, _("Dry run %(number)s was stopped.") % {"number": dry.pk})
    return redirect("simulation:dry_run", tournament.slug, dry.pk)


def _retry(request: HttpRequest, task: Any, row_id: int, what: str) -> None:
    """Send ``task(row_id)`` once the queue answered; the page says what happened."""
    try:
        check_queue()
    except QueueUnreachable as exc:
        messages.error(
            request, _("%(what)s was not sent again: %(error)s") % {"what": what, "error": exc}
        )
        return
    messages.success(request, _("%(what)s was sent to the workers again.") % {"what": what})
    tasks.send_after_commit(
        task, row_id, on_unreachable=lambda error: messages.error(request, error)
    )


# --- auto-play -----------------------------------------------------------------------------------


@require_POST
@manager_only
def autoplay_start(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Queue auto-play of a match, a round of play, a stage or the rest of a category."""
    form = AutoPlayForm(request.POST)
    back = safe_next(request, reverse("simulation:hub", args=[tournament.slug]))
    if not form.is_valid():
        messages.error(
            request, _("Auto-play was not started: %(problem)s.") % {"problem": _form_problem(form)}
        )
        return redirect(back)
    data = form.cleaned_data
    try:
        check_queue()
        targets = _autoplay_targets(tournament, data)
        players = {
            side: data[f"profile_{side}"] for side in ("a", "b") if data.get(f"profile_{side}")
        }
        run = autoplay.create_autoplay(
            tournament=tournament,
            scope=data["scope"],
            players=players or None,
            user=request.user,
            **targets,
        )
    except (ValidationError, QueueUnreachable) as exc:
        messages.error(
            request, _("Auto-play was not started: %(problem)s") % {"problem": _errors(exc)}
        )
        return redirect(back)
    tasks.send_after_commit(
        tasks.run_autoplay, run.pk, on_unreachable=lambda error: runs.fail(run.pk, error)
    )
    return redirect("simulation:autoplay", tournament.slug, run.pk)


def _autoplay_targets(tournament: Tournament, data: dict[str, Any]) -> dict[str, Any]:
    targets: dict[str, Any] = {}
    if data.get("match"):
        match = Match.objects.filter(
            pk=data["match"], stage__category__tournament=tournament
        ).first()
        if match is None:
            raise autoplay.AutoPlayError(
                _("There is no match %(number)s at %(tournament)s.")
                % {"number": data["match"], "tournament": tournament}
            )
        targets["match"] = match
    if data.get("stage"):
        stage = Stage.objects.filter(pk=data["stage"], category__tournament=tournament).first()
        if stage is None:
            raise autoplay.AutoPlayError(
                _("There is no stage %(number)s at %(tournament)s.")
                % {"number": data["stage"], "tournament": tournament}
            )
        targets["stage"] = stage
    if data.get("category"):
        category = tournament.categories.filter(pk=data["category"]).first()
        if category is None:
            raise autoplay.AutoPlayError(
                _("There is no category %(number)s at %(tournament)s.")
                % {"number": data["category"], "tournament": tournament}
            )
        targets["category"] = category
    if data.get("round_of_play"):
        targets["round_of_play"] = data["round_of_play"]
    return targets


@require_GET
def autoplay_detail(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """A run's progress while it plays; once done, what it wrote and, in a real tournament,
    the finished stage it stopped at, left for the organizer to advance."""
    run = selectors.autoplay_for(slug, run_id)
    if run is None:
        return _missing(
            request, None, _("There is no auto-play run %(number)s here.") % {"number": run_id}
        )
    progress = _autoplay_progress(run, _can_manage(request, run.tournament))
    return render(
        request,
        f"{TEMPLATES}/autoplay.html",
        {
            "tournament": run.tournament,
            "run": run,
            "progress": progress,
            # In a real tournament play stops at a stage's end: the organizer goes on from there.
            "to_advance": selectors.stage_to_advance(run),
        },
    )


@require_GET
def autoplay_status(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    run = selectors.autoplay_for(slug, run_id)
    if run is None:
        return _missing(
            request, None, _("There is no auto-play run %(number)s here.") % {"number": run_id}
        )
    return progress_partial(request, _autoplay_progress(run, _can_manage(request, run.tournament)))


def _autoplay_progress(run: AutoPlay, can_manage: bool) -> Progress:
    slug = run.tournament.slug
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
    buttons = {"stop": reverse("simulation:autoplay_stop", args=[slug, run.pk])}
    if not hasattr(run, "dry_run"):  # a dry run's own run is retried through its dry run
        buttons["retry"] = reverse("simulation:autoplay_retry", args=[slug, run.pk])
    return _with_stall(progress, run.status, runs.stall_of(run), buttons, can_manage)


@require_POST
@manager_only
def autoplay_retry(request: HttpRequest, tournament: Tournament, run_id: int) -> HttpResponse:
    """Send a stalled or failed auto-play run's work to the workers again."""
    run = selectors.autoplay_for(tournament.slug, run_id)
    if run is None:
        return _missing(
            request,
            tournament,
            _("There is no auto-play run %(number)s here.") % {"number": run_id},
        )
    _retry(request, tasks.retry_run, run.pk, _("Auto-play"))
    return redirect("simulation:autoplay", tournament.slug, run.pk)


@require_POST
@manager_only
def autoplay_stop(request: HttpRequest, tournament: Tournament, run_id: int) -> HttpResponse:
    """Stop an auto-play run: it fails, saying who stopped it; what was played stays."""
    run = selectors.autoplay_for(tournament.slug, run_id)
    if run is None:
        return _missing(
            request,
            tournament,
            _("There is no auto-play run %(number)s here.") % {"number": run_id},
        )
    runs.stop(run.pk, request.user.get_username())
    messages.success(request, _("Auto-play was stopped."))
    return redirect("simulation:autoplay", tournament.slug, run.pk)


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
            "can_manage": _can_manage(request, tournament),
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
            "can_manage": _can_manage(request, tournament),
            "preview_form": PreviewForm(initial={"games": previews.DEFAULT_GAMES}),
            "profile_choices": PROFILE_CHOICES,
            "progress": (
                _preview_progress(page.preview, _can_manage(request, tournament))
                if page.preview
                else None
            ),
        },
    )


@require_POST
@manager_only
def preview_start(request: HttpRequest, tournament: Tournament, match_id: int) -> HttpResponse:
    """Queue a preview of the match and go back to its page, where it will show."""
    match = selectors.match_for(tournament.slug, match_id)
    if match is None:
        return _missing(
            request,
            tournament,
            _("There is no match %(number)s at this tournament.") % {"number": match_id},
        )
    form = PreviewForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("The preview was not started: %(problem)s.") % {"problem": _form_problem(form)},
        )
        return redirect("simulation:match", tournament.slug, match.id)
    data = form.cleaned_data
    players = {side: data[f"profile_{side}"] for side in ("a", "b") if data[f"profile_{side}"]}
    try:
        check_queue()
        preview = previews.create_preview(
            match=match, games=data["games"], players=players or None, user=request.user
        )
    except (ValidationError, QueueUnreachable) as exc:
        messages.error(
            request, _("The preview was not started: %(problem)s") % {"problem": _errors(exc)}
        )
        return redirect("simulation:match", tournament.slug, match.id)
    tasks.send_after_commit(
        tasks.run_preview, preview.pk, on_unreachable=lambda error: previews.fail(preview.pk, error)
    )
    return redirect("simulation:match", tournament.slug, match.id)


@require_GET
def preview_status(request: HttpRequest, slug: str, preview_id: int) -> HttpResponse:
    preview = selectors.preview_for(slug, preview_id)
    if preview is None:
        return _missing(
            request, None, _("There is no preview %(number)s here.") % {"number": preview_id}
        )
    tournament = preview.match.stage.category.tournament
    return progress_partial(request, _preview_progress(preview, _can_manage(request, tournament)))


def _preview_progress(preview: MatchPreview, can_manage: bool) -> Progress:
    failed = preview.status == Status.FAILED
    slug = preview.match.stage.category.tournament.slug
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
    stall = None
    if preview.status in _RUNNING and timezone.now() - preview.created_at >= runs.stall_after():
        stall = runs.Stall(
            preview.created_at,
            _("its games have not come back from the workers; stop it and start a new preview"),
        )
    buttons = {"stop": reverse("simulation:preview_stop", args=[slug, preview.pk])}
    return _with_stall(progress, preview.status, stall, buttons, can_manage)


def _percent(count: int, total: int) -> str:
    return _("%(percent)s%%") % {"percent": round(100 * count / total)}


@require_POST
@manager_only
def preview_stop(request: HttpRequest, tournament: Tournament, preview_id: int) -> HttpResponse:
    """Stop a preview that stalled: it fails, saying who stopped it."""
    preview = selectors.preview_for(tournament.slug, preview_id)
    if preview is None:
        return _missing(
            request, tournament, _("There is no preview %(number)s here.") % {"number": preview_id}
        )
    previews.fail(preview.pk, _("Stopped by %(user)s.") % {"user": request.user.get_username()})
    messages.success(request, _("The preview was stopped."))
    return redirect("simulation:match", tournament.slug, preview.match_id)


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
