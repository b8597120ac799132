"""Round robins (Berger tables) and seeding a ranked field into pools.

A round-robin playoff (WCC: the top 16 split into two pools of 8) needs every pair to meet once,
nobody to play twice in a round, and the order of play to be the published standard one, so that
players and referees can check the draw against a printed Berger table. Pools are filled in
serpentine (snake) order so that each pool gets a fair share of the strong seeds; entries from one
club are kept apart where a swap inside the same seeding tier allows it, because club mates
knocking each other out in a pool is what organizers are asked to avoid.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence

import networkx as nx

from tournaments.translation import _

from .pairing import EntryId, Pairing, Round, check_unique


def berger_round(players: int, index: int) -> list[tuple[int, int]]:
    """Round `index` (from 0) of the Berger table for `players` numbers (even).

    Round 1 is 1 v n, 2 v n-1, ...; each later round adds n/2 to every number but n (counting
    1..n-1 round in a circle), and n alternates between starting and not, as in the FIDE tables.
    Computing one round alone keeps a 10-round draw for hundreds of entries cheap.
    """
    if players < 2 or players % 2:
        raise ValueError(_("a Berger table needs an even number of players, at least 2"))
    if not 0 <= index < players - 1:
        raise ValueError(
            _("a Berger table for %(players)s has rounds 0..%(last)s only")
            % {"players": players, "last": players - 2}
        )
    half = players // 2
    last = players - 1
    shift = index * half
    pairs = []
    for k in range(1, half + 1):
        first = (k - 1 + shift) % last + 1
        bottom = players + 1 - k
        if bottom == players:
            pairs.append((players, first) if index % 2 else (first, players))
        else:
            pairs.append((first, (bottom - 1 + shift) % last + 1))
    return pairs


def berger_table(players: int) -> list[list[tuple[int, int]]]:
    """The whole Berger table for `players` numbers (even), as rounds of (first, second) pairs."""
    if players < 2 or players % 2:
        raise ValueError(_("a Berger table needs an even number of players, at least 2"))
    return [berger_round(players, index) for index in range(players - 1)]


def berger_rounds(entries: Sequence[EntryId], *, double: bool = False) -> list[Round]:
    """Every round of a round robin among `entries`, taken in Berger number order.

    `entries[0]` takes number 1, and so on. With an odd count a dummy takes the last number, and
    whoever meets the dummy has a bye that round (`Pairing(entry, None)`). In a double round robin
    the second cycle repeats the first with the entries swapped, so that whoever started a
    meeting in the first cycle does not start it in the second.
    """
    check_unique(entries)
    if len(entries) < 2:
        raise ValueError(_("a round robin needs at least two entries"))
    numbered: list[EntryId | None] = list(entries)
    if len(numbered) % 2:
        numbered.append(None)  # the dummy: whoever meets it has a bye
    rounds: list[Round] = []
    for pairs in berger_table(len(numbered)):
        rnd: Round = []
        for first, second in pairs:
            a, b = numbered[first - 1], numbered[second - 1]
            if a is None:
                a, b = b, a
            assert a is not None
            rnd.append(Pairing(a, b))
        rounds.append(rnd)
    if double:
        rounds += [[Pairing(p.b, p.a) if p.b else p for p in rnd] for rnd in rounds]
    return rounds


def pool_label(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: the name organizers give pool number `index` (from 0)."""
    if index < 0:
        raise ValueError(_("pool index must not be negative"))
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def snake_slots(count: int, pools: int) -> list[int]:
    """The pool (from 0) that each of `count` ranked entries goes to in serpentine order.

    With two pools: 1A, 2B, 3B, 4A, 5A, 6B, ...
    """
    if pools < 1:
        raise ValueError(_("there must be at least one pool"))
    slots = []
    for rank in range(count):
        tier, place = divmod(rank, pools)
        slots.append(place if tier % 2 == 0 else pools - 1 - place)
    return slots


def club_conflicts(pools: Sequence[Sequence[EntryId]], clubs: Mapping[EntryId, str | None]) -> int:
    """How many pairs of club mates share a pool (entries without a club never count)."""
    total = 0
    for pool in pools:
        counts = Counter(clubs.get(e) for e in pool if clubs.get(e) is not None)
        total += sum(n * (n - 1) // 2 for n in counts.values())
    return total


def snake_pools(
    ranked: Sequence[EntryId],
    pools: int,
    clubs: Mapping[EntryId, str | None] | None = None,
) -> list[list[EntryId]]:
    """Seed `ranked` (best first) into `pools` pools in snake order, keeping club mates apart.

    Each pool's list is in seed order. The snake is only changed inside a seeding tier (the
    entries ranked tier*P+1 .. tier*P+P), so every pool still gets one entry from every tier; among
    the arrangements with fewest club mates together the one closest to the plain snake wins.
    Small fields (such as 16 into 2 pools) are searched exhaustively; larger ones by improving one
    tier at a time, which finds a clean split whenever the club counts leave room for one in
    practice but is not proven optimal.
    """
    check_unique(ranked)
    if pools < 1:
        raise ValueError(_("there must be at least one pool"))
    if len(ranked) < pools:
        raise ValueError(
            _("%(entries)s entries cannot fill %(pools)s pools")
            % {"entries": len(ranked), "pools": pools}
        )
    default = snake_slots(len(ranked), pools)
    tiers = [
        list(range(start, min(start + pools, len(ranked))))
        for start in range(0, len(ranked), pools)
    ]
    placement = list(default)
    if clubs and any(clubs.get(e) is not None for e in ranked):
        club_of = [clubs.get(e) for e in ranked]
        placement = _separate_clubs(tiers, default, club_of)
    result: list[list[EntryId]] = [[] for _ in range(pools)]
    for rank, pool in enumerate(placement):
        result[pool].append(ranked[rank])
    return result


def _separate_clubs(
    tiers: list[list[int]], default: list[int], club_of: list[str | None]
) -> list[int]:
    """Choose, per tier, a permutation of the tier's snake slots: fewest conflicts, then moves."""
    placement = _greedy_tiers(tiers, default, club_of)
    placement = _improve_tiers(tiers, placement, default, club_of)
    search_size = 1
    for tier in tiers:
        search_size *= _factorial(len(tier))
    if search_size <= 50_000:
        placement = _exhaustive_tiers(tiers, placement, default, club_of)
    return placement


def _factorial(n: int) -> int:
    result = 1
    for k in range(2, n + 1):
        result *= k
    return result


def _cost(placement: list[int], default: list[int], club_of: list[str | None]) -> tuple[int, int]:
    counts: Counter[tuple[int, str]] = Counter(
        (pool, club) for pool, club in zip(placement, club_of, strict=True) if club is not None
    )
    conflicts = sum(n * (n - 1) // 2 for n in counts.values())
    moves = sum(p != d for p, d in zip(placement, default, strict=True))
    return conflicts, moves


def _assign_tier(
    tier: list[int],
    default: list[int],
    club_of: list[str | None],
    counts: Counter[tuple[int, str]],
    placement: list[int],
) -> None:
    """Best permutation of one tier's slots given the club counts of every other tier.

    Entries of one tier land in different pools, so the cost is a sum over entries and the
    choice is a linear assignment, solved as a maximum-weight perfect matching.
    """
    slots = [default[rank] for rank in tier]
    graph = nx.Graph()
    big = 2 * len(tier) + 2
    top = big * (len(default) + 1)
    for rank in tier:
        club = club_of[rank]
        for slot in slots:
            clash = counts[(slot, club)] if club is not None else 0
            cost = clash * big + (slot != default[rank])
            graph.add_edge(("e", rank), ("p", slot), weight=top - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    for u, v in matching:
        entry, pool = (u, v) if u[0] == "e" else (v, u)
        placement[entry[1]] = pool[1]


def _tier_counts(
    placement: list[int], club_of: list[str | None], skip: set[int]
) -> Counter[tuple[int, str]]:
    counts: Counter[tuple[int, str]] = Counter()
    for rank, pool in enumerate(placement):
        club = club_of[rank]
        if club is not None and rank not in skip:
            counts[(pool, club)] += 1
    return counts


def _greedy_tiers(
    tiers: list[list[int]], default: list[int], club_of: list[str | None]
) -> list[int]:
    placement = list(default)
    counts: Counter[tuple[int, str]] = Counter()
    for tier in tiers:
        _assign_tier(tier, default, club_of, counts, placement)
        for rank in tier:
            if club_of[rank] is not None:
                counts[(placement[rank], club_of[rank])] += 1
    return placement


def _improve_tiers(
    tiers: list[list[int]], placement: list[int], default: list[int], club_of: list[str | None]
) -> list[int]:
    """Re-seat one tier at a time against all the others until nothing improves."""
    best = _cost(placement, default, club_of)
    improved = True
    while improved:
        improved = False
        for tier in tiers:
            trial = list(placement)
            counts = _tier_counts(trial, club_of, set(tier))
            _assign_tier(tier, default, club_of, counts, trial)
            cost = _cost(trial, default, club_of)
            if cost < best:
                placement, best, improved = trial, cost, True
    return placement


def _exhaustive_tiers(
    tiers: list[list[int]], placement: list[int], default: list[int], club_of: list[str | None]
) -> list[int]:
    """Depth-first search over every tier's permutations, pruned by the best found so far."""
    best = [_cost(placement, default, club_of), list(placement)]
    current = list(default)
    counts: Counter[tuple[int, str]] = Counter()

    def search(depth: int, conflicts: int, moves: int) -> None:
        if (conflicts, moves) >= best[0]:
            return
        if depth == len(tiers):
            best[0], best[1] = (conflicts, moves), list(current)
            return
        tier = tiers[depth]
        slots = [default[rank] for rank in tier]
        for order in itertools.permutations(slots):
            added_conflicts = 0
            added_moves = 0
            for rank, slot in zip(tier, order, strict=True):
                club = club_of[rank]
                if club is not None:
                    added_conflicts += counts[(slot, club)]
                added_moves += slot != default[rank]
            for rank, slot in zip(tier, order, strict=True):
                current[rank] = slot
                if club_of[rank] is not None:
                    counts[(slot, club_of[rank])] += 1
            search(depth + 1, conflicts + added_conflicts, moves + added_moves)
            for rank, slot in zip(tier, order, strict=True):
                if club_of[rank] is not None:
                    counts[(slot, club_of[rank])] -= 1

    search(0, 0, 0)
    return best[1]
