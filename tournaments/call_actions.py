"""The calls' steps, declared once (``tournaments.actions``): following an entry's calls on a
phone ("Notify me on this phone" and its undoing, on the private link's page;
``static/js/push.js`` posts the browser's push subscription to ``/t/<slug>/calls/<entry>/follow/``),
and calling a round's boards.

Following acts on the entry. Only the entry's own identity may: its private link held by this
browser, or the login of its player (either partner of a team), never anyone else, staff
included: a call says where the player must be and whose card waits for them, and a phone
subscribed by someone else would receive it.

Calling a round ("your match is on board 7" to everyone of the round's matches still to play)
acts on the stage, from its round's board list, and is for the officials who run the hall, as
the round clock is (WCC: the round is started for the whole hall at once). It is the official's
act rather than automatic on a draw or a knockout match filled by a result, because only the
hall knows when a board is free: a call sent while the board is still busy sends a player to
wait beside a game in progress, and the private link's "in about N minutes" covers the time
before.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from tournaments.actions import Action
from tournaments.models import Call, Entry, PushSubscription, Stage
from tournaments.permissions import FOLLOW_CALLS
from tournaments.services import calls
from tournaments.services import clock as clocks

__all__ = ["call_round", "follow_calls", "stop_calls"]

WHO = gettext_lazy(
    "Only the entry's own players receive its calls: open your private link on this phone (or "
    "log in with the account linked to your entry) and ask there."
)


def _follow(
    user: AbstractBaseUser,
    entry: Entry,
    *,
    endpoint: str,
    p256dh: str,
    auth: str,
    language: str = "",
    user_agent: str = "",
) -> PushSubscription:
    return calls.subscribe(
        entry=entry,
        endpoint=endpoint,
        p256dh=p256dh,
        auth=auth,
        language=language,
        user_agent=user_agent,
    )


def _stop(user: AbstractBaseUser, entry: Entry, *, endpoint: str) -> int:
    return calls.unsubscribe(entry=entry, endpoint=endpoint)


follow_calls = Action(
    name="tournaments.follow_calls",
    permission=FOLLOW_CALLS,
    who=WHO,
    fields=("endpoint", "p256dh", "auth", "language", "user_agent"),
    run=_follow,
)

stop_calls = Action(
    name="tournaments.stop_calls",
    permission=FOLLOW_CALLS,
    who=WHO,
    fields=("endpoint",),
    run=_stop,
)


def _call_round(user: AbstractBaseUser, stage: Stage, *, round_of_play: int) -> list[Call]:
    return calls.call_round(stage=stage, round_of_play=round_of_play)


call_round = Action(
    name="tournaments.call_round",
    permission=clocks.RUN_CLOCK,
    who=gettext_lazy(
        "Only the officials who run the hall (organizers, referees, the scoring table) call a "
        "round's boards."
    ),
    when=(calls.has_boards,),
    fields=("round_of_play",),
    run=_call_round,
)
