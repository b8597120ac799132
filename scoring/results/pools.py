"""Round-robin pools: each pool's standings and crosstable."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from scoring import engine
from scoring.standings.selectors import (
    SetAsideShootout,
    StandingLine,
    stage_games,
    stage_standings,
)
from tournaments.models import Entry, Pool, Stage, people_paths
from tournaments.selectors import SEEDING_POOLS


@dataclass(frozen=True)
class CrossCell:
    """The games of the row's entry against the column's: (points for, against, 20s for)."""

    games: tuple[tuple[int, int, int], ...] = ()
    self_cell: bool = False


@dataclass
class PoolTable:
    """One pool: its standings (WCC round-robin tiebreaks) and its crosstable in seed order."""

    pool: Pool
    entries: list[Entry]
    lines: list[StandingLine]
    shootouts_required: list[list[Entry]]
    cells: list[list[CrossCell]] = field(default_factory=list)
    problem: str = ""
    #: The pool's recorded shoot-outs that no longer count (the results changed after them).
    set_aside: tuple[SetAsideShootout, ...] = ()

    @property
    def rows(self) -> list[tuple[Entry, list[CrossCell]]]:
        """The crosstable's rows: each entry with its cells, in seed order."""
        return list(zip(self.entries, self.cells, strict=True))


def pool_tables(stage: Stage) -> list[PoolTable]:
    """Standings and crosstable of every pool of the stage, each pool ranked on its own games
    (WCC round-robin playoff: head-to-head, 20s among the tied, 20s in all games, shoot-out),
    through the same per-pool standings as the tournament page; a few queries per pool."""
    pools = [
        p for p in Pool.objects.filter(stage=stage).order_by("name") if p.name not in SEEDING_POOLS
    ]
    members: dict[int, list[Entry]] = defaultdict(list)
    through = (
        Pool.entries.through.objects.filter(pool__in=[p.id for p in pools])
        .select_related(*people_paths("entry"))
        .order_by("id")
    )
    for row in through:
        members[row.pool_id].append(row.entry)
    tables = []
    for pool in pools:
        standings = stage_standings(stage, pool)
        entries = members[pool.id]
        tables.append(
            PoolTable(
                pool=pool,
                entries=entries,
                lines=standings.lines,
                shootouts_required=standings.shootouts_required,
                cells=_crosstable(entries, stage_games(stage, pool)),
                problem=standings.problem,
                set_aside=standings.set_aside,
            )
        )
    return tables


def _crosstable(entries: list[Entry], games: list[engine.Game]) -> list[list[CrossCell]]:
    index = {str(e.id): i for i, e in enumerate(entries)}
    found: dict[tuple[int, int], list[tuple[int, int, int]]] = defaultdict(list)
    for game in games:
        if game.a not in index or game.b not in index:
            continue
        (pa, pb), (ta, tb) = game.points, game.twenties
        i, j = index[game.a], index[game.b]
        found[(i, j)].append((pa, pb, ta))
        found[(j, i)].append((pb, pa, tb))
    return [
        [CrossCell(games=tuple(found[(i, j)]), self_cell=i == j) for j in range(len(entries))]
        for i in range(len(entries))
    ]
