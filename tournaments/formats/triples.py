"""Three-player games: a draw of rounds in which the field plays in groups of three.

Family rulebook, Three-Player Game, Option Two: three players at one board, each alone. An event
of such games plays rounds of play in which every entry is in one group of three; when the field
is not a multiple of three, one or two entries sit out the round (byes, worth what the event
says), never the same entry twice while another has not sat out yet. Groups are chosen so that
two entries meet seldom: each round takes the grouping with the fewest repeat meetings found by a
greedy choice from several shuffled starts (not a proof of the fewest possible), all from
``random.Random(seed)`` so that the same seed gives the same draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.translation import _

from .pairing import EntryId, Pairing, Round, check_unique, pair_key

GROUP = 3


def _restarts(count: int) -> int:
    """Shuffled starts per round: many for a club field, fewer for hundreds of entries, so that
    a draw stays well under a second."""
    return max(2, min(40, 4000 // max(count, 1)))


def _group_round(
    players: list[EntryId], met: dict[frozenset[EntryId], int], rng: random.Random
) -> tuple[int, list[tuple[EntryId, ...]]]:
    """Split ``players`` (a multiple of three) into groups, each next player joined by the two
    who have met it and each other least; returns (repeat meetings, groups)."""
    order = list(players)
    rng.shuffle(order)
    left = order
    groups: list[tuple[EntryId, ...]] = []
    cost = 0
    while left:
        first, rest = left[0], left[1:]
        best: tuple[int, int, int] | None = None
        for i, x in enumerate(rest):
            cx = met.get(pair_key(first, x), 0)
            for j in range(i + 1, len(rest)):
                y = rest[j]
                total = cx + met.get(pair_key(first, y), 0) + met.get(pair_key(x, y), 0)
                if best is None or total < best[0]:
                    best = (total, i, j)
                    if total == 0:
                        break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        total, i, j = best
        cost += total
        groups.append((first, rest[i], rest[j]))
        left = [p for k, p in enumerate(rest) if k not in (i, j)]
    return cost, groups


def three_player_rounds(
    entries: Sequence[EntryId], games: int, *, seed: int | str | None
) -> list[Round]:
    """Draw ``games`` rounds of play of three-player games.

    Returns the rounds, each a list of pairings whose ``c`` is the third player; an entry that
    sits out a round has a pairing of its own with ``b`` None (the bye). Raises ValueError for
    fewer than three entries, a negative number of games, repeated ids or a missing seed.
    """
    check_unique(entries)
    if len(entries) < GROUP:
        raise ValueError(_("a three-player draw needs at least three entries"))
    if games < 0:
        raise ValueError(_("the number of games cannot be negative"))
    if seed is None:
        raise ValueError(_("a random draw needs a seed, so that it can be made again"))
    rng = random.Random(seed)
    met: dict[frozenset[EntryId], int] = {}
    byes = {entry: 0 for entry in entries}
    rounds: list[Round] = []
    for _round in range(games):
        sitting = len(entries) % GROUP
        pool = list(entries)
        rng.shuffle(pool)
        pool.sort(key=lambda entry: byes[entry])  # those who sat out least sit out now
        out = pool[:sitting]
        playing = [entry for entry in entries if entry not in out]
        best: tuple[int, list[tuple[EntryId, ...]]] | None = None
        for _attempt in range(_restarts(len(playing))):
            found = _group_round(playing, met, rng)
            if best is None or found[0] < best[0]:
                best = found
            if best[0] == 0:
                break
        assert best is not None
        rnd: Round = [Pairing(a, b, c=c) for a, b, c in best[1]]
        for group in best[1]:
            for i, x in enumerate(group):
                for y in group[i + 1 :]:
                    key = pair_key(x, y)
                    met[key] = met.get(key, 0) + 1
        for entry in out:
            byes[entry] += 1
            rnd.append(Pairing(entry, None))
        rounds.append(rnd)
    return rounds
