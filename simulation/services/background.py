"""What the simulation's background work (auto-play runs, dry runs, previews) shares: its row
taken under a lock in the state a transition starts from, and the message a failure leaves for
the organizer.

Every transition of that work is a short transaction that locks the row, checks where it
stands and writes where it goes next. A Celery task can be delivered twice (a retry, a result
handed over again); the second delivery finds the row moved on and does nothing, so no
transition ever happens twice.
"""

from __future__ import annotations

from typing import TypeVar

from django.core.exceptions import ValidationError
from django.db import models

Row = TypeVar("Row", bound=models.Model)


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
