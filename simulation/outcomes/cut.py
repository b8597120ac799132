"""Live cut odds of a preliminary: every entry's chance of making the cut and of each place the
event awards, from where the standings are, read from the outcome tables (no physics played).

Each *finish* is one way the preliminary may end: every remaining game is drawn once from the
stored table (one vectorized draw for all games of all finishes, as
:func:`~simulation.outcomes.table.sample_games` draws), its points and 20s are added to the
standings, and the finish is ranked as the WCC ranks a preliminary (points, then 20s, then a
shoot-out: ``scoring.engine``'s chain ``"preliminary"``), all finishes at once over a
``[finishes, entries]`` array. Entries still tied on points and 20s share a rank, as the engine's
standings say, and a shoot-out decides between them: each is counted as winning it with equal
chance.

Pure: numpy and the outcome model, no Django; the app turns the numbers into words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from simulation.outcomes.table import (
    POINTS_A,
    POINTS_B,
    REGULAR_ROUNDS,
    TWENTIES_A,
    TWENTIES_B,
    OutcomeTable,
    sample_cells,
)
from tournaments.translation import _

MAX_FINISHES = 200_000
"""More finishes than any page needs (the standard error at 50 %% is 0.1 point at this many)."""


@dataclass(frozen=True)
class Standing:
    """An entry's totals so far in the preliminary (byes included, as the standings show them)."""

    entry: int
    points: int
    twenties: int
    games: int


@dataclass(frozen=True)
class Needs:
    """What an entry needs of its remaining games: "5 of its last 8 points (or 4 points and 6
    20s)".

    ``points``: the fewest points of its remaining games (``of_points`` in all) with which it
    makes the cut in at least half of the finishes, the other games falling as they may.
    ``twenties``: with one point fewer, the fewest 20s in its remaining games that would still
    make the cut in half of the finishes; ``None`` when no number of 20s is enough (or
    ``points`` is 0: there is no point fewer).
    """

    points: int
    of_points: int
    twenties: int | None


@dataclass(frozen=True)
class EntryOdds:
    """One entry's chances, each a share of the finishes."""

    entry: int
    cut: float
    """Finishes inside the cut; a shoot-out at the line counted as won with equal chance by each
    of those tied across it."""
    places: tuple[float, ...]
    """Finishes exactly 1st, 2nd, ... for each place awarded (shared ranks split equally)."""
    shootout: float
    """Finishes tied on points and 20s across the cut line: a shoot-out decides."""
    needs: Needs | None
    """``None`` when the entry has no game left, makes or misses the cut in every finish, or does
    not make it in half the finishes even winning every point left."""


@dataclass(frozen=True)
class CutOddsResult:
    """The odds of every entry, in the order of the standings given."""

    cut: int
    finishes: int
    entries: tuple[EntryOdds, ...]


@dataclass(frozen=True)
class Finishes:
    """Drawn finishes of a preliminary: totals ``[finishes, entries]`` and what each entry got
    from each of its remaining games, kept so that :mod:`.needs` can change an entry's results
    and rank again."""

    entries: tuple[int, ...]
    points: np.ndarray
    twenties: np.ndarray
    games: np.ndarray
    """``[G, 2]`` the remaining games as column indices (side a, side b)."""
    game_points: np.ndarray
    """``[finishes, G, 2]`` the points of each side of each remaining game."""
    game_twenties: np.ndarray
    """``[finishes, G, 2]`` the 20s of each side of each remaining game."""

    def first(self, count: int) -> Finishes:
        """The first ``count`` finishes only."""
        return Finishes(
            self.entries,
            self.points[:count],
            self.twenties[:count],
            self.games,
            self.game_points[:count],
            self.game_twenties[:count],
        )


def rank_finishes(points: np.ndarray, twenties: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank every finish (row) by points, then 20s: ``(ahead, tied)``, both ``[finishes, entries]``.

    ``ahead`` is how many entries finish strictly ahead of each (its rank is ``ahead + 1``, shared
    by the ``tied`` entries, itself included, that end level on points and 20s: a shoot-out
    decides between them), as ``scoring.engine.compute_standings`` ranks a preliminary.
    """
    points = np.asarray(points, dtype=np.int64)
    twenties = np.asarray(twenties, dtype=np.int64)
    if points.ndim == 1:
        ahead, tied = rank_finishes(points[None, :], twenties[None, :])
        return ahead[0], tied[0]
    count = points.shape[1]
    weight = int(twenties.max(initial=0)) + 1
    key = points * weight + twenties
    # Best first; a short whole number when the keys allow, which numpy sorts by radix (6 times
    # faster over a 400-entry field: the ranking is most of the odds' time).
    descending = key.max(initial=0) - key
    if descending.max(initial=0) < np.iinfo(np.int16).max:
        descending = descending.astype(np.int16)
    order = np.argsort(descending, axis=1, kind="stable")
    ordered = np.take_along_axis(key, order, axis=1)
    place = np.broadcast_to(np.arange(count), ordered.shape)
    differs = ordered[:, 1:] != ordered[:, :-1]
    first = np.ones((len(ordered), 1), dtype=bool)
    starts = np.concatenate([first, differs], axis=1)
    ends = np.concatenate([differs, first], axis=1)
    start = np.maximum.accumulate(np.where(starts, place, 0), axis=1)
    end = np.minimum.accumulate(np.where(ends, place, count)[:, ::-1], axis=1)[:, ::-1]
    ahead = np.empty_like(start)
    tied = np.empty_like(start)
    np.put_along_axis(ahead, order, start, axis=1)
    np.put_along_axis(tied, order, end - start + 1, axis=1)
    return ahead, tied


def cut_share(ahead: np.ndarray, tied: np.ndarray, cut: int) -> np.ndarray:
    """Each entry's share of a place inside the cut in each finish: 1 inside, 0 outside, and for
    a group tied across the line the places left inside shared equally among its members."""
    inside = np.clip(cut - ahead, 0, None)
    return np.minimum(inside, tied) / tied


def _check_inputs(
    standings: Sequence[Standing],
    remaining: Sequence[tuple[int, int]],
    levels: Mapping[int, tuple[float, float]],
    cut: int,
    places: int,
    finishes: int,
    points_per_game: int,
) -> tuple[dict[int, int], int]:
    """The column of each entry and the rounds a game has; ``ValueError`` saying what is wrong."""
    columns: dict[int, int] = {}
    for standing in standings:
        if not isinstance(standing, Standing):
            raise ValueError(
                _("the standings must be Standing rows, not %(row)r") % {"row": standing}
            )
        if standing.entry in columns:
            raise ValueError(
                _("entry %(entry)s is in the standings twice") % {"entry": standing.entry}
            )
        if standing.points < 0 or standing.twenties < 0 or standing.games < 0:
            raise ValueError(
                _("entry %(entry)s has negative totals in the standings")
                % {"entry": standing.entry}
            )
        columns[standing.entry] = len(columns)
    size = len(columns)
    if size == 0:
        raise ValueError(_("the standings are empty: there is no field to cut"))
    for name, value, low, high in (
        ("cut", cut, 1, size),
        ("places", places, 0, size),
        ("finishes", finishes, 1, MAX_FINISHES),
    ):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise ValueError(
                _("%(name)s must be a whole number, not %(value)r") % {"name": name, "value": value}
            )
        if not low <= value <= high:
            if name == "cut" and value > size:
                raise ValueError(
                    _("the cut (%(cut)s) is larger than the field (%(size)s entries)")
                    % {"cut": value, "size": size}
                )
            raise ValueError(
                _("%(name)s must be from %(low)s to %(high)s, not %(value)r")
                % {"name": name, "low": low, "high": high, "value": value}
            )
    if (
        isinstance(points_per_game, bool)
        or not isinstance(points_per_game, int)
        or points_per_game % 2
        or not 2 <= points_per_game <= 2 * REGULAR_ROUNDS
    ):
        raise ValueError(
            _("points_per_game must be 2 points a round for 1 to %(rounds)s rounds, not %(value)r")
            % {"rounds": REGULAR_ROUNDS, "value": points_per_game}
        )
    for number, game in enumerate(remaining, 1):
        if len(game) != 2:
            raise ValueError(
                _("remaining game %(number)s must be two entries, not %(game)r")
                % {"number": number, "game": game}
            )
        for entry in game:
            if entry not in columns:
                raise ValueError(
                    _(
                        "remaining game %(number)s names entry %(entry)r, which is not in the "
                        "standings"
                    )
                    % {"number": number, "entry": entry}
                )
            level = levels.get(entry)
            if level is None or len(level) != 2 or not all(np.isfinite(level)) or level[1] < 0:
                raise ValueError(
                    _(
                        "entry %(entry)s plays remaining game %(number)s but has no level "
                        "(mean, spread) with a spread of 0 or more: %(level)r"
                    )
                    % {"entry": entry, "number": number, "level": level}
                )
        if game[0] == game[1]:
            raise ValueError(
                _("remaining game %(number)s has entry %(entry)s play itself")
                % {"number": number, "entry": game[0]}
            )
    return columns, points_per_game // 2


@lru_cache(maxsize=8)
def game_totals(table: OutcomeTable, rounds: int = REGULAR_ROUNDS) -> np.ndarray:
    """``[L, L, N, 4]`` each tabulated game's points and 20s over its first ``rounds`` rounds: a
    preliminary game has no extra rounds (the table's games are played the same up to the end of
    the regular rounds, tied or not), and totals are all a finish adds up."""
    return table.games[:, :, :, :rounds, :].astype(np.int16).sum(axis=3)


def draw_finishes(
    standings: Sequence[Standing],
    remaining: Sequence[tuple[int, int]],
    levels: Mapping[int, tuple[float, float]],
    *,
    table: OutcomeTable,
    finishes: int,
    rng: np.random.Generator,
    rounds: int = REGULAR_ROUNDS,
) -> Finishes:
    """Draw ``finishes`` ways the remaining games may end (inputs already checked).

    Each game is played at a level drawn for each side from its ``(mean, spread)`` (a normal,
    anew for each game, as ``play_game`` draws a player described by a record with a spread),
    and read from a game of the table at those levels; a preliminary game has no extra rounds, so
    only its first ``rounds`` rounds count.
    """
    entries = tuple(standing.entry for standing in standings)
    column = {entry: index for index, entry in enumerate(entries)}
    size = len(entries)
    base_points = np.array([s.points for s in standings], dtype=np.int64)
    base_twenties = np.array([s.twenties for s in standings], dtype=np.int64)
    games = np.array([(column[a], column[b]) for a, b in remaining], dtype=np.int64).reshape(-1, 2)
    count = len(games)
    points = np.broadcast_to(base_points, (finishes, size)).copy()
    twenties = np.broadcast_to(base_twenties, (finishes, size)).copy()
    if count == 0:
        empty = np.zeros((finishes, 0, 2), dtype=np.int64)
        return Finishes(entries, points, twenties, games, empty, empty.copy())
    means = np.array([levels.get(entry, (0.0, 0.0))[0] for entry in entries], dtype=float)
    spreads = np.array([levels.get(entry, (0.0, 0.0))[1] for entry in entries], dtype=float)
    side_means = means[games]
    side_spreads = spreads[games]
    day = side_means + side_spreads * rng.standard_normal((finishes, count, 2))
    # sample_games' draw, reading each game's totals instead of its rounds (the same games).
    i, j, k = sample_cells(table, day[..., 0].ravel(), day[..., 1].ravel(), rng)
    regular = game_totals(table, rounds)[i, j, k].reshape(finishes, count, 4)
    game_points = regular[..., [POINTS_A, POINTS_B]]
    game_twenties = regular[..., [TWENTIES_A, TWENTIES_B]]
    flat = (np.arange(finishes)[:, None, None] * size + games[None, :, :]).ravel()
    cells = finishes * size
    points += (
        np.bincount(flat, weights=game_points.ravel(), minlength=cells)
        .astype(np.int64)
        .reshape(finishes, size)
    )
    twenties += (
        np.bincount(flat, weights=game_twenties.ravel(), minlength=cells)
        .astype(np.int64)
        .reshape(finishes, size)
    )
    return Finishes(entries, points, twenties, games, game_points, game_twenties)


def cut_odds(
    standings: Sequence[Standing],
    remaining: Sequence[tuple[int, int]],
    levels: Mapping[int, tuple[float, float]],
    cut: int,
    places: int = 3,
    *,
    table: OutcomeTable,
    finishes: int = 2000,
    seed: int = 0,
    points_per_game: int = 8,
) -> CutOddsResult:
    """Every entry's chance of making the top ``cut`` and of each of the first ``places`` places,
    the chance of a shoot-out at the line, and what it needs of its remaining games.

    ``standings``: the totals so far; ``remaining``: the games still to play (entry a, entry b;
    a bye is not a game, its credit is in the totals); ``levels``: each entry's ``(mean,
    spread)`` of 20s per game (:func:`~simulation.outcomes.levels.level_of`), needed for those
    with a game left. The same ``seed`` gives the same odds. Raises ``ValueError`` saying what is
    wrong (an entry of a remaining game not in the standings, a cut larger than the field...).
    """
    from simulation.outcomes.needs import entry_needs

    _columns, rounds = _check_inputs(
        standings, remaining, levels, cut, places, finishes, points_per_game
    )
    rng = np.random.default_rng(seed)
    drawn = draw_finishes(
        standings, remaining, levels, table=table, finishes=finishes, rng=rng, rounds=rounds
    )
    ahead, tied = rank_finishes(drawn.points, drawn.twenties)
    share = cut_share(ahead, tied, cut)
    cut_chance = share.mean(axis=0)
    shootout = ((ahead < cut) & (ahead + tied > cut)).mean(axis=0)
    place_chances = np.zeros((places, len(drawn.entries)))
    for place in range(places):
        hit = (ahead <= place) & (place < ahead + tied)
        place_chances[place] = (hit / tied).mean(axis=0)
    decided = (share == share[:1]).all(axis=0) & ((share[0] == 0) | (share[0] == 1))
    needs = entry_needs(drawn, cut, points_per_game, table.kind, skip=decided)
    return CutOddsResult(
        cut=cut,
        finishes=finishes,
        entries=tuple(
            EntryOdds(
                entry=entry,
                cut=float(cut_chance[index]),
                places=tuple(float(p) for p in place_chances[:, index]),
                shootout=float(shootout[index]),
                needs=needs[index],
            )
            for index, entry in enumerate(drawn.entries)
        ),
    )
