"""Reads for the shoot-out sheet: the ties a stage still has to settle and the shoot-outs shot.

A shoot-out is recorded against the stage whose tie it settles (the shoot-out stage only names
who was called), so the sheet is read from that stage's standings: per pool when it was played in
pools. Only the ties the standings ask for are listed (``scoring.standings.selectors``: after
play, where the tie decides something).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring.engine import SHOTS_PER_ENTRY
from scoring.models import ShootOutScore
from scoring.results.pools import pool_tables
from scoring.standings.selectors import StandingLine, stage_standings
from tournaments.models import Entry, Stage
from tournaments.selectors import ENTRY_RELATED, play_pools, shootout_source


@dataclass(frozen=True)
class TiedGroup:
    """Entries still tied after every tiebreak, sharing ``rank`` (in ``pool`` when played in
    pools): one shoot-out among exactly them."""

    entries: tuple[Entry, ...]
    rank: int
    pool: str = ""

    @property
    def last_place(self) -> int:
        return self.rank + len(self.entries) - 1

    @property
    def key(self) -> str:
        """Names the group in a form: its entry ids, sorted."""
        return "-".join(str(e.id) for e in sorted(self.entries, key=lambda e: e.id))


@dataclass(frozen=True)
class ShootoutSheet:
    """What the shoot-out page shows and takes."""

    source: Stage
    waiting: list[TiedGroup]
    #: Each shoot-out shot so far, in order: (its number, [(entry, 20s made), best first]).
    recorded: list[tuple[int, list[tuple[Entry, int]]]]
    #: Shots per player: 12 in singles, 6 for each partner of a doubles team.
    shots_per_player: int
    players_per_side: int
    shots_per_entry: int = SHOTS_PER_ENTRY


def _groups(pool: str, lines: list[StandingLine], required: list[list[Entry]]) -> list[TiedGroup]:
    rank = {line.entry.id: line.rank for line in lines}
    return [
        TiedGroup(entries=tuple(group), rank=rank[group[0].id], pool=pool) for group in required
    ]


def waiting_groups(source: Stage) -> list[TiedGroup]:
    """The tied groups of ``source`` a shoot-out must settle now, per pool when it has pools."""
    if len(play_pools(source)) >= 2:
        return [
            group
            for table in pool_tables(source)
            for group in _groups(table.pool.name, table.lines, table.shootouts_required)
        ]
    standings = stage_standings(source)
    return _groups("", standings.lines, standings.shootouts_required)


def recorded_shootouts(source: Stage) -> list[tuple[int, list[tuple[Entry, int]]]]:
    """The shoot-outs recorded for ``source``'s ties, in the order shot (one query)."""
    scores = (
        ShootOutScore.objects.filter(shootout__stage=source)
        .select_related("shootout", *(f"entry__{name}" for name in ENTRY_RELATED))
        .order_by("shootout__order", "-twenties", "entry_id")
    )
    shot: dict[int, list[tuple[Entry, int]]] = defaultdict(list)
    for score in scores:
        shot[score.shootout.order].append((score.entry, score.twenties))
    return sorted(shot.items())


def shootout_sheet(stage: Stage) -> ShootoutSheet:
    """The sheet for ``stage``: a stage with ties, or the shoot-out stage that settles them."""
    source = shootout_source(stage)
    category = source.category
    return ShootoutSheet(
        source=source,
        waiting=waiting_groups(source),
        recorded=recorded_shootouts(source),
        shots_per_player=category.shootout_shots_per_player,
        players_per_side=category.players_per_side,
    )
