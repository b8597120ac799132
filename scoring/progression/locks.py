"""Closed stages: once a stage has advanced, its results are locked.

A stage is closed once the next stage has been seeded or drawn from its standings (the data tells
it: ``tournaments.selectors.next_stage`` and ``tournaments.services.registration.is_drawn``), so
that the entries going on are not changed underneath the next stage by a late card. From then on
every write of its results (a card row filled, validated, corrected, entered from paper,
confirmed, verified or voided, a dispute settled, an official result, a shoot-out) is refused
with the words of :meth:`Closure.message`, on the pages and in the API alike. Only the head
referee changes a closed result, from the closed-stage page, with a reason; the change is
recorded and says what it would change in the next stage (``scoring.progression.closed``). The
organizer reopens a stage by undoing its advance while the next stage has no result.

This module is the one home of the rule: every writer calls :func:`ensure_open`. One write of a
closed stage is let through: the shoot-out its standings ask for again, when the head referee's
change left a tie that decides who went on (``services.record_shootout``). Until it is recorded
the next stage does not go on (:func:`ensure_settled`): it is not advanced, nor its next round
drawn, from entries the standings no longer settle.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.models import StageAdvance
from scoring.results.shootouts import ties_awaiting_shootout
from scoring.standings.selectors import entry_names
from tournaments.actions import Kind, Refused
from tournaments.models import Stage
from tournaments.selectors import next_stage, previous_stage
from tournaments.services.registration import is_drawn

#: The stage whose closed result the head referee's change is writing now (see :func:`applying`).
_APPLYING: ContextVar[int | None] = ContextVar("closed_stage_change", default=None)


class StageClosedError(Refused):
    """A write refused because the stage's results are closed: a conflict with the stored state
    (409 in the API), with no round at fault."""

    def __init__(self, message: str, *, kind: Kind = Kind.CONFLICT) -> None:
        super().__init__(message, kind=kind)


@dataclass(frozen=True)
class Closure:
    """A closed stage: the stage it advanced into and, where the advance was recorded, when."""

    stage: Stage
    into: Stage
    since: datetime.datetime | None

    @property
    def page(self) -> str:
        """The closed-stage page, where the head referee changes a result."""
        return reverse(
            "scoring:closed_stage", args=[self.stage.category.tournament.slug, self.stage.pk]
        )

    @property
    def when(self) -> str:
        if self.since is None:
            return ""
        return date_format(timezone.localtime(self.since), "j F Y, H:i")

    def message(self) -> str:
        """The refusal in words, for whoever meets it (a player's phone as well as the API): no
        address in it, which reads as code; the pages that may lead there link to :attr:`page`.
        """
        values = {"stage": self.stage.name, "into": self.into.name}
        if self.since:
            return _(
                "%(stage)s is closed: it advanced to %(into)s on %(when)s. Only the head referee "
                "can change its results, on the stage's closed results page."
            ) % {**values, "when": self.when}
        return (
            _(
                "%(stage)s is closed: it advanced to %(into)s. Only the head referee can change "
                "its results, on the stage's closed results page."
            )
            % values
        )


def _played_stage(stage: Stage) -> Stage | None:
    """The stage whose results are locked: a shoot-out stage's results (the shoot-outs shot)
    belong to the stage whose tie it settles."""
    if stage.kind == Stage.Kind.SHOOTOUT:
        return previous_stage(stage)
    return stage


def closure(stage: Stage) -> Closure | None:
    """The stage's closure, or None while its results may still change.

    A knockout is never closed this way: its winners go on inside it (``advance_knockout``), and
    no later stage is seeded from its results.
    """
    played = _played_stage(stage)
    if played is None or played.kind == Stage.Kind.KNOCKOUT:
        return None
    following = next_stage(played)
    if following is None or not is_drawn(following):
        return None
    record = (
        StageAdvance.objects.filter(stage=played, into=following, undone_at__isnull=True)
        .order_by("-advanced_at", "-id")
        .first()
    )
    return Closure(played, following, record.advanced_at if record else None)


def stage_closed(stage: Stage) -> bool:
    """Whether the stage has advanced, so that its results are locked."""
    return closure(stage) is not None


def ensure_open(stage: Stage, *, error: type[Refused] = StageClosedError) -> None:
    """Refuse a write of ``stage``'s results once it is closed, with the words of
    :meth:`Closure.message` in the caller's kind of error (``error``), so that each page and the
    API show it where they show that caller's refusals. The head referee's change writes through
    the same services inside :func:`applying`."""
    found = closure(stage)
    if found is None or _APPLYING.get() == found.stage.pk:
        return
    raise error(found.message(), kind=Kind.CONFLICT)


class ShootoutPendingError(Refused):
    """Going on with a stage refused: the closed stage it was seeded from waits for a shoot-out
    again (``source``, whose shoot-out page records it); a conflict with the stored state."""

    def __init__(self, message: str, *, source: Stage) -> None:
        super().__init__(message, kind=Kind.CONFLICT)
        self.source = source


def ensure_settled(stage: Stage) -> None:
    """Refuse to go on with ``stage`` (advance it, draw its next round) while the closed stage it
    was seeded from has a tie that a shoot-out must settle: a change of that stage's results
    unsettled the tie a shoot-out had settled (or made a new one on the cut), so who is in
    ``stage`` is no longer what the standings say. Raises :class:`ShootoutPendingError` naming
    the tie; once the shoot-out is recorded, going on works again."""
    source = previous_stage(stage)
    if source is None:
        return
    found = closure(source)
    if found is None or found.into.pk != stage.pk:
        return
    groups = ties_awaiting_shootout(source)
    if not groups:
        return
    raise ShootoutPendingError(
        _(
            "A change of the closed results of %(source)s left a tie that a shoot-out must "
            "settle (%(ties)s): %(stage)s cannot go on until that shoot-out is recorded (from "
            "the standings of %(source)s)."
        )
        % {
            "stage": stage.name,
            "source": source.name,
            "ties": "; ".join(entry_names(group) for group in groups),
        },
        source=source,
    )


@contextmanager
def applying(stage: Stage) -> Iterator[None]:
    """While the head referee's recorded change of a closed result of ``stage`` is written: the
    services it goes through (``resolve_dispute``, ``record_game``) let it through. Only
    ``scoring.progression.closed.change_closed_result`` enters it, after its checks."""
    token = _APPLYING.set(stage.pk)
    try:
        yield
    finally:
        _APPLYING.reset(token)
