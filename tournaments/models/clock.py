"""The round clock a tournament runs on the hall screen and on players' phones.

One per tournament: the WCC plays a round of play against one buzzer for the whole hall. The
clock stores when its current run started and how long it ran before; the seconds left are
always computed from those (``tournaments.formats.clock``), so every screen agrees with the
server whenever it asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy

from tournaments.formats.clock import clock_face, remaining_seconds


@dataclass(frozen=True)
class ClockReading:
    """The clock at one instant, as every page and the JSON view show it."""

    state: str  # "ready", "running", "paused" or "expired"
    label: str
    duration: int
    remaining: float
    version: int

    @property
    def face(self) -> str:
        return clock_face(self.remaining)

    @property
    def expired(self) -> bool:
        return self.state == RoundClock.EXPIRED


class RoundClock(models.Model):
    class State(models.TextChoices):
        READY = "ready", gettext_lazy("Ready to start")
        RUNNING = "running", gettext_lazy("Running")
        PAUSED = "paused", gettext_lazy("Paused")

    #: Not stored: a running clock with no time left.
    EXPIRED = "expired"

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="round_clock"
    )
    label = models.CharField(
        max_length=80,
        blank=True,
        help_text=gettext_lazy("What is being timed, e.g. “Round of play 3”."),
    )
    duration_s = models.PositiveIntegerField(help_text=gettext_lazy("The time limit, in seconds."))
    state = models.CharField(max_length=10, choices=State.choices, default=State.READY)
    #: When the current run began (running only).
    started_at = models.DateTimeField(null=True, blank=True)
    #: When the clock was last paused (paused only).
    paused_at = models.DateTimeField(null=True, blank=True)
    #: Seconds run before the current run (every run before the last pause).
    elapsed_before_s = models.FloatField(default=0.0)
    #: Goes up with every change, so a page can tell a new run from the one it already buzzed.
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(state="running") | models.Q(started_at__isnull=False),
                name="round_clock_running_has_start",
            ),
            models.CheckConstraint(
                condition=models.Q(elapsed_before_s__gte=0), name="round_clock_elapsed_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(label)s at %(tournament)s") % {
            "label": self.label or gettext("Round clock"),
            "tournament": self.tournament,
        }

    def read(self, now: datetime) -> ClockReading:
        running_since = self.started_at if self.state == self.State.RUNNING else None
        remaining = remaining_seconds(self.duration_s, self.elapsed_before_s, running_since, now)
        state = self.state
        if state == self.State.RUNNING and remaining <= 0:
            state = self.EXPIRED
        return ClockReading(
            state=state,
            label=self.label,
            duration=self.duration_s,
            remaining=remaining,
            version=self.version,
        )
