"""Printing a round of play's scorecards as one background batch, declared once
(``tournaments.actions``): print the round, and print a batch again once it stalled or failed.

The print page offers a round's batch to whoever holds the step's permission, and the batch's
page asks the second step whether to offer "Print it again"; their posts take the steps. A
round's step acts on a :class:`RoundOfPlay`, a batch's on a :class:`PrintBatch` (its state as
the page read it). The preconditions are ``scoring.printing.batch``'s. Each asks the task queue
first and is refused in words when it cannot be reached, so no batch waits for a worker that
will never come.

A batch is not stopped (``scoring.printing.batch`` says why): no such step is declared.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from config.celery import QueueUnreachable
from scoring.printing.batch import BatchState, again_refusal, round_refusal
from scoring.printing.options import PrintOptions
from scoring.printing.tasks import send_round_batch
from tournaments.actions import Action, Kind, Refused
from tournaments.models import Stage

__all__ = ["PRINT_PERMISSION", "PrintBatch", "RoundOfPlay", "print_round", "print_round_again"]

PRINT_PERMISSION = "scoring.print_cards"
PRINTERS = gettext_lazy(
    "Printing named scorecards and sheets is for the organizers, the scoring table and the head "
    "referee of this tournament."
)


@dataclass(frozen=True)
class RoundOfPlay:
    """A stage's round of play, whose cards a batch prints."""

    stage: Stage
    number: int


@dataclass(frozen=True)
class PrintBatch:
    """A batch sent already: its round, its id, and where it stood when its page was read
    (``stalled_for``: seconds without a sign of moving, None while it moves)."""

    round: RoundOfPlay
    batch_id: str
    state: BatchState
    stalled_for: float | None = None

    @property
    def stage(self) -> Stage:
        return self.round.stage


def _send(rnd: RoundOfPlay, options: PrintOptions, language: str) -> str:
    try:
        return send_round_batch(
            stage_id=rnd.stage.id, round_of_play=rnd.number, options=options, language=language
        )
    except QueueUnreachable as exc:
        raise Refused(str(exc), kind=Kind.CONFLICT) from None


def _print(
    user: AbstractBaseUser, rnd: RoundOfPlay, *, options: PrintOptions, language: str = ""
) -> str:
    return _send(rnd, options, language)


def _print_again(
    user: AbstractBaseUser, batch: PrintBatch, *, options: PrintOptions, language: str = ""
) -> str:
    return _send(batch.round, options, language)


print_round = Action(
    name="scoring.print_round",
    permission=PRINT_PERMISSION,
    who=PRINTERS,
    when=(lambda rnd: round_refusal(rnd.stage, rnd.number),),
    fields=("options", "language"),
    run=_print,
)

print_round_again = Action(
    name="scoring.print_round_again",
    permission=PRINT_PERMISSION,
    who=PRINTERS,
    when=(
        lambda batch: again_refusal(batch.state, batch.stalled_for),
        lambda batch: round_refusal(batch.stage, batch.round.number),
    ),
    fields=("options", "language"),
    run=_print_again,
)
