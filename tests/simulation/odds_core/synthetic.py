"""Small outcome tables made by hand, so that the odds' tests know every game a finish can draw."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulation.outcomes.table import REGULAR_ROUNDS, ROUND_SLOTS, OutcomeTable


def game(rounds: Sequence[tuple[int, int, int, int]]) -> np.ndarray:
    """One tabulated game from its regular rounds (points a, points b, 20s a, 20s b)."""
    slots = np.full((ROUND_SLOTS, 4), -1, dtype=np.int8)
    slots[: len(rounds)] = rounds
    return slots


def table_of(games: Sequence[np.ndarray], levels: Sequence[float] = (1.0, 10.0)) -> OutcomeTable:
    """A singles table whose every cell holds the same ``games``: who plays whom changes nothing."""
    stack = np.stack(games)
    cells = np.broadcast_to(stack, (len(levels), len(levels), *stack.shape)).copy()
    return OutcomeTable("singles", np.asarray(levels, dtype=float), cells, "synthetic")


def won(points_a: int, twenties_a: int = 0, twenties_b: int = 0) -> np.ndarray:
    """A game A ends with ``points_a`` of 8 (rounds won 2-0, then shared 1-1, then lost), the 20s
    sunk in the first round."""
    rounds = []
    left = points_a
    for number in range(REGULAR_ROUNDS):
        share = 2 if left >= 2 else left
        left -= share
        tw = (twenties_a, twenties_b) if number == 0 else (0, 0)
        rounds.append((share, 2 - share, *tw))
    return game(rounds)


#: Every result of a game from 8-0 to 0-8, no 20s: a finish may end any way.
ANY_RESULT = table_of([won(points) for points in range(0, 9, 2)])

#: Every game shared 4-4 with no 20s: entries level before stay level.
ALWAYS_LEVEL = table_of([won(4)])
