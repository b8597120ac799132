"""The round clock's buttons, each declared once (``tournaments.actions``): start, pause,
resume and reset the clock, and set its time limit and label.

The clock page asks each button's step whether it applies now and, if not, why (the button is
shown disabled with the words); its posts and the API's ``/api/tournaments/<slug>/clock/...``
take the same steps. Each acts on the tournament (one clock a tournament). The preconditions
live with the services (``tournaments.services.clock``), which ask them again on the clock's
locked row, so that two referees pressing at once get the second press refused in words.

Who may: ``tournaments.run_clock``, the officials who run the hall during play (WCC: "A buzzer
will be used to begin and end play."); players and visitors only watch the clock.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from tournaments.actions import Action
from tournaments.models import RoundClock, Tournament
from tournaments.services import clock as clocks

__all__ = [
    "CLOCK_BUTTONS",
    "pause_clock",
    "reset_clock",
    "resume_clock",
    "set_clock",
    "start_clock",
]


def _now(refusal: Callable) -> Callable[[Tournament], str | None]:
    """A clock precondition asked of the tournament's clock as it stands now."""

    def precondition(tournament: Tournament) -> str | None:
        return refusal(clocks.clock_of(tournament), timezone.now())

    precondition.__doc__ = refusal.__doc__
    return precondition


def _press(service: Callable[..., RoundClock]) -> Callable[..., RoundClock]:
    def run(user: AbstractBaseUser, tournament: Tournament) -> RoundClock:
        return service(tournament=tournament, user=user, now=timezone.now())

    return run


def _set(
    user: AbstractBaseUser, tournament: Tournament, *, duration_s: int, label: str = ""
) -> RoundClock:
    return clocks.set_up(
        tournament=tournament, user=user, duration_s=duration_s, label=label, now=timezone.now()
    )


start_clock = Action(
    name="tournaments.start_clock",
    permission=clocks.RUN_CLOCK,
    who=clocks.REFUSAL,
    when=(_now(clocks.start_refusal),),
    run=_press(clocks.start),
)

pause_clock = Action(
    name="tournaments.pause_clock",
    permission=clocks.RUN_CLOCK,
    who=clocks.REFUSAL,
    when=(_now(clocks.pause_refusal),),
    run=_press(clocks.pause),
)

resume_clock = Action(
    name="tournaments.resume_clock",
    permission=clocks.RUN_CLOCK,
    who=clocks.REFUSAL,
    when=(_now(clocks.resume_refusal),),
    run=_press(clocks.resume),
)

reset_clock = Action(
    name="tournaments.reset_clock",
    permission=clocks.RUN_CLOCK,
    who=clocks.REFUSAL,
    when=(_now(clocks.reset_refusal),),
    run=_press(clocks.reset),
)

set_clock = Action(
    name="tournaments.set_clock",
    permission=clocks.RUN_CLOCK,
    who=clocks.REFUSAL,
    fields=("duration_s", "label"),
    run=_set,
    # The page's form takes minutes and seconds and adds them up: not these fields.
    serializer="tournaments.api.clock.ClockSetUpSerializer",
)

#: The clock's buttons by their name in the page's and the API's addresses, in the page's order.
CLOCK_BUTTONS: dict[str, Action] = {
    "start": start_clock,
    "pause": pause_clock,
    "resume": resume_clock,
    "reset": reset_clock,
}
