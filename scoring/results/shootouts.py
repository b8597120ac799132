"""Shoot-outs: the ties still waiting for one, and what the page of a shoot-out stage shows."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring.models import ShootOutScore
from scoring.results.pools import pool_tables
from scoring.standings.selectors import stage_standings
from tournaments.models import Entry, Pool, Stage, people_paths
from tournaments.selectors import play_pools, shootout_source


def ties_awaiting_shootout(stage: Stage) -> list[list[Entry]]:
    """Groups of entries still tied after every tiebreak, per pool when played in pools."""
    source = shootout_source(stage)
    if len(play_pools(source)) >= 2:
        return [group for table in pool_tables(source) for group in table.shootouts_required]
    return stage_standings(source).shootouts_required


@dataclass
class ShootoutPage:
    """A shoot-out stage: who was called to it, what each shoot-out gave, who is still tied."""

    stage: Stage
    source: Stage
    groups: list[tuple[str, list[Entry]]]
    shootouts: list[tuple[int, list[tuple[Entry, int]]]]
    waiting: list[list[Entry]]


def shootout_page(stage: Stage) -> ShootoutPage:
    """What the public page of a shoot-out stage shows (a constant number of queries)."""
    source = shootout_source(stage)
    groups: dict[str, list[Entry]] = defaultdict(list)
    through = (
        Pool.entries.through.objects.filter(pool__stage=stage)
        .select_related("pool", *people_paths("entry"))
        .order_by("pool__name", "id")
    )
    for row in through:
        groups[row.pool.name].append(row.entry)
    scores = (
        ShootOutScore.objects.filter(shootout__stage=source)
        .select_related("shootout", *people_paths("entry"))
        .order_by("shootout__order", "-twenties", "entry_id")
    )
    shot: dict[int, list[tuple[Entry, int]]] = defaultdict(list)
    for score in scores:
        shot[score.shootout.order].append((score.entry, score.twenties))
    return ShootoutPage(
        stage=stage,
        source=source,
        groups=list(groups.items()),
        shootouts=sorted(shot.items()),
        waiting=ties_awaiting_shootout(source),
    )
