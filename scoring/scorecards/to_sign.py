"""What a validator has in front of them before signing a row: who the phone signs as (when its
identity implies it), and what looks wrong on the row (the plausibility check).

The card page shows it on the row's validation form; the player's private-link page shows the
rows waiting for their signature with their rounds inline and one "Agree" each, so that the
opponent reaches the row without scanning anything: open the page, read, agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scoring.engine.plausibility import Doubt
from scoring.models import CardRow
from scoring.scorecards import actions as row_actions
from scoring.scorecards import selectors as select
from scoring.scorecards.implied import Signature, implied_signature
from scoring.scorecards.plausible import row_doubts
from tournaments.models import Entry, Stage, Tournament


@dataclass
class Signing:
    """A row as its validator is about to sign it."""

    row: CardRow
    #: Who signs, implied by the phone's identity; None: the ID and initials are typed.
    signature: Signature | None
    doubts: list[Doubt] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        """One "Agree" signs it (no ID or initials to type)."""
        return self.signature is not None


def signing(user, row: CardRow, opponents: Sequence[Entry]) -> Signing:
    """``row`` as ``user`` (who may validate it) is about to sign it."""
    signature = implied_signature(user, row, opponents)
    return Signing(row=row, signature=signature, doubts=row_doubts(row, opponents))


@dataclass
class RowWaiting:
    """A row on the private-link page that waits for this player's signature: with its rounds
    and an "Agree" where the step applies; else the link to the row, and why not."""

    row: CardRow
    stage: Stage
    owner: Entry
    signing: Signing | None = None
    why_not: str = ""

    @property
    def names(self) -> list[str]:
        """The names over the row's figures: its owner first, then the others in the match's
        order."""
        return [self.owner.name, *(e.name for e in _others(self.row))]


def _others(row: CardRow) -> list[Entry]:
    return [e for e in row.game.match.entries if e.id != row.card.entry_id]


def rows_waiting(user, tournament: Tournament, entry_ids: Iterable[int]) -> list[RowWaiting]:
    """The rows the entries ``entry_ids`` (whom ``user``'s phone acts for) are to sign, each
    asked of the validation step (``actions.validate_row``) for this user."""
    waiting = []
    for item in select.rows_to_sign(tournament, entry_ids):
        row = item.row
        found = RowWaiting(row=row, stage=item.stage, owner=item.owner)
        refused = row_actions.validate_row.refusal(user, row)
        if refused is None:
            found.signing = signing(user, row, _others(row))
        else:
            found.why_not = refused.text
        waiting.append(found)
    return waiting
