"""Pages of the planning dry run: the form, a run's progress and its result (organizers only).

Thin: the options are checked by ``simulation.planning.services`` (through the step
``planning.start_plan``), the result is read by ``simulation.planning.selectors``. A bad option
comes back on the form with the reason, naming the field; nothing is written then.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from simulation.models import PlanningRun, Status
from simulation.planning import selectors, services
from simulation.planning.actions import WHO, start_plan
from tournaments.actions import Refused
from tournaments.models import Tournament
from tournaments.permissions import MANAGE_TOURNAMENT
from tournaments.views.access import missing, tournament_page
from tournaments.views.progress import Progress, progress_partial

TEMPLATES = "simulation/planning"
POLL_S = 1


def _checkboxes(values: list[int], offered: tuple[int, ...]) -> list[tuple[str, str]]:
    return [(str(v), str(v)) for v in sorted({*values, *offered})]


class PlanForm(forms.Form):
    """What the organizer asks: the field, the boards, the day and the formats to compare."""

    category = forms.ChoiceField(label=gettext_lazy("Category"), required=False)
    entries = forms.IntegerField(
        label=gettext_lazy("Entries"),
        required=False,
        min_value=2,
        max_value=services.MAX_ENTRIES,
        help_text=gettext_lazy(
            "The registered entries, or how many you expect when registration is still open."
        ),
    )
    boards = forms.IntegerField(
        label=gettext_lazy("Boards"), required=False, min_value=1, max_value=services.MAX_BOARDS
    )
    day_start = forms.CharField(
        label=gettext_lazy("Start of the day"),
        max_length=5,
        widget=forms.TextInput(attrs={"type": "time"}),
    )
    day_end = forms.CharField(
        label=gettext_lazy("Latest acceptable end"),
        max_length=5,
        widget=forms.TextInput(attrs={"type": "time"}),
    )
    game_minutes = forms.IntegerField(
        label=gettext_lazy("Game time limit (minutes)"),
        help_text=gettext_lazy("Empty: untimed games, played to the end."),
        min_value=1,
        max_value=180,
        required=False,
    )
    break_minutes = forms.IntegerField(
        label=gettext_lazy("Break after each round (minutes)"), min_value=0, max_value=120
    )
    prelim_games = forms.MultipleChoiceField(
        label=gettext_lazy("Preliminary games"), widget=forms.CheckboxSelectMultiple
    )
    playoffs = forms.MultipleChoiceField(
        label=gettext_lazy("Entries to the playoffs (0: none)"),
        widget=forms.CheckboxSelectMultiple,
    )
    best_of = forms.MultipleChoiceField(
        label=gettext_lazy("Playoff matches: best of"), widget=forms.CheckboxSelectMultiple
    )
    repetitions = forms.IntegerField(
        label=gettext_lazy("Days simulated"), min_value=20, max_value=2000
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        start = services.defaults(tournament)
        kwargs.setdefault("initial", {**start, "category": start["category"] or ""})
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [
            (str(c.pk), c.name) for c in tournament.categories.order_by("name")
        ] or [("", _("no category yet"))]
        self.fields["prelim_games"].choices = _checkboxes(start["prelim_games"], (0, 6, 12))
        self.fields["playoffs"].choices = _checkboxes(start["playoffs"], (0, 8, 32))
        self.fields["best_of"].choices = _checkboxes(start["best_of"], (1, 7))
        for name in ("prelim_games", "playoffs", "best_of"):
            self.fields[name].initial = [str(v) for v in start[name]]


@require_http_methods(["GET", "POST"])
@tournament_page(MANAGE_TOURNAMENT, WHO)
def plan(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The planning form and the latest runs; a post starts a run and shows its page."""
    form = PlanForm(request.POST or None, tournament=tournament)
    problem = ""
    status = 200
    if request.method == "POST":
        if form.is_valid():
            inputs = {name: form.cleaned_data.get(name) for name in start_plan.fields}
            try:
                run = start_plan(request.user, tournament, **inputs)
            except Refused as exc:
                if exc.field in form.fields:
                    form.add_error(exc.field, exc.text)
                problem = exc.text
                status = 400 if exc.status == 400 else exc.status
            else:
                return redirect("planning:run", tournament.slug, run.pk)
        else:
            problem = _("Check the fields marked below.")
            status = 400
        if problem:
            messages.error(
                request, _("The plan was not started: %(problem)s") % {"problem": problem}
            )
    return render(
        request,
        f"{TEMPLATES}/plan.html",
        {"tournament": tournament, "form": form, "runs": selectors.runs_of(tournament)},
        status=status,
    )


def _progress(tournament: Tournament, run: PlanningRun) -> Progress:
    return Progress(
        element_id="plan-progress",
        status_url=reverse("planning:run_status", args=[tournament.slug, run.pk]),
        running=run.status in (Status.QUEUED, Status.RUNNING),
        state=run.get_status_display(),
        detail=run.phase,
        percent=run.percent,
        error=run.error,
        poll_s=POLL_S,
        reload_when_finished=True,
    )


@require_GET
@tournament_page(MANAGE_TOURNAMENT, WHO)
def run_page(request: HttpRequest, tournament: Tournament, run_id: int) -> HttpResponse:
    """A run's progress, then its result: per format and stage the finish-time distribution,
    the rounds the clock cuts, the chance of an overrun, and the formats side by side."""
    run = selectors.run_of(tournament, run_id)
    if run is None:
        return missing(
            request, _("There is no planning run %(number)s here.") % {"number": run_id}, tournament
        )
    return render(
        request,
        f"{TEMPLATES}/run.html",
        {
            "tournament": tournament,
            "run": run,
            "progress": _progress(tournament, run),
            "result": selectors.shown(run) if run.status == Status.DONE else None,
        },
    )


@require_GET
@tournament_page(MANAGE_TOURNAMENT, WHO)
def run_status(request: HttpRequest, tournament: Tournament, run_id: int) -> HttpResponse:
    run = selectors.run_of(tournament, run_id)
    if run is None:
        return missing(
            request, _("There is no planning run %(number)s here.") % {"number": run_id}, tournament
        )
    return progress_partial(request, _progress(tournament, run))
