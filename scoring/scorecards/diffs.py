"""Cards of one game compared round by round: which rounds they tell differently.

Pure (no Django): plain card data in, plain data out, so the rule of what "the same round"
means is one function that the reconciliation of two cards (``services._after_change``), the
warning before a contradicting save (``services.fill_row``), the paper entry's question and the
dispute queue's per-round diff all read, and that a property test can try on any rows.

Every card given is in the same order of sides (the match's order: see
``services.as_official``), so two cards agree when they say the same thing from their own sides
of the board. Two rounds are the same when their points, 20s and "time expired" are the same,
and their board scores too where both cards give them: board scores are optional on a card
(points and 20s are what the result and the standings read), so a player who wrote them and an
opponent who did not have not told the round differently, and neither is sent to the head
referee for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: One round as a card tells it (``scoring.engine.RoundData``).
Round = Mapping[str, Any]


def canonical(round_: Round | None) -> dict[str, Any] | None:
    """A round in one shape whatever wrote it (tuples or lists, a missing ``score`` or
    ``time_expired`` key, blank 20s), so that equal rounds compare equal; None stays None (the
    card stops before this round)."""
    if round_ is None:
        return None
    points = [int(p) for p in round_.get("points") or ()]
    twenties = round_.get("twenties")
    score = round_.get("score")
    return {
        "points": points,
        "twenties": [int(t) for t in twenties] if twenties else [0] * len(points),
        "score": [int(s) for s in score] if score else None,
        "time_expired": bool(round_.get("time_expired")),
    }


def same_round(first: Round | None, second: Round | None) -> bool:
    """Two cards' versions of one round (canonical, or None where a card stops before it) tell
    it the same: the same points, 20s and "time expired", and the same board scores unless a
    card left them out."""
    if first is None or second is None:
        return first is second
    scores = (first["score"], second["score"])
    if None not in scores and scores[0] != scores[1]:
        return False
    keys = ("points", "twenties", "time_expired")
    return all(first[key] == second[key] for key in keys)


@dataclass(frozen=True)
class RoundDiff:
    """A round the cards tell differently: its number (1-based) and each card's version of it,
    in the order the cards were given (None where a card stops before this round)."""

    number: int
    versions: tuple[dict[str, Any] | None, ...]

    @property
    def contradicts(self) -> bool:
        """Two cards that both have this round say different things about it: a contradiction,
        not a card still being written (one that stops short of the other)."""
        told = [v for v in self.versions if v is not None]
        return any(not same_round(a, b) for i, a in enumerate(told) for b in told[i + 1 :])


def round_diffs(cards: Sequence[Sequence[Round]]) -> list[RoundDiff]:
    """The rounds that the ``cards`` (each a sequence of rounds, all in the same order of sides)
    do not all tell the same (:func:`same_round`, every two cards), in the order of play; empty
    exactly when the cards are the same round by round (and equally long)."""
    longest = max((len(card) for card in cards), default=0)
    found = []
    for index in range(longest):
        versions = tuple(canonical(card[index]) if index < len(card) else None for card in cards)
        if any(not same_round(a, b) for i, a in enumerate(versions) for b in versions[i + 1 :]):
            found.append(RoundDiff(number=index + 1, versions=versions))
    return found


def contradictions(cards: Sequence[Sequence[Round]]) -> list[RoundDiff]:
    """The rounds two of the ``cards`` both have and tell differently (see
    :attr:`RoundDiff.contradicts`): a card that stops short of another contradicts nothing by
    that alone."""
    return [diff for diff in round_diffs(cards) if diff.contradicts]


def identical(first: Sequence[Round], second: Sequence[Round]) -> bool:
    """Two cards telling every round the same, and the same rounds."""
    return not round_diffs([first, second])
