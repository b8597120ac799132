"""Do the cut odds read from the outcome tables agree with the physics? The check that the odds
test and ``bench/odds.py`` both run.

A small preliminary is partly played; the games left are each played ``M`` times by the full
physics (``simulation.game.play_game`` with ``events=False``, each player described by their
record, ``{"twenties_per_game": x, "spread": s}``, so the day's level is drawn for each game as
``play_game`` draws it); finishes are then made by picking, for every game left, one of its
physics games at random, and ranked as :mod:`.cut` ranks them. The same event's odds from the
stored table (:func:`.cut.cut_odds`) should agree with those within 2 points for every entry.

The physics side's own noise (only ``M`` games of each pairing) is measured by the bootstrap
(the games of each pairing drawn again with replacement); the table side's is at most
``0.5 / sqrt(finishes)``. Both are returned beside the gaps, so that a reader sees what the
comparison can say.

Pure: the physics is handed in (``play``), so this module imports no more than the odds do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulation.outcomes.cut import Standing, cut_odds, cut_share, rank_finishes
from simulation.outcomes.levels import level_of
from simulation.outcomes.table import OutcomeTable

Play = Callable[..., Mapping[str, Any]]
"""``simulation.game.play_game``: ``play([spec_a, spec_b], seed=..., events=False)``."""


@dataclass(frozen=True)
class SmallEvent:
    """A preliminary partly played: the players as the app describes them, the standings so far,
    the games left and the cut."""

    specs: Mapping[int, Mapping[str, float]]
    standings: tuple[Standing, ...]
    remaining: tuple[tuple[int, int], ...]
    cut: int


def small_event() -> SmallEvent:
    """Eight players of distinct levels (20s per game 2.5 to 9.5, the spreads
    :func:`simulation.players.belief.belief` gives a player seen in about 20 games), six games
    each played, the last round of four games left, cut 4: the line runs through the middle of
    the field, so most entries' chances are neither 0 nor 1."""
    means = (9.5, 8.5, 7.5, 6.5, 5.5, 4.5, 3.5, 2.5)
    spreads = (2.1, 2.1, 2.1, 2.2, 2.2, 2.2, 2.3, 2.3)
    specs = {
        entry: {"twenties_per_game": mean, "spread": spread}
        for entry, (mean, spread) in enumerate(zip(means, spreads, strict=True), 1)
    }
    totals = {
        1: (34, 50),
        2: (30, 47),
        3: (28, 41),
        4: (26, 38),
        5: (26, 31),
        6: (22, 27),
        7: (20, 22),
        8: (18, 14),
    }
    standings = tuple(
        Standing(entry, points, twenties, 6) for entry, (points, twenties) in totals.items()
    )
    return SmallEvent(specs, standings, ((1, 5), (2, 6), (3, 7), (4, 8)), cut=4)


def physics_games(
    event: SmallEvent, games_per_pairing: int, play: Play, *, seed: int = 0
) -> np.ndarray:
    """``[G, M, 4]``: each game left played ``M`` times by the physics, as (points a, points b,
    20s a, 20s b) over its 4 rounds; seeds ``seed * 1_000_000 + game * 10_000 + k``."""
    games = np.zeros((len(event.remaining), games_per_pairing, 4), dtype=np.int64)
    for number, (a, b) in enumerate(event.remaining):
        players = [dict(event.specs[a]), dict(event.specs[b])]
        for k in range(games_per_pairing):
            record = play(players, seed=seed * 1_000_000 + number * 10_000 + k, events=False)
            games[number, k] = (*record["points"], *record["twenties"])
    return games


def finish_cut_chances(
    event: SmallEvent, games: np.ndarray, finishes: int, rng: np.random.Generator
) -> np.ndarray:
    """Each entry's cut chance (standings order) over ``finishes`` finishes, each taking one of
    the given games of every pairing at random."""
    column = {standing.entry: index for index, standing in enumerate(event.standings)}
    pairs = np.array([(column[a], column[b]) for a, b in event.remaining])
    size = len(event.standings)
    points = np.tile([s.points for s in event.standings], (finishes, 1)).astype(np.int64)
    twenties = np.tile([s.twenties for s in event.standings], (finishes, 1)).astype(np.int64)
    picked = rng.integers(0, games.shape[1], size=(finishes, len(pairs)))
    drawn = games[np.arange(len(pairs))[None, :], picked]  # [F, G, 4]
    rows = np.arange(finishes)[:, None]
    for side in (0, 1):
        np.add.at(points, (rows, pairs[None, :, side]), drawn[..., side])
        np.add.at(twenties, (rows, pairs[None, :, side]), drawn[..., 2 + side])
    assert points.shape == (finishes, size)
    ahead, tied = rank_finishes(points, twenties)
    return cut_share(ahead, tied, event.cut).mean(axis=0)


@dataclass(frozen=True)
class Agreement:
    """The cut chance of each entry (standings order) by the physics and by the table."""

    entries: tuple[int, ...]
    physics: np.ndarray
    table: np.ndarray
    physics_se: np.ndarray
    """The physics side's standard error per entry (bootstrap over its games)."""
    table_se: np.ndarray
    """The table side's standard error per entry (its finishes)."""

    @property
    def gaps(self) -> np.ndarray:
        return np.abs(self.physics - self.table)

    @property
    def max_gap_points(self) -> float:
        return float(100 * self.gaps.max())


def compare(
    event: SmallEvent,
    games: np.ndarray,
    table: OutcomeTable,
    *,
    finishes: int = 20_000,
    bootstrap: int = 30,
    seed: int = 0,
) -> Agreement:
    """The physics' cut chances (from ``games``, :func:`physics_games`) beside the table's."""
    rng = np.random.default_rng(seed)
    physics = finish_cut_chances(event, games, finishes, rng)
    replicas = []
    for _ in range(bootstrap):
        again = games[:, rng.integers(0, games.shape[1], size=games.shape[1])]
        replicas.append(finish_cut_chances(event, again, finishes // 5, rng))
    physics_se = np.std(replicas, axis=0, ddof=1) if bootstrap > 1 else np.zeros_like(physics)
    levels = {entry: level_of(dict(spec)) for entry, spec in event.specs.items()}
    odds = cut_odds(
        event.standings,
        event.remaining,
        levels,
        event.cut,
        table=table,
        finishes=finishes,
        seed=seed,
    )
    chances = np.array([entry.cut for entry in odds.entries])
    return Agreement(
        entries=tuple(s.entry for s in event.standings),
        physics=physics,
        table=chances,
        physics_se=physics_se,
        table_se=np.sqrt(chances * (1 - chances) / finishes),
    )


def describe(agreement: Agreement) -> Sequence[str]:
    """Lines of a table a benchmark prints: entry, physics, table, gap, standard errors."""
    lines = [
        "  entry  physics  table   gap  (se physics, table; points)",  # untranslated: bench
    ]
    for index, entry in enumerate(agreement.entries):
        physics, table = 100 * agreement.physics[index], 100 * agreement.table[index]
        lines.append(
            f"  {entry:5d}  {physics:6.1f}  {table:6.1f}  {100 * agreement.gaps[index]:4.1f}"
            f"  ({100 * agreement.physics_se[index]:.1f}, {100 * agreement.table_se[index]:.1f})"
        )
    return lines
