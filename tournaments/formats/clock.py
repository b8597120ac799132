"""The round clock's arithmetic and the words said when it runs out, free of Django.

WCC: "Strict timing for the games must be observed. A buzzer will be used to begin and end play.
If some discs have not been shot when the ending buzzer sounds they will remain non played.
However, if a player or team has had one less shot, they will be allowed to take one last shot
immediately after the buzzer to even out number of shots taken. The round will be scored by the
discs on the board at that time." And: "For any round where no discs are shot before time
expires, both teams will record a zero for that round." NCA rule 8b: "If time runs out in a timed
match, one additional shot will be allowed, if necessary, to equalize the number of shots."

The server is the one clock: every screen and phone is told the seconds left as the server
computes them from when the clock was started, so they all agree however late they loaded.
"""

from __future__ import annotations

from datetime import datetime

from tournaments.translation import _, gettext_noop

#: What the hall screen and every card page say when the buzzer goes (``equalising_shot`` in
#: ``timing`` answers who takes the last shot).
TIME_UP_NOTICE = gettext_noop(
    "Time! Stop play: discs not yet shot stay unplayed. If a player or team has had one shot "
    "fewer, they take one last shot now to even out the shots (the equalising shot). Score the "
    "round in progress by the discs on the board; any round in which no disc was shot before "
    "time expired is recorded 0–0."  # noqa: RUF001 (a literal dash: xgettext reads no escapes)
)

#: The rule as written, quoted on the clock pages (translated there: ``gettext(WCC_TIMING_RULE)``).
WCC_TIMING_RULE = gettext_noop(
    "Strict timing for the games must be observed. A buzzer will be used to begin and end play. "
    "If some discs have not been shot when the ending buzzer sounds they will remain non played. "
    "However, if a player or team has had one less shot, they will be allowed to take one last "
    "shot immediately after the buzzer to even out number of shots taken. The round will be "
    "scored by the discs on the board at that time."
)
WCC_NO_DISC_RULE = gettext_noop(
    "For any round where no discs are shot before time expires, both teams will record a zero "
    "for that round."
)
NCA_EQUALISE_RULE = gettext_noop(
    "If time runs out in a timed match, one additional shot will be allowed, if necessary, to "
    "equalize the number of shots."
)


def elapsed_seconds(elapsed_before: float, running_since: datetime | None, now: datetime) -> float:
    """Seconds the clock has run: what it ran before its last pause, plus the current run.

    A ``now`` before ``running_since`` (two servers' clocks a little apart) counts as no time.
    """
    if elapsed_before < 0:
        raise ValueError(_("a clock cannot have run for a negative time"))
    if running_since is None:
        return elapsed_before
    return elapsed_before + max(0.0, (now - running_since).total_seconds())


def remaining_seconds(
    duration: float, elapsed_before: float, running_since: datetime | None, now: datetime
) -> float:
    """Seconds left on a clock of ``duration`` seconds; never below zero."""
    if duration < 0:
        raise ValueError(_("a clock's duration cannot be negative"))
    return max(0.0, duration - elapsed_seconds(elapsed_before, running_since, now))


def clock_face(seconds: float) -> str:
    """``mm:ss`` (or ``h:mm:ss``) for the seconds left, rounded up: 0:00 only when time is up."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
