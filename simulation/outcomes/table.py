"""The stored outcome tables: simulated games between players of given 20s-per-game levels, and
how one game is drawn from them for any pair of levels (not only the grid's).

A table is tabulated once from the physics (``python manage.py tabulate_outcomes``) and read here in
milliseconds, so that the odds of a whole event can be drawn again after every result.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from tournaments.translation import _

KINDS = ("singles", "doubles")
"""Singles: 8 discs each, one player a side. Doubles: 6 discs each, both partners of a side
tabulated at the side's level."""

REGULAR_ROUNDS = 4
"""The regular rounds of a tabulated game (NCA)."""

ROUND_SLOTS = 8
"""Round slots kept per game: the 4 regular rounds, then up to 4 extra rounds of a playoff game
tied after them (unused: -1). A game still tied after 7 rounds keeps its deciding round in the
last slot, the tied rounds before it being dropped (only their 20s are lost)."""

POINTS_A, POINTS_B, TWENTIES_A, TWENTIES_B = range(4)
"""The four figures of a round, in this order."""

DATA_DIR = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True, eq=False)
class OutcomeTable:
    """Simulated games at every pair of grid levels.

    ``games[i, j, k]`` is the k-th NCA game of A at ``levels[i]`` against B at ``levels[j]``
    (both described by their record, ``{"twenties_per_game": x}``), played with ``playoff`` so a
    game tied after the regular rounds has extra rounds until someone wins: ``ROUND_SLOTS`` rounds
    of (points A, points B, 20s A, 20s B), unused slots -1. A shot first in round 1, so B has the
    hammer in rounds 1 and 3 and A in rounds 2 and 4. ``physics_digest`` is the digest that the
    seeded-games test pinned when the table was tabulated: a table of other physics is stale.
    """

    kind: str
    levels: np.ndarray
    games: np.ndarray
    physics_digest: str
    created: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                _("the kind of an outcome table is one of %(kinds)s, not %(kind)r")
                % {"kinds": ", ".join(KINDS), "kind": self.kind}
            )
        levels = np.asarray(self.levels, dtype=float)
        count = len(levels)
        if count < 2 or np.any(np.diff(levels) <= 0):
            raise ValueError(_("an outcome table's levels must be at least two, ascending"))
        shape = self.games.shape
        if len(shape) != 5 or shape[:2] != (count, count) or shape[3:] != (ROUND_SLOTS, 4):
            raise ValueError(
                _("an outcome table's games must be shaped [%(n)s, %(n)s, N, %(r)s, 4], not %(s)s")
                % {"n": count, "r": ROUND_SLOTS, "s": shape}
            )
        if shape[2] < 1:
            raise ValueError(_("an outcome table needs at least one game per cell"))

    @property
    def games_per_cell(self) -> int:
        return int(self.games.shape[2])


def table_path(kind: str) -> Path:
    """Where the stored table of ``kind`` lives in the package."""
    return DATA_DIR / f"{kind}.npz"


def save_table(table: OutcomeTable, path: Path | None = None) -> Path:
    """Write ``table`` compactly (the int8 games, the levels and what says where they came from)."""
    path = table_path(table.kind) if path is None else path
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        np.savez_compressed(
            handle,
            kind=np.array(table.kind),
            levels=np.asarray(table.levels, dtype=float),
            games=np.asarray(table.games, dtype=np.int8),
            physics_digest=np.array(table.physics_digest),
            games_per_cell=np.array(table.games_per_cell),
            created=np.array(table.created),
        )
    return path


def read_table(path: Path) -> OutcomeTable:
    """The table stored at ``path`` (not cached: :func:`load_table` is)."""
    with np.load(path, allow_pickle=False) as data:
        return OutcomeTable(
            kind=str(data["kind"]),
            levels=data["levels"].astype(float),
            games=data["games"].astype(np.int8),
            physics_digest=str(data["physics_digest"]),
            created=str(data["created"]) if "created" in data else "",
        )


@lru_cache(maxsize=len(KINDS))
def load_table(kind: str = "singles") -> OutcomeTable:
    """The stored table of ``kind``, read once per process. Raises ``ValueError`` for an unknown
    kind and ``FileNotFoundError`` when the table was never tabulated."""
    if kind not in KINDS:
        raise ValueError(
            _("the outcome tables are %(kinds)s, not %(kind)r")
            % {"kinds": ", ".join(KINDS), "kind": kind}
        )
    path = table_path(kind)
    if not path.exists():
        raise FileNotFoundError(
            _("no %(kind)s outcome table: run manage.py tabulate_outcomes --kind %(kind)s")
            % {"kind": kind}
        )
    return read_table(path)


def grid_cells(levels: np.ndarray, wanted: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The grid index of each wanted level, drawn between its two neighbours in proportion to
    its distance from each (so that on average a level between two grid points plays like the
    mixture of both), clamped at the grid's ends."""
    wanted = np.clip(np.asarray(wanted, dtype=float), levels[0], levels[-1])
    lower = np.clip(np.searchsorted(levels, wanted, side="right") - 1, 0, len(levels) - 2)
    share = (wanted - levels[lower]) / (levels[lower + 1] - levels[lower])
    return lower + (rng.random(wanted.shape) < share)


def sample_cells(
    table: OutcomeTable, level_a: np.ndarray, level_b: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cell (i, j) and game k drawn for each pair of levels (see :func:`sample_games`)."""
    level_a = np.atleast_1d(np.asarray(level_a, dtype=float))
    level_b = np.atleast_1d(np.asarray(level_b, dtype=float))
    level_a, level_b = np.broadcast_arrays(level_a, level_b)
    i = grid_cells(table.levels, level_a, rng)
    j = grid_cells(table.levels, level_b, rng)
    k = rng.integers(0, table.games_per_cell, size=i.shape)
    return i, j, k


def sample_games(
    table: OutcomeTable, level_a: np.ndarray, level_b: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """One simulated game per pair of levels, ``[n, ROUND_SLOTS, 4]``: A at ``level_a[m]`` against
    B at ``level_b[m]``, taken from a cell of the grid drawn between the neighbouring grid levels
    of each (stochastic interpolation, clamped at the ends), then one of its games at random."""
    i, j, k = sample_cells(table, level_a, level_b, rng)
    return table.games[i, j, k]
