"""What the simulation's background work (auto-play runs, dry runs, previews) shares: its row
taken under a lock in the state a transition starts from, the message a failure leaves for
the organizer, and the preconditions of the organizer's Retry and Stop (asked by the steps of
``simulation.actions`` to show or explain the buttons, and again by the services under the lock).

Every transition of that work is a short transaction that locks the row, checks where it
stands and writes where it goes next. A Celery task can be delivered twice (a retry, a result
handed over again); the second delivery finds the row moved on and does nothing, so no
transition ever happens twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from simulation.models import Status
from tournaments.actions import Kind, Refused

Row = TypeVar("Row", bound=models.Model)
#: The states of work under way: queued for a worker, or running.
UNDER_WAY = (Status.QUEUED, Status.RUNNING)


def locked(model: type[Row], pk: int | None, *states: str) -> Row | None:
    """The row, locked until the surrounding transaction ends, if its ``status`` is one of
    ``states``; None when it is gone or has moved on. Call it inside ``transaction.atomic``."""
    if pk is None:
        return None
    row = model._default_manager.select_for_update().filter(pk=pk).first()
    if row is None or row.status not in states:  # type: ignore[attr-defined]
        return None
    return row


def error_message(exc: BaseException) -> str:
    """What the organizer reads about a failure: a refusal's own messages, or the error."""
    if isinstance(exc, ValidationError):
        return "; ".join(exc.messages)
    return str(exc) or exc.__class__.__name__


def stop_refusal(row: Any) -> str | None:
    """Stop applies to work under way (stalled, or no longer wanted); the words when it has
    ended already."""
    if row.status in UNDER_WAY:
        return None
    return _("This work has already ended (%(state)s): there is nothing to stop.") % {
        "state": str(row.get_status_display()).lower()
    }


def retry_refusal(row: Any, stalled_since: datetime | None) -> str | None:
    """Retry applies to work that stalled (``stalled_since``: since when, None when it has not)
    or failed: work that moves is left to its workers, and finished work has nothing to send."""
    if row.status == Status.FAILED or stalled_since is not None:
        return None
    if row.status == Status.DONE:
        return _("This work is finished: there is nothing to send again.")
    return _("This work is moving: Retry is for work that stalled or failed.")


def refuse_unless(refusal: str | None) -> None:
    """A service's own check of a precondition on the row it locked: refused in words, as a
    conflict with the stored state."""
    if refusal is not None:
        raise Refused(refusal, kind=Kind.CONFLICT)
