"""The WCC preliminary draw: a fixed number of games per entry, never the same opponent twice.

At the World Crokinole Championship every entry plays a set number of games in the preliminary
rounds, each against a different opponent, and the standings after them pick who goes on. The
organizers need the draw made before play starts (for scorecards and board lists), reproducible
(the same seed gives the same draw, so a printed draw can be checked), and fast for the largest
fields (hundreds of entries).

Both methods take their rounds from a round-robin rotation (the Berger table), which is a set of
rounds in which no pair ever meets twice; any `games` of those rounds therefore form a draw with no
rematches, and with an odd field the rotation's dummy hands each entry at most one bye. The
rotation method takes the first rounds in the order the entries are listed; the random method
shuffles the entries, picks which rounds to play at random and who is listed first, all from
`random.Random(seed)`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from tournaments.translation import _

from .pairing import EntryId, Pairing, Round, check_unique
from .round_robin import berger_round

Method = Literal["random", "rotation"]


def preliminary_rounds(
    entries: Sequence[EntryId],
    games: int,
    *,
    method: Method = "random",
    seed: int | str | None = None,
) -> list[Round]:
    """Draw `games` rounds in which each entry meets a different opponent every time.

    Returns the rounds of play, each a list of pairings by entry id. With an odd number of entries
    one entry sits out each round (`Pairing(entry, None)`, the bye, whose worth the caller
    decides); nobody sits out twice. So every entry plays `games` games, or `games - 1` and a bye.

    Raises ValueError when the draw is impossible: fewer than two entries, a negative number of
    games, more games than an entry has opponents, a repeated entry id, or a random draw without
    a seed (it could not be reproduced).
    """
    check_unique(entries)
    count = len(entries)
    if count < 2:
        raise ValueError(_("a preliminary draw needs at least two entries"))
    if games < 0:
        raise ValueError(_("the number of games cannot be negative"))
    if games > count - 1:
        raise ValueError(
            _(
                "%(games)s games against different opponents is impossible with %(count)s "
                "entries: each entry has only %(opponents)s opponents"
            )
            % {"games": games, "count": count, "opponents": count - 1}
        )
    if method not in ("random", "rotation"):
        raise ValueError(
            _("unknown draw method %(method)s: use 'random' or 'rotation'")
            % {"method": repr(method)}
        )

    order: list[EntryId | None] = list(entries)
    if count % 2:
        order.append(None)  # the dummy: whoever meets it has a bye
    size = len(order)

    if method == "rotation":
        chosen = list(range(games))
        rng = None
    else:
        if seed is None:
            raise ValueError(_("a random draw needs a seed, so that it can be made again"))
        rng = random.Random(seed)
        real = order[:count]
        rng.shuffle(real)
        order[:count] = real
        chosen = rng.sample(range(size - 1), games)

    rounds: list[Round] = []
    for index in chosen:
        rnd: Round = []
        for first, second in berger_round(size, index):
            a, b = order[first - 1], order[second - 1]
            if a is None or (b is not None and rng is not None and rng.random() < 0.5):
                a, b = b, a
            assert a is not None
            rnd.append(Pairing(a, b))
        if rng is not None:
            rng.shuffle(rnd)
        rnd.sort(key=lambda p: p.b is None)  # the bye, if any, listed last
        rounds.append(rnd)
    return rounds
