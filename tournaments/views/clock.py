"""The round clock's pages: the staff's controls, the JSON every phone may ask, the partial the
hall screen and the card pages poll.

The seconds left are always the server's (``RoundClock.read``): a page counts down in the
browser from what it was told and asks again every few seconds, so every screen in the hall
shows the same time. Reading the clock is public, like the schedule on the wall; running it
needs ``tournaments.run_clock``. Each button is a step of ``tournaments.clock_actions``: the page
asks it whether the button applies now and, if not, shows it disabled with the step's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from tournaments.actions import Refused, refusals
from tournaments.clock_actions import CLOCK_BUTTONS, set_clock
from tournaments.formats.clock import (
    NCA_EQUALISE_RULE,
    TIME_UP_NOTICE,
    WCC_NO_DISC_RULE,
    WCC_TIMING_RULE,
)
from tournaments.models import RoundClock, Tournament
from tournaments.services import clock as clocks
from tournaments.views.access import tournament_page
from tournaments.views.clock_display import clock_context

TEMPLATES = "tournaments/clock"

staff_page = tournament_page(clocks.RUN_CLOCK, clocks.REFUSAL)


class ClockForm(forms.Form):
    label = forms.CharField(
        max_length=80,
        required=False,
        label=gettext_lazy("Label"),
        help_text=gettext_lazy("e.g. “Round of play 3”"),
    )
    minutes = forms.IntegerField(
        min_value=0, max_value=clocks.MAX_DURATION_S // 60, label=gettext_lazy("Minutes")
    )
    seconds = forms.IntegerField(
        min_value=0, max_value=59, initial=0, required=False, label=gettext_lazy("Seconds")
    )

    def clean(self):
        data = super().clean()
        total = (data.get("minutes") or 0) * 60 + (data.get("seconds") or 0)
        if "minutes" in data and total == 0:
            raise ValidationError(gettext("A time limit needs at least one second."))
        data["duration_s"] = total
        return data


def _form_for(tournament: Tournament, clock: RoundClock | None) -> ClockForm:
    duration = clock.duration_s if clock else tournament.game_minutes * 60
    return ClockForm(
        initial={
            "label": clock.label if clock else "",
            "minutes": duration // 60,
            "seconds": duration % 60,
        }
    )


def _control(
    request: HttpRequest, tournament: Tournament, form: ClockForm | None = None, status: int = 200
) -> HttpResponse:
    clock = clocks.clock_of(tournament)
    now = timezone.now()
    context = {
        "tournament": tournament,
        "form": form or _form_for(tournament, clock),
        "buttons": _buttons(request, tournament, clock, now),
        "time_up_notice": gettext(TIME_UP_NOTICE),
        # The rules as quoted (``tournaments.formats.clock``), in the page's language once a
        # translation of them is in the catalogue.
        "rules": {
            "wcc": gettext(WCC_TIMING_RULE),
            "no_disc": gettext(WCC_NO_DISC_RULE),
            "nca": gettext(NCA_EQUALISE_RULE),
        },
        **clock_context(tournament, clock, now),
    }
    return render(request, f"{TEMPLATES}/control.html", context, status=status)


@dataclass(frozen=True)
class Button:
    """One of the clock's buttons on its page: offered, or disabled with its step's words."""

    action: str
    label: str
    refused: Refused | None


def _buttons(
    request: HttpRequest, tournament: Tournament, clock: RoundClock | None, now: datetime
) -> list[Button]:
    expired = clock is not None and clock.read(now).expired
    labels = {
        "start": gettext("Start again from full time") if expired else gettext("Start"),
        "pause": gettext("Pause"),
        "resume": gettext("Resume"),
        "reset": gettext("Reset"),
    }
    refused = refusals(request.user, tournament, CLOCK_BUTTONS.values())
    return [
        Button(action, labels[action], refused[step.name.rsplit(".", 1)[-1]])
        for action, step in CLOCK_BUTTONS.items()
    ]


@require_GET
@staff_page
def control(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Start, pause, resume and reset the clock, and set its time limit and label."""
    return _control(request, tournament)


@require_POST
@staff_page
def act(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse:
    """Press one of the clock's buttons; a press that does not apply says why."""
    step = CLOCK_BUTTONS.get(action)
    if step is None:
        messages.error(
            request, gettext("The clock has no “%(action)s” button.") % {"action": action}
        )
        return redirect("tournaments:clock", tournament.slug)
    try:
        step(request.user, tournament)
    except Refused as exc:
        messages.error(request, exc.text)
    return redirect("tournaments:clock", tournament.slug)


@require_POST
@staff_page
def set_up(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Set the time limit (minutes and seconds) and what is being timed."""
    form = ClockForm(request.POST)
    if form.is_valid():
        try:
            set_clock(
                request.user,
                tournament,
                duration_s=form.cleaned_data["duration_s"],
                label=form.cleaned_data["label"],
            )
        except Refused as exc:
            form.add_error(None, exc.text)
        else:
            messages.success(request, gettext("Clock set."))
            return redirect("tournaments:clock", tournament.slug)
    return _control(request, tournament, form, status=400)


@never_cache
@require_GET
def state_json(request: HttpRequest, slug: str) -> JsonResponse:
    """The clock as JSON: ``state`` is ``off`` (no clock), ``ready``, ``running``, ``paused`` or
    ``expired``; ``remaining`` is the server's count of seconds left."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        return JsonResponse(
            {"detail": gettext("There is no tournament “%(slug)s”.") % {"slug": slug}}, status=404
        )
    now = timezone.now()
    clock = clocks.clock_of(tournament)
    if clock is None:
        return JsonResponse({"state": "off", "server_time": now.isoformat()})
    reading = clock.read(now)
    return JsonResponse(
        {
            "state": reading.state,
            "label": reading.label,
            "duration": reading.duration,
            "remaining": round(reading.remaining, 1),
            "face": reading.face,
            "version": reading.version,
            "notice": gettext(TIME_UP_NOTICE) if reading.expired else "",
            "server_time": now.isoformat(),
        }
    )


@never_cache
@require_GET
def partial(request: HttpRequest, slug: str) -> HttpResponse:
    """The clock's block alone, for htmx to swap in every few seconds."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        return HttpResponse(status=204)  # a poll of a deleted tournament: leave the page be
    context = clock_context(tournament, clocks.clock_of(tournament), timezone.now())
    return render(request, f"{TEMPLATES}/_clock.html", context)
