"""Tabulating the outcome tables from the physics: every cell of the grid is played as seeded
games in a process pool, so a table is the same for a seed whatever the number of workers.

Every cell (i, j) is played, (j, i) as well as (i, j), rather than one read with the sides
swapped: the player who shoots first in round 1 also has the hammer in round 5, the first extra
round of a playoff, so the two cells are not mirror images once a game goes on past round 4.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
from collections.abc import Callable, Sequence

import numpy as np

from simulation.outcomes.table import KINDS, REGULAR_ROUNDS, ROUND_SLOTS, OutcomeTable
from tournaments.translation import _

SINGLES_LEVELS = (3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.25, 11.5)
"""The singles grid. The players' model places a record between the calibrated levels' 20s per
game (novice 3.10 ... best 11.55 since each player's own round form is in play,
:data:`simulation.players.estimate.TWENTIES_PER_GAME`) and clamps beyond them (a record below
3.10 plays as a novice), so the grid spans them; a level beyond the grid is clamped to its end,
as the players' model does."""

DOUBLES_LEVELS = (3.0, 4.5, 6.0, 7.5, 9.0, 10.25, 11.5)
"""The doubles grid: coarser, a doubles game costs some two and a half singles games."""

DEFAULT_GAMES_PER_CELL = {"singles": 300, "doubles": 100}
"""Games per cell. Singles: 24 300 games, at some 22 ms a game about 5 minutes on 2 cores;
doubles: 4 900 games at some 55 ms, under 3 minutes. The odds' agreement with the full physics
(within 2 points) holds with far fewer: 0.95 points off with 40 games a cell."""

KIND_CODES = {"singles": 1, "doubles": 2}

Job = tuple[str, int, int, float, float, int, int]


def game_seed(seed: int, kind: str, i: int, j: int, k: int) -> int:
    """The seed of game k of cell (i, j): derived from the table's seed alone, so that any
    split of the work between processes plays the same games."""
    state = np.random.SeedSequence([seed, KIND_CODES[kind], i, j, k]).generate_state(1)
    return int(state[0])


def game_rounds(record: dict) -> np.ndarray:
    """``[ROUND_SLOTS, 4]`` int8 of a played game's rounds (unused slots -1; a game longer than
    the slots keeps its deciding round in the last one)."""
    rows = [(*r["points"], *r["twenties"]) for r in record["rounds"]]
    if len(rows) > ROUND_SLOTS:
        rows = rows[: ROUND_SLOTS - 1] + rows[-1:]
    out = np.full((ROUND_SLOTS, 4), -1, dtype=np.int8)
    out[: len(rows)] = np.array(rows, dtype=np.int8)
    return out


def play_cell(job: Job) -> tuple[int, int, np.ndarray]:
    """The games of one cell: A at ``level_a`` (side 0, shooting first) against B."""
    from simulation.game import play_game  # loads the compiled physics in each worker

    kind, i, j, level_a, level_b, games, seed = job
    a, b = {"twenties_per_game": level_a}, {"twenties_per_game": level_b}
    players = [a, b] if kind == "singles" else [a, b, a, b]
    out = np.empty((games, ROUND_SLOTS, 4), dtype=np.int8)
    for k in range(games):
        record = play_game(players, seed=game_seed(seed, kind, i, j, k), playoff=True, events=False)
        out[k] = game_rounds(record)
    return i, j, out


def check_grid(levels: Sequence[float]) -> np.ndarray:
    """The grid as an array; ``ValueError`` unless at least two levels, ascending, from 0 to 20."""
    grid = np.asarray(levels, dtype=float)
    if grid.ndim != 1 or len(grid) < 2 or np.any(np.diff(grid) <= 0):
        raise ValueError(_("the levels must be at least two numbers, in ascending order"))
    if grid[0] < 0 or grid[-1] > 20:
        raise ValueError(_("the levels must be 20s per game from 0 to 20"))
    return grid


def tabulate(
    kind: str,
    levels: Sequence[float],
    games_per_cell: int,
    *,
    physics_digest: str,
    workers: int = 1,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> OutcomeTable:
    """Play every cell of the grid ``games_per_cell`` times (``workers`` processes) and return
    the table; ``progress(done, cells)`` after each cell. Deterministic for a seed."""
    if kind not in KINDS:
        raise ValueError(
            _("the kind is one of %(kinds)s, not %(kind)r")
            % {"kinds": ", ".join(KINDS), "kind": kind}
        )
    grid = check_grid(levels)
    if games_per_cell < 1:
        raise ValueError(_("games per cell must be at least 1"))
    count = len(grid)
    games = np.empty((count, count, games_per_cell, ROUND_SLOTS, 4), dtype=np.int8)
    jobs: list[Job] = [
        (kind, i, j, float(grid[i]), float(grid[j]), games_per_cell, seed)
        for i in range(count)
        for j in range(count)
    ]
    done = 0
    if workers <= 1:
        results = map(play_cell, jobs)
        for i, j, cell in results:
            games[i, j] = cell
            done += 1
            if progress:
                progress(done, len(jobs))
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for i, j, cell in pool.imap_unordered(play_cell, jobs):
                games[i, j] = cell
                done += 1
                if progress:
                    progress(done, len(jobs))
    assert np.all(games[:, :, :, :REGULAR_ROUNDS] >= 0)
    return OutcomeTable(
        kind=kind,
        levels=grid,
        games=games,
        physics_digest=physics_digest,
        created=dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )
