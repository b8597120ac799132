"""What a page needs to show the round clock: one reading of it, the words for its state, the
stream that tells it every change (``tournaments.views.clock_events``) and how often to ask again
where that stream fails. Shared by the clock's own pages and the ``round_clock`` template tag
that the hall screen and the card pages include."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy

from tournaments.formats.clock import TIME_UP_NOTICE
from tournaments.models import RoundClock, Tournament

# The polls below are the fallback only: a page whose event stream is open skips them
# (static/js/clock.js), so they cost nothing where push works, and where it fails (an old browser,
# a proxy that buffers, a process with its fill of streams) a start still shows within seconds.
#: Seconds between two polls while the clock counts (the browser counts down in between).
POLL_RUNNING_S = 5
#: Seconds between two polls while nothing moves (ready or paused, or time is up).
POLL_IDLE_S = 5

STATE_WORDS = {
    RoundClock.State.READY: pgettext_lazy("round clock", "ready to start"),
    RoundClock.State.RUNNING: pgettext_lazy("round clock", "running"),
    RoundClock.State.PAUSED: pgettext_lazy("round clock", "paused"),
    RoundClock.EXPIRED: pgettext_lazy("round clock", "time is up"),
}


def started_ms(clock: RoundClock) -> int:
    """When the clock's current run began (milliseconds since the epoch), 0 unless it runs: a
    page gives the start signal only for a run that has just begun, not for one it finds
    running."""
    if clock.state != RoundClock.State.RUNNING or clock.started_at is None:
        return 0
    return int(clock.started_at.timestamp() * 1000)


def clock_context(
    tournament: Tournament, clock: RoundClock | None, now: datetime
) -> dict[str, Any]:
    """The template context of ``tournaments/clock/_clock.html``; no clock shows nothing."""
    pushed = {
        "clock_slug": tournament.slug,
        "events_url": reverse("tournaments:clock-events", args=[tournament.slug]),
        # The server's time of this reading, from which the page counts on the server's clock.
        "server_ms": int(now.timestamp() * 1000),
        "poll_s": POLL_IDLE_S,
    }
    if clock is None:
        return {**pushed, "reading": None}
    reading = clock.read(now)
    return {
        **pushed,
        "reading": reading,
        "remaining_ms": int(reading.remaining * 1000),
        "started_ms": started_ms(clock),
        "state_words": STATE_WORDS[reading.state],
        "time_up_notice": gettext(TIME_UP_NOTICE),
        "poll_s": POLL_RUNNING_S if reading.state == RoundClock.State.RUNNING else POLL_IDLE_S,
        "read_at": now,
    }
