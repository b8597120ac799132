"""The round clock through the API: its state for anyone (as ``/t/<slug>/clock/state.json``),
and its buttons (start, pause, resume, reset) and time limit for the officials who run the hall.

The same steps as the clock page (``tournaments.clock_actions``), which refuse in the page's
words: a player or a visitor signed in gets a 403 saying who may; a button that does not apply
now (pausing a clock that is not running) a 409 saying why; a time limit out of range a 400.
The seconds left are always the server's.
"""

from __future__ import annotations

from datetime import datetime

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.actions import refused
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.clock_actions import CLOCK_BUTTONS, set_clock
from tournaments.formats.clock import TIME_UP_NOTICE
from tournaments.models import Tournament
from tournaments.services import clock as clocks


class ClockStateSerializer(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=["off", "ready", "running", "paused", "expired"],
        help_text=gettext_lazy("``off`` while nobody has set the clock up."),
    )
    label = serializers.CharField(required=False, help_text=gettext_lazy("What is being timed."))
    duration = serializers.IntegerField(
        required=False, help_text=gettext_lazy("The time limit in seconds.")
    )
    remaining = serializers.FloatField(
        required=False, help_text=gettext_lazy("Seconds left (the server's).")
    )
    face = serializers.CharField(
        required=False, help_text=gettext_lazy("The time left as the screens show it.")
    )
    version = serializers.IntegerField(
        required=False, help_text=gettext_lazy("Grows with every change.")
    )
    notice = serializers.CharField(
        required=False, help_text=gettext_lazy("What to do once time is up.")
    )
    server_time = serializers.DateTimeField()


class ClockSetUpSerializer(serializers.Serializer):
    duration_s = serializers.IntegerField(
        min_value=1,
        max_value=clocks.MAX_DURATION_S,
        help_text=gettext_lazy("The time limit in seconds."),
    )
    label = serializers.CharField(
        max_length=80,
        required=False,
        allow_blank=True,
        help_text=gettext_lazy("e.g. “Round of play 3”."),
    )


def clock_state(tournament: Tournament, now: datetime) -> dict:
    """The clock as the state JSON of the clock pages gives it."""
    clock = clocks.clock_of(tournament)
    if clock is None:
        return {"state": "off", "server_time": now}
    reading = clock.read(now)
    return {
        "state": reading.state,
        "label": reading.label,
        "duration": reading.duration,
        "remaining": round(reading.remaining, 1),
        "face": reading.face,
        "version": reading.version,
        "notice": gettext(TIME_UP_NOTICE) if reading.expired else "",
        "server_time": now,
    }


class _ClockView(ServiceErrorsMixin, APIView):
    def tournament(self, slug: str) -> Tournament:
        return get_object_or_404(Tournament, slug=slug)

    def answer(self, tournament: Tournament) -> Response:
        state = clock_state(tournament, timezone.now())
        return Response(ClockStateSerializer(state).data, headers={"Cache-Control": "no-store"})


class ClockView(_ClockView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        summary=gettext_lazy("The round clock"),
        description=gettext_lazy(
            "Public, like the clock on the hall screen: poll it every few seconds."
        ),
        responses={200: ClockStateSerializer, **refused(404)},
    )
    def get(self, request: Request, slug: str) -> Response:
        return self.answer(self.tournament(slug))

    @extend_schema(
        summary=gettext_lazy("Set the clock's time limit and label"),
        description=gettext_lazy(
            "A running or paused clock keeps the time it has run. Officials only."
        ),
        request=ClockSetUpSerializer,
        responses={200: ClockStateSerializer, **refused(400, 401, 403, 404)},
    )
    def patch(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        body = ClockSetUpSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        set_clock(
            request.user,
            tournament,
            duration_s=body.validated_data["duration_s"],
            label=body.validated_data.get("label", ""),
        )
        return self.answer(tournament)


class ClockButtonView(_ClockView):
    """One of the clock's buttons (``button``), pressed through the same step as the page."""

    permission_classes = [IsAuthenticated]
    button = ""

    def press(self, request: Request, slug: str) -> Response:
        tournament = self.tournament(slug)
        CLOCK_BUTTONS[self.button](request.user, tournament)
        return self.answer(tournament)


BUTTON_ANSWERS = {200: ClockStateSerializer, **refused(401, 403, 404, 409)}


class ClockStartView(ClockButtonView):
    button = "start"

    @extend_schema(
        summary=gettext_lazy("Start the clock"),
        description=gettext_lazy("From its full time (a new round of play starts a new count)."),
        request=None,
        responses=BUTTON_ANSWERS,
    )
    def post(self, request: Request, slug: str) -> Response:
        return self.press(request, slug)


class ClockPauseView(ClockButtonView):
    button = "pause"

    @extend_schema(
        summary=gettext_lazy("Pause the clock"),
        description=gettext_lazy(
            "Stop the count, keeping the time run; refused unless it is running."
        ),
        request=None,
        responses=BUTTON_ANSWERS,
    )
    def post(self, request: Request, slug: str) -> Response:
        return self.press(request, slug)


class ClockResumeView(ClockButtonView):
    button = "resume"

    @extend_schema(
        summary=gettext_lazy("Resume the clock"),
        description=gettext_lazy(
            "Go on counting from where the pause stopped it; refused unless paused."
        ),
        request=None,
        responses=BUTTON_ANSWERS,
    )
    def post(self, request: Request, slug: str) -> Response:
        return self.press(request, slug)


class ClockResetView(ClockButtonView):
    button = "reset"

    @extend_schema(
        summary=gettext_lazy("Reset the clock"),
        description=gettext_lazy(
            "Back to the full time, not running, ready for the next round of play."
        ),
        request=None,
        responses=BUTTON_ANSWERS,
    )
    def post(self, request: Request, slug: str) -> Response:
        return self.press(request, slug)


#: The view of each button, by its name in the URL.
BUTTON_VIEWS = {
    "start": ClockStartView,
    "pause": ClockPauseView,
    "resume": ClockResumeView,
    "reset": ClockResetView,
}
