"""What an entry needs of its remaining games to make the cut: "5 of its last 8 points (or 4
points and 6 20s)", read from the finishes :mod:`.cut` drew.

In every drawn finish the entry's own games are set to end as asked (its points spread over its
remaining games as evenly as whole points allow, each opponent getting the rest of that game's
points), every other game stays as it fell, and the entry's place is read against the others: the
fewest points that make the cut in at least half the finishes is what it needs. More points for
the entry are fewer for its opponents, so its chance only grows with its points (and its 20s),
and both are found by bisection, for all undecided entries at once.

Pure: numpy, no Django.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from simulation.outcomes.cut import Finishes, Needs

HALF = 0.5
"""The share of finishes in which the entry must make the cut for it to "need" that much."""

NEEDS_FINISHES = 800
"""Finishes read for what an entry needs (the first ones drawn): needs are a threshold at half the
finishes, whose share is known to ±1.8 points (one standard error) from 800 of them, and each
threshold is found again a dozen times; the chances themselves use every finish."""

DISCS_PER_SIDE = {"singles": 8, "doubles": 12}
"""Discs a side shoots in a round (a doubles side: two players of 6): the most 20s it can sink."""


class _Field:
    """The drawn finishes arranged so that one entry's place against all the others, with its
    own games changed, is two binary searches per finish."""

    def __init__(
        self, drawn: Finishes, open_columns: np.ndarray, points_per_game: int, most_twenties: int
    ):
        finishes, size = drawn.points.shape
        self.size = size
        self.cut_points = points_per_game
        self.columns = open_columns
        games = drawn.games
        # Each open entry's remaining games, padded to the most any has (-1: none).
        per_entry = [np.flatnonzero((games == column).any(axis=1)) for column in open_columns]
        width = max((len(found) for found in per_entry), default=0)
        count = len(open_columns)
        game_index = np.full((count, width), -1, dtype=np.int64)
        for row, found in enumerate(per_entry):
            game_index[row, : len(found)] = found
        self.valid = game_index >= 0
        self.games_left = self.valid.sum(axis=1)
        safe = np.where(self.valid, game_index, 0)
        own_side = np.where(games[safe, 0] == open_columns[:, None], 0, 1)
        self.opponents = np.where(self.valid, games[safe, 1 - own_side], 0)
        same = (self.opponents[:, :, None] == self.opponents[:, None, :]) & (
            self.valid[:, :, None] & self.valid[:, None, :]
        )
        # An opponent met twice changes once, with both games; it is counted at its first game.
        self.same = same.astype(np.int64)
        earlier = np.tril(np.ones((width, width), dtype=bool), k=-1)
        self.first = self.valid & ~(same & earlier[None, :, :]).any(axis=2)

        own_points = np.where(self.valid, drawn.game_points[:, safe, own_side], 0)
        own_twenties = np.where(self.valid, drawn.game_twenties[:, safe, own_side], 0)
        opp_points = np.where(self.valid, drawn.game_points[:, safe, 1 - own_side], 0)
        self.own_points_before = drawn.points[:, open_columns] - own_points.sum(axis=2)
        self.own_twenties = drawn.twenties[:, open_columns]
        self.own_twenties_before = self.own_twenties - own_twenties.sum(axis=2)
        # The opponents' totals without their games against this entry.
        self.opp_points_before = drawn.points[:, self.opponents] - np.einsum(
            "fuk,ukj->fuj", opp_points, self.same
        )
        self.opp_twenties = drawn.twenties[:, self.opponents]

        most_points = int(drawn.points.max(initial=0)) + points_per_game * max(width, 1) + 1
        self.weight = max(int(drawn.twenties.max(initial=0)), most_twenties) + 1
        key = drawn.points * self.weight + drawn.twenties
        self.key_own = key[:, open_columns]
        self.key_opp = key[:, self.opponents]
        self.row = (most_points + 1) * self.weight
        self.offsets = (np.arange(finishes, dtype=np.int64) * self.row)[:, None]
        self.sorted_keys = (np.sort(key, axis=1) + self.offsets).ravel()
        self.row_starts = np.arange(finishes, dtype=np.int64)[:, None] * size

    def split(self, points: np.ndarray) -> np.ndarray:
        """``[U, width]``: ``points`` of each entry spread over its games as evenly as can be."""
        left = np.maximum(self.games_left, 1)
        slot = np.cumsum(self.valid, axis=1) - 1
        share = points[:, None] // left[:, None] + (slot < (points % left)[:, None])
        return np.where(self.valid, share, 0)

    def share(self, cut: int, points: np.ndarray, twenties: np.ndarray | None) -> np.ndarray:
        """Each open entry's share of the finishes inside the cut when its remaining games bring
        it ``points`` and (when given, else as they fell) ``twenties``."""
        mine = self.split(points)
        own_points = self.own_points_before + points[None, :]
        own_twenties = (
            self.own_twenties if twenties is None else self.own_twenties_before + twenties[None, :]
        )
        query = own_points * self.weight + own_twenties
        theirs = self.cut_points - mine
        opp_points = self.opp_points_before + np.einsum("uk,ukj->uj", theirs, self.same)[None]
        opp_key = opp_points * self.weight + self.opp_twenties

        flat = (query + self.offsets).ravel()
        below_right = np.searchsorted(self.sorted_keys, flat, side="right").reshape(query.shape)
        below_left = np.searchsorted(self.sorted_keys, flat, side="left").reshape(query.shape)
        ahead = self.size - (below_right - self.row_starts)
        level = below_right - below_left
        # Take out the entry itself and its opponents as drawn, put the opponents back as changed.
        q = query[:, :, None]
        first = self.first[None]
        ahead = ahead - (self.key_own > query) + ((opp_key > q) & first).sum(axis=2)
        ahead = ahead - ((self.key_opp > q) & first).sum(axis=2)
        level = level - (self.key_own == query) + ((opp_key == q) & first).sum(axis=2)
        level = level - ((self.key_opp == q) & first).sum(axis=2)
        tied = level + 1
        inside = np.clip(cut - ahead, 0, None)
        return (np.minimum(inside, tied) / tied).mean(axis=0)


def _fewest(test, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """The fewest value in ``[low, high]`` for which ``test`` holds, entry by entry, by bisection
    (``test`` holds at ``high`` and grows with the value)."""
    low, high = low.copy(), high.copy()
    while (low < high).any():
        middle = (low + high) // 2
        passed = test(middle)
        high = np.where(passed & (low < high), middle, high)
        low = np.where(~passed & (low < high), middle + 1, low)
    return low


def entry_needs(
    drawn: Finishes, cut: int, points_per_game: int, kind: str, *, skip: np.ndarray
) -> list[Needs | None]:
    """What each entry (column of ``drawn``) needs of its remaining games, ``None`` for those
    ``skip`` marks (made or missed the cut whatever happens), those without a game left and those
    that do not make it in half the finishes even with every point left (see
    :class:`~simulation.outcomes.cut.Needs`)."""
    from simulation.outcomes.cut import Needs

    drawn = drawn.first(NEEDS_FINISHES)
    size = drawn.points.shape[1]
    result: list[Needs | None] = [None] * size
    playing = np.zeros(size, dtype=bool)
    playing[drawn.games.ravel()] = True
    open_columns = np.flatnonzero(playing & ~skip)
    if len(open_columns) == 0:
        return result
    rounds = points_per_game // 2
    most_per_game = DISCS_PER_SIDE.get(kind, 8) * rounds
    counts = np.array(
        [(drawn.games == column).any(axis=1).sum() for column in open_columns], dtype=np.int64
    )
    most_twenties_left = counts * most_per_game
    field = _Field(
        drawn,
        open_columns,
        points_per_game,
        int(drawn.twenties.max(initial=0)) + int(most_twenties_left.max()),
    )
    of_points = counts * points_per_game
    reachable = field.share(cut, of_points, None) >= HALF
    points = _fewest(
        lambda x: field.share(cut, x, None) >= HALF, np.zeros_like(of_points), of_points
    )
    fewer = np.maximum(points - 1, 0)
    enough = (points > 0) & (field.share(cut, fewer, most_twenties_left) >= HALF)
    twenties = _fewest(
        lambda t: field.share(cut, fewer, t) >= HALF,
        np.zeros_like(most_twenties_left),
        np.where(enough, most_twenties_left, 0),
    )
    for row, column in enumerate(open_columns):
        if not reachable[row]:
            continue
        result[column] = Needs(
            points=int(points[row]),
            of_points=int(of_points[row]),
            twenties=int(twenties[row]) if enough[row] else None,
        )
    return result
