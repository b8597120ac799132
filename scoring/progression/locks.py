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

This module is the one home of the rule: every writer calls :func:`ensure_open`.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.models import StageAdvance
from tournaments.models import Stage
from tournaments.selectors import next_stage, previous_stage
from tournaments.services.registration import is_drawn

#: The stage whose closed result the head referee's change is writing now (see :func:`applying`).
_APPLYING: ContextVar[int | None] = ContextVar("closed_stage_change", default=None)


class StageClosedError(ValidationError):
    """A write refused because the stage's results are closed; ``round`` is None like the
    scorecard and result errors, whose pages read it."""

    round = None


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
        values = {"stage": self.stage.name, "into": self.into.name, "page": self.page}
        if self.since:
            return _(
                "%(stage)s is closed: it advanced to %(into)s on %(when)s. Only the head referee "
                "can change its results, from the closed-stage page (%(page)s)."
            ) % {**values, "when": self.when}
        return (
            _(
                "%(stage)s is closed: it advanced to %(into)s. Only the head referee can change "
                "its results, from the closed-stage page (%(page)s)."
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


def ensure_open(stage: Stage, *, error: type[ValidationError] = StageClosedError) -> None:
    """Refuse a write of ``stage``'s results once it is closed, with the words of
    :meth:`Closure.message` in the caller's kind of error (``error``), so that each page and the
    API show it where they show that caller's refusals. The head referee's change writes through
    the same services inside :func:`applying`."""
    found = closure(stage)
    if found is None or _APPLYING.get() == found.stage.pk:
        return
    raise error(found.message())


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
