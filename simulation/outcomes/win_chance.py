"""A match's chances from where it stands, read from the outcome tables (no physics played).

Each draw plays the rest of the match once: the day's level of each side is drawn from its
``(mean, spread)`` (a normal, as ``play_game`` draws a player described by a record with a
``spread``, anew for each game), a tabulated game is sampled at those levels, and the rounds not yet
played are read from it. Many draws give the chances.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from simulation.outcomes.table import (
    POINTS_A,
    POINTS_B,
    REGULAR_ROUNDS,
    OutcomeTable,
    sample_cells,
)
from tournaments.translation import _

A_WINS, LEVEL, B_WINS = 1, 0, -1
MAX_ROUNDS = 20
MAX_BEST_OF = 15
MAX_DRAWS = 1_000_000


@lru_cache(maxsize=8)
def _round_shares(table: OutcomeTable) -> np.ndarray:
    """``[L, L, REGULAR_ROUNDS, 3]``: how often each regular round of a cell is won by A, shared,
    won by B (with half a round of each added, so that no outcome seen is impossible)."""
    regular = table.games[:, :, :, :REGULAR_ROUNDS, :].astype(np.int16)
    diff = regular[..., POINTS_A] - regular[..., POINTS_B]
    counts = np.stack([(diff > 0).sum(axis=2), (diff == 0).sum(axis=2), (diff < 0).sum(axis=2)])
    counts = np.moveaxis(counts, 0, -1).astype(float) + 0.5
    return counts / counts.sum(axis=-1, keepdims=True)


@lru_cache(maxsize=8)
def _playoff_share(table: OutcomeTable) -> np.ndarray:
    """``[L, L]``: of a cell's games tied after the regular rounds, the share A won in the extra
    rounds (one win and one loss added: a cell with few such games leans to even)."""
    games = table.games.astype(np.int16)
    extra = games[:, :, :, REGULAR_ROUNDS, POINTS_A] >= 0
    played = np.where(games[..., POINTS_A] >= 0, games[..., POINTS_A] - games[..., POINTS_B], 0)
    a_won = (played.sum(axis=3) > 0) & extra
    return (a_won.sum(axis=2) + 1.0) / (extra.sum(axis=2) + 2.0)


def _check_level(level: object, side: str) -> tuple[float, float]:
    if (
        not isinstance(level, Sequence)
        or len(level) != 2
        or any(isinstance(x, bool) or not isinstance(x, int | float) for x in level)
        or not all(np.isfinite(level))
        or level[1] < 0
    ):
        raise ValueError(
            _("level_%(side)s must be (mean, spread) with a spread of 0 or more, not %(level)r")
            % {"side": side, "level": level}
        )
    return float(level[0]), float(level[1])


def _whole(value: object, name: str, low: int, high: int) -> int:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | np.integer)
        or not low <= value <= high
    ):
        raise ValueError(
            _("%(name)s must be a whole number from %(low)s to %(high)s, not %(value)r")
            % {"name": name, "low": low, "high": high, "value": value}
        )
    return int(value)


def _check_rounds(rounds_played: object) -> list[tuple[int, int]]:
    if isinstance(rounds_played, str | bytes) or not isinstance(rounds_played, Sequence):
        raise ValueError(
            _("rounds_played must be a list of (points A, points B), not %(value)r")
            % {"value": rounds_played}
        )
    checked = []
    for number, pair in enumerate(rounds_played, start=1):
        if not isinstance(pair, Sequence) or len(pair) != 2:
            raise ValueError(
                _("round %(number)s of rounds_played must be (points A, points B), not %(pair)r")
                % {"number": number, "pair": pair}
            )
        checked.append(
            (
                _whole(pair[0], _("points A of round %(n)s") % {"n": number}, 0, 100),
                _whole(pair[1], _("points B of round %(n)s") % {"n": number}, 0, 100),
            )
        )
    return checked


def _day_levels(level: tuple[float, float], draws: int, rng: np.random.Generator) -> np.ndarray:
    mean, spread = level
    if spread == 0:
        return np.full(draws, mean)
    return np.maximum(mean + spread * rng.standard_normal(draws), 0.0)


def _finish_game(
    table: OutcomeTable,
    cells: tuple[np.ndarray, np.ndarray, np.ndarray],
    so_far: np.ndarray,
    played: int,
    rounds: int,
    playoff: bool,
    rng: np.random.Generator,
) -> np.ndarray:
    """A_WINS, LEVEL or B_WINS per draw for a game standing at ``so_far`` (A's points minus
    B's) after ``played`` rounds: the regular rounds left are read from the sampled games'
    same slots (a game longer than the tabulated one goes on with another game of the cell),
    a playoff tied after them is won by A at the cell's share."""
    i, j, k = cells
    diff = so_far.astype(np.int32).copy()
    for slot in range(played, rounds):
        if slot and slot % REGULAR_ROUNDS == 0:
            k = rng.integers(0, table.games_per_cell, size=i.shape)
        game = table.games[i, j, k, slot % REGULAR_ROUNDS]
        diff += game[:, POINTS_A].astype(np.int32) - game[:, POINTS_B]
    result = np.sign(diff)
    if playoff:
        tied = result == 0
        a_first = rng.random(i.shape) < _playoff_share(table)[i, j]
        result = np.where(tied, np.where(a_first, A_WINS, B_WINS), result)
    return result


def win_chance(
    table: OutcomeTable,
    level_a: tuple[float, float],
    level_b: tuple[float, float],
    rounds_played: Sequence[tuple[int, int]] = (),
    *,
    rounds: int = 4,
    playoff: bool = False,
    best_of: int = 1,
    games_won: tuple[int, int] = (0, 0),
    draws: int = 4000,
    seed: int = 0,
) -> tuple[float, float, float]:
    """``(P(A wins), P(level), P(B wins))`` of a match from where it stands.

    ``level_a``/``level_b``: each side's ``(mean, spread)`` of 20s per game
    (:func:`simulation.outcomes.levels.level_of`). ``rounds_played``: the points of the rounds
    already played in the game in progress (A's first), extra rounds included. ``rounds``: the
    regular rounds of a game; ``playoff``: a game tied after them goes on until someone wins
    (otherwise it ends level). ``best_of``: games of the match, the first to win more than half
    of them takes it; ``games_won``: the games each side has won already (a game left level
    counts for neither; the match is level when its games are played out and nobody has more
    than half). A is the side that shot first in the game in progress.

    What this assumes: the rounds of a game are independent of each other given the two sides'
    levels on the day (``play_game`` plays each round from an empty board, with a form of the
    round drawn afresh), so the rounds after those played are read from the same slots of a
    tabulated game, and the rounds played only tell about the day's levels: each draw is weighted
    by how likely those rounds are in the cell it drew (a side leading 6-0 is likely on form).
    Games of a match are independent given the sides' (mean, spread). Raises ``ValueError``.
    """
    mean_spread_a = _check_level(level_a, "a")
    mean_spread_b = _check_level(level_b, "b")
    played_rounds = _check_rounds(rounds_played)
    rounds = _whole(rounds, "rounds", 1, MAX_ROUNDS)
    if not isinstance(playoff, bool):
        raise ValueError(_("playoff must be true or false, not %(value)r") % {"value": playoff})
    best_of = _whole(best_of, "best_of", 1, MAX_BEST_OF)
    draws = _whole(draws, "draws", 1, MAX_DRAWS)
    seed = _whole(seed, "seed", 0, 2**63 - 1)
    if not isinstance(games_won, Sequence) or len(games_won) != 2:
        raise ValueError(
            _("games_won must be (games won by A, games won by B), not %(value)r")
            % {"value": games_won}
        )
    won_a = _whole(games_won[0], "games_won[0]", 0, best_of)
    won_b = _whole(games_won[1], "games_won[1]", 0, best_of)
    need = best_of // 2 + 1
    if won_a + won_b > best_of or min(won_a, won_b) >= need:
        raise ValueError(
            _("games_won %(won)s cannot stand in a best of %(best_of)s")
            % {"won": tuple(games_won), "best_of": best_of}
        )
    if won_a >= need:
        return 1.0, 0.0, 0.0
    if won_b >= need:
        return 0.0, 0.0, 1.0
    played = len(played_rounds)
    diff_so_far = sum(a - b for a, b in played_rounds)
    if played > rounds and (not playoff or sum(a - b for a, b in played_rounds[:-1]) != 0):
        raise ValueError(
            _(
                "%(played)s rounds played: a game of %(rounds)s rounds goes on only in a playoff, "
                "and only while tied"
            )
            % {"played": played, "rounds": rounds}
        )
    if won_a + won_b >= best_of:
        raise ValueError(
            _("games_won %(won)s: all %(best_of)s games are played")
            % {"won": tuple(games_won), "best_of": best_of}
        )

    rng = np.random.default_rng(seed)
    day_a = _day_levels(mean_spread_a, draws, rng)
    day_b = _day_levels(mean_spread_b, draws, rng)
    cells = sample_cells(table, day_a, day_b, rng)
    weights = np.ones(draws)
    if played_rounds:
        shares = _round_shares(table)
        i, j, _k = cells
        for slot, (a, b) in enumerate(played_rounds[:rounds]):
            outcome = 0 if a > b else 1 if a == b else 2
            weights *= shares[i, j, slot % REGULAR_ROUNDS, outcome]
    so_far = np.full(draws, diff_so_far)
    current = _finish_game(table, cells, so_far, min(played, rounds), rounds, playoff, rng)
    wins_a = won_a + (current == A_WINS)
    wins_b = won_b + (current == B_WINS)
    zero = np.zeros(draws, dtype=np.int32)
    for _game in range(best_of - won_a - won_b - 1):
        open_match = (wins_a < need) & (wins_b < need)
        if not open_match.any():
            break
        day_a = _day_levels(mean_spread_a, draws, rng)
        day_b = _day_levels(mean_spread_b, draws, rng)
        cells = sample_cells(table, day_a, day_b, rng)
        result = _finish_game(table, cells, zero, 0, rounds, playoff, rng)
        wins_a = wins_a + (open_match & (result == A_WINS))
        wins_b = wins_b + (open_match & (result == B_WINS))
    total = weights.sum()
    a_won, b_won = wins_a >= need, wins_b >= need
    level = ~(a_won | b_won)
    return tuple(float(weights[m].sum() / total) for m in (a_won, level, b_won))  # type: ignore[return-value]
