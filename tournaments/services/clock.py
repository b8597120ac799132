"""Running the round clock: start, pause, resume, reset, and setting its time limit.

Every write takes ``now`` (the steps pass ``timezone.now()``; tests pass a fixed instant), so
the arithmetic is exact and testable without waiting. Each change locks the clock's row, so two
referees pressing at once apply one after the other, never half of each: the second press is
refused in words (``Refused``, a conflict), never applied twice. Who may press is
``tournaments.run_clock``; the services refuse a user without it, on every path.

Each button's precondition is one function here (``start_refusal``, ``pause_refusal``, ...),
asked by the step that the pages and the API take (``tournaments.clock_actions``) to show or
explain the button, and again by the service on the locked row.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.actions import Forbidden, Kind, Refused
from tournaments.formats.clock import elapsed_seconds
from tournaments.models import RoundClock, Tournament

RUN_CLOCK = "tournaments.run_clock"
REFUSAL = gettext_lazy(
    "Only the tournament's organizers, referees and scoring table run the round clock."
)

#: The longest limit the clock accepts (a whole day would be a typing mistake).
MAX_DURATION_S = 6 * 3600


def clock_of(tournament: Tournament) -> RoundClock | None:
    """The tournament's clock, or None if nobody has set one up."""
    return RoundClock.objects.filter(tournament=tournament).first()


def _check(user, tournament: Tournament) -> None:
    if user is None or not user.has_perm(RUN_CLOCK, tournament):
        raise Forbidden(str(REFUSAL))


# The buttons' preconditions: the words of the refusal, or None when the button applies. Each
# reads the clock as it stands (None: nobody has set one up yet) at ``now``.


def _state_words(clock: RoundClock | None) -> str:
    """The clock's state in words; no clock yet is one ready to start (the first press makes
    it)."""
    if clock is None:
        return str(RoundClock.State.READY.label).lower()
    return str(clock.get_state_display()).lower()


def start_refusal(clock: RoundClock | None, now: datetime) -> str | None:
    """Start from full time: a clock that is ready, or whose time is up; never a running or
    paused one, which two presses at once would otherwise restart."""
    if clock is None or clock.state == RoundClock.State.READY or clock.read(now).expired:
        return None
    if clock.state == RoundClock.State.RUNNING:
        return _("The clock is already running: pause or reset it first.")
    return _("The clock is paused: resume it, or reset it to start again from full time.")


def pause_refusal(clock: RoundClock | None, now: datetime) -> str | None:
    if clock is None or clock.state != RoundClock.State.RUNNING:
        return _("The clock is %(state)s, not running.") % {"state": _state_words(clock)}
    if clock.read(now).expired:
        return _("Time is already up: reset the clock or start it again.")
    return None


def resume_refusal(clock: RoundClock | None, now: datetime) -> str | None:
    if clock is None or clock.state != RoundClock.State.PAUSED:
        return _("The clock is %(state)s, not paused.") % {"state": _state_words(clock)}
    return None


def reset_refusal(clock: RoundClock | None, now: datetime) -> str | None:
    if clock is None or clock.state == RoundClock.State.READY:
        return _("The clock is already at its full time, ready to start.")
    return None


def _refuse_unless(refusal: str | None) -> None:
    """The service's own check of a precondition, on the locked row."""
    if refusal is not None:
        raise Refused(refusal, kind=Kind.CONFLICT)


def _locked(tournament: Tournament) -> RoundClock:
    """The clock's row, locked for this transaction; made with the tournament's game time limit
    the first time anyone touches it."""
    RoundClock.objects.get_or_create(
        tournament=tournament, defaults={"duration_s": tournament.game_minutes * 60}
    )
    return RoundClock.objects.select_for_update().get(tournament=tournament)


def _save(clock: RoundClock, user) -> RoundClock:
    clock.version += 1
    clock.updated_by = user
    clock.save()
    return clock


@transaction.atomic
def start(*, tournament: Tournament, user, now: datetime) -> RoundClock:
    """Start the clock from its full time: from ready, or again once time is up (a new round of
    play starts a new count)."""
    _check(user, tournament)
    clock = _locked(tournament)
    _refuse_unless(start_refusal(clock, now))
    clock.state = RoundClock.State.RUNNING
    clock.started_at = now
    clock.paused_at = None
    clock.elapsed_before_s = 0.0
    return _save(clock, user)


@transaction.atomic
def pause(*, tournament: Tournament, user, now: datetime) -> RoundClock:
    """Stop the count, keeping the time already run (a referee's stoppage)."""
    _check(user, tournament)
    clock = _locked(tournament)
    _refuse_unless(pause_refusal(clock, now))
    clock.elapsed_before_s = min(
        float(clock.duration_s), elapsed_seconds(clock.elapsed_before_s, clock.started_at, now)
    )
    clock.state = RoundClock.State.PAUSED
    clock.started_at = None
    clock.paused_at = now
    return _save(clock, user)


@transaction.atomic
def resume(*, tournament: Tournament, user, now: datetime) -> RoundClock:
    """Go on counting from where the pause stopped it."""
    _check(user, tournament)
    clock = _locked(tournament)
    _refuse_unless(resume_refusal(clock, now))
    clock.state = RoundClock.State.RUNNING
    clock.started_at = now
    clock.paused_at = None
    return _save(clock, user)


@transaction.atomic
def reset(*, tournament: Tournament, user, now: datetime) -> RoundClock:
    """Back to the full time, not running, ready for the next round of play."""
    _check(user, tournament)
    clock = _locked(tournament)
    _refuse_unless(reset_refusal(clock, now))
    clock.state = RoundClock.State.READY
    clock.started_at = None
    clock.paused_at = None
    clock.elapsed_before_s = 0.0
    return _save(clock, user)


@transaction.atomic
def set_up(
    *, tournament: Tournament, user, duration_s: int, label: str = "", now: datetime
) -> RoundClock:
    """Set the time limit and the label. A running or paused clock keeps the time it has run,
    so lengthening the limit mid-round adds time and shortening it can end the round."""
    _check(user, tournament)
    if not 0 < duration_s <= MAX_DURATION_S:
        raise Refused(
            _("A time limit is between 1 second and %(hours)s hours.")
            % {"hours": MAX_DURATION_S // 3600},
            field="duration_s",
        )
    label = label.strip()
    if len(label) > RoundClock._meta.get_field("label").max_length:
        raise Refused(_("A label is at most 80 characters."), field="label")
    clock = _locked(tournament)
    clock.duration_s = duration_s
    clock.label = label
    if clock.state == RoundClock.State.PAUSED:
        clock.elapsed_before_s = min(clock.elapsed_before_s, float(duration_s))
    return _save(clock, user)
