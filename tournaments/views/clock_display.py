"""What a page needs to show the round clock: one reading of it, the words for its state, and
how often to ask again. Shared by the clock's own pages and the ``round_clock`` template tag
that the hall screen and the card pages include."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from tournaments.formats.clock import TIME_UP_NOTICE
from tournaments.models import RoundClock, Tournament

#: Seconds between two polls while the clock counts (the browser counts down in between).
POLL_RUNNING_S = 10
#: Seconds between two polls while nothing moves (ready or paused, or time is up).
POLL_IDLE_S = 20

STATE_WORDS = {
    RoundClock.State.READY: pgettext_lazy("round clock", "ready to start"),
    RoundClock.State.RUNNING: pgettext_lazy("round clock", "running"),
    RoundClock.State.PAUSED: pgettext_lazy("round clock", "paused"),
    RoundClock.EXPIRED: pgettext_lazy("round clock", "time is up"),
}


def clock_context(
    tournament: Tournament, clock: RoundClock | None, now: datetime
) -> dict[str, Any]:
    """The template context of ``tournaments/clock/_clock.html``; no clock shows nothing."""
    if clock is None:
        return {"clock_slug": tournament.slug, "reading": None}
    reading = clock.read(now)
    return {
        "clock_slug": tournament.slug,
        "reading": reading,
        "remaining_ms": int(reading.remaining * 1000),
        "state_words": STATE_WORDS[reading.state],
        "time_up_notice": gettext(TIME_UP_NOTICE),
        "poll_s": POLL_RUNNING_S if reading.state == RoundClock.State.RUNNING else POLL_IDLE_S,
        "read_at": now,
    }
