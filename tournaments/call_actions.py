"""Following an entry's calls on a phone, declared once (``tournaments.actions``): "Notify me on
this phone" and its undoing, on the private link's page (``static/js/push.js`` posts the
browser's push subscription to ``/t/<slug>/calls/<entry>/follow/``).

Each acts on the entry. Only the entry's own identity may: its private link held by this
browser, or the login of its player (either partner of a team), never anyone else, staff
included: a call says where the player must be and whose card waits for them, and a phone
subscribed by someone else would receive it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from tournaments.actions import Action
from tournaments.models import Entry, PushSubscription
from tournaments.permissions import FOLLOW_CALLS
from tournaments.services import calls

__all__ = ["follow_calls", "stop_calls"]

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
