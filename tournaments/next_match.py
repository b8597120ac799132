"""When a player's next match should start: "in about N minutes", from what the board still
has to play before it.

Pure: plain numbers and datetimes in, plain numbers out, so the estimate is tested on its own
and the pages (the private link's "Next" block, the public player page) only gather the board's
queue (``scoring.results.next_match``) and print what comes back.

The estimate is deliberately the *earliest* the match may start: each match ahead counts the
fewest games that can still decide it (the leader winning out), at the time limit of a game
(WCC: "Strict timing for the games must be observed"; a game seldom ends long before the
buzzer). A player told too early waits a few minutes at the board; one told too late misses
the call.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

#: A wait shorter than this is "now" to a player: the game ahead is on its last round.
NOW_MINUTES = 1


def games_left(*, best_of: int, wins: Sequence[int], played: int, fixed: bool) -> int:
    """The fewest games a match not yet decided may still need.

    ``wins``: the games each side has won; ``played``: the games already over (won, drawn or
    forfeited). A fixed match plays all its ``best_of`` games; a best of N ends when a side wins
    a majority, so the leader winning every game still to play is the shortest way."""
    left = max(best_of - played, 0)
    if fixed:
        return left
    needed = best_of // 2 + 1 - max(wins, default=0)
    return max(min(left, needed), 0)


@dataclass(frozen=True)
class Ahead:
    """One match on the board before ours, not decided yet."""

    #: The fewest games it may still need (:func:`games_left`).
    games: int
    #: How long one of its games lasts (its tournament's time limit per game).
    minutes_per_game: float


@dataclass(frozen=True)
class Estimate:
    """When the match should start: ``minutes`` from now (0: now), and whether the stage's
    schedule set it (a start time later than the board would be free) rather than the board."""

    minutes: int
    scheduled: bool = False

    @property
    def now(self) -> bool:
        return self.minutes < NOW_MINUTES


def estimate_start(
    ahead: Sequence[Ahead],
    *,
    now: datetime,
    starts_at: datetime | None = None,
    current_since: datetime | None = None,
    round_ends_at: datetime | None = None,
) -> Estimate:
    """Minutes until the match can start on its board.

    - ``ahead``: the matches on the same board before it, in the order they are played, not
      decided yet; the first is on the board now.
    - ``current_since``: when the game on the board now began (the round clock's run), which
      takes what has been played of it off the wait (never below nothing).
    - ``starts_at``: the stage's scheduled start of the match; the match does not start before
      it, however free the board.
    - ``round_ends_at``: when the round of play in progress ends (the round clock's buzzer), for
      a match of a later round: the hall starts a round on the buzzer (WCC: "A buzzer will be
      used to begin and end play"), so it waits for it even on a free board.
    """
    wait = 0.0
    for index, match in enumerate(ahead):
        minutes = match.games * match.minutes_per_game
        if index == 0 and current_since is not None and match.games:
            played = max((now - current_since).total_seconds() / 60, 0.0)
            minutes -= min(played, match.minutes_per_game)
        wait += max(minutes, 0.0)
    scheduled = False
    for later, by_schedule in ((round_ends_at, False), (starts_at, True)):
        if later is None:
            continue
        until = (later - now).total_seconds() / 60
        if until > wait:
            wait, scheduled = until, by_schedule
    return Estimate(minutes=math.ceil(wait - 1e-9) if wait > 0 else 0, scheduled=scheduled)
