"""Swiss pairing: each round, entries on equal (or near) scores meet, never for a second time.

Club nights and open events that cannot play a full round robin use a Swiss system. Greedy
"pair down the list" methods get stuck near the end (the last two entries have already met);
choosing the whole round at once as a maximum-weight matching avoids that: among the pairings
that pair everybody without a rematch it takes the one with the smallest score gaps (squared, so
one big gap costs more than two small ones), and between equal scores the one whose opponents are
closest in rank (1 v 2, 3 v 4).

With an odd field the lowest-ranked entry that has not had a bye gets one, unless the others then
cannot be paired without a rematch, in which case the next one up gets it. When no rematch-free
round exists at all the caller chooses: a ValueError by default, or `allow_rematches=True` for the
round with the fewest rematches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from tournaments.translation import _

from .pairing import EntryId, Pairing, Round, byes_taken, check_unique, pair_key, played_pairs


@dataclass(frozen=True)
class SwissStanding:
    """One line of the current standings; the list passed to `swiss_round` is in rank order."""

    entry: EntryId
    score: float


def swiss_round(
    standings: Sequence[SwissStanding],
    previous: Sequence[Sequence[Pairing]] = (),
    *,
    allow_rematches: bool = False,
) -> Round:
    """Pair the next round from `standings` (best first) and the rounds already played.

    Returns pairings in standings order of their better-placed entry (top board first), that entry
    listed as `a`; a bye, if any, comes last as `Pairing(entry, None)`.
    """
    entries = [row.entry for row in standings]
    check_unique(entries)
    if len(entries) < 2:
        raise ValueError(_("a Swiss round needs at least two entries"))
    rank = {entry: index for index, entry in enumerate(entries)}
    score = {row.entry: row.score for row in standings}
    met = played_pairs(previous)
    had_bye = set(byes_taken(previous))

    if len(entries) % 2 == 0:
        candidates: list[EntryId | None] = [None]
    else:
        bottom_up = entries[::-1]
        candidates = [e for e in bottom_up if e not in had_bye]
        candidates += [e for e in bottom_up if e in had_bye]

    for bye in candidates:
        players = [e for e in entries if e != bye]
        pairs = _pair(players, rank, score, met, allow_rematches=False)
        if pairs is not None:
            return _as_round(pairs, bye, rank)
    if allow_rematches:
        bye = candidates[0]
        players = [e for e in entries if e != bye]
        pairs = _pair(players, rank, score, met, allow_rematches=True)
        assert pairs is not None  # with rematches allowed the graph is complete
        return _as_round(pairs, bye, rank)
    raise ValueError(
        _(
            "no pairing of this round avoids a rematch; pass allow_rematches=True to accept the "
            "round with the fewest rematches"
        )
    )


def _pair(
    players: list[EntryId],
    rank: dict[EntryId, int],
    score: dict[EntryId, float],
    met: set[frozenset[EntryId]],
    *,
    allow_rematches: bool,
) -> list[tuple[EntryId, EntryId]] | None:
    """The best perfect matching of `players`, or None when there is none without rematches.

    Weights are integers (networkx then computes exactly): a score gap costs its square times a
    factor larger than any sum of squared rank gaps, so that rank only breaks ties between equal
    gaps (1 v 2 and 3 v 4 in a group, and a pairing that floats 1 v 3 and 2 v 4 rather than 1 v 4
    and 2 v 3); a rematch, when allowed, costs more than every score and rank term together.
    """
    count = len(players)
    rank_factor = count**3 + 1
    gaps = {
        (x, y): round((score[x] - score[y]) ** 2 * 1000)
        for i, x in enumerate(players)
        for y in players[i + 1 :]
    }
    worst_gap_total = (max(gaps.values(), default=0) * count // 2 + 1) * rank_factor
    rematch_cost = worst_gap_total + 1
    base = rematch_cost * (count + 1) + 1
    graph = nx.Graph()
    graph.add_nodes_from(players)
    for (x, y), gap in gaps.items():
        rematch = pair_key(x, y) in met
        if rematch and not allow_rematches:
            continue
        cost = gap * rank_factor + (rank[x] - rank[y]) ** 2 + (rematch_cost if rematch else 0)
        graph.add_edge(x, y, weight=base - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != count:
        return None
    return [(x, y) if rank[x] < rank[y] else (y, x) for x, y in matching]


def _as_round(
    pairs: list[tuple[EntryId, EntryId]], bye: EntryId | None, rank: dict[EntryId, int]
) -> Round:
    rnd = [Pairing(a, b) for a, b in sorted(pairs, key=lambda pair: rank[pair[0]])]
    if bye is not None:
        rnd.append(Pairing(bye, None))
    return rnd
