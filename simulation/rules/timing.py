"""Timed play: the game clock, the buzzer, the equalising shot, and rounds time cut short.

The rulebooks' words:

- NCA 8b: "If time runs out in a timed match, one additional shot will be allowed, if necessary, to
  equalize the number of shots."
- WCC, Rules For Tournament Play: "Strict timing for the games must be observed. A buzzer will be
  used to begin and end play. If some discs have not been shot when the ending buzzer sounds they
  will remain non played. However, if a player or team has had one less shot, they will be allowed
  to take one last shot immediately after the buzzer to even out number of shots taken. The round
  will be scored by the discs on the board at that time."
- WCC, Tournament Scoring Information: "For any round where no discs are shot before time expires,
  both teams will record a zero for that round."

So when the buzzer sounds the round in play is finished by the equalising shot (a side that has
had one shot fewer takes one more; in the three-player game alone, each player short of the most
takes one) and counted as it stands; the rounds of the game not yet begun, and a round in which no
disc was shot, record 0-0 (0-0-0). A shot is released at the end of the time it takes (setting
up, aiming); a shot whose time would run past the limit is not released before the buzzer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.translation import _


def check_time_limit(minutes: object) -> float | None:
    """The time limit in minutes (positive, finite) or None for an untimed game."""
    if minutes is None:
        return None
    if isinstance(minutes, bool) or not isinstance(minutes, int | float):
        raise ValueError(
            _("time_limit must be a number of minutes or null, not %(minutes)r")
            % {"minutes": minutes}
        )
    if not math.isfinite(minutes) or minutes <= 0:
        raise ValueError(
            _("time_limit must be a positive number of minutes, not %(minutes)r")
            % {"minutes": minutes}
        )
    return float(minutes)


def check_shot_seconds(seconds: object, what: str = "shot_seconds") -> float:
    """A shot's duration in seconds: a finite number of at least 0."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError(
            _("%(what)s must be a number of seconds, not %(seconds)r")
            % {"what": what, "seconds": seconds}
        )
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(
            _("%(what)s must be a finite number of seconds of at least 0, not %(seconds)s")
            % {"what": what, "seconds": seconds}
        )
    return float(seconds)


@dataclass
class GameClock:
    """The game's clock: the limit in seconds (None: untimed), the time used, the buzzer."""

    limit: float | None
    elapsed: float = 0.0
    expired: bool = False

    @classmethod
    def of_minutes(cls, minutes: float | None, elapsed: float = 0.0) -> GameClock:
        """A clock for a limit in minutes (None for an untimed game)."""
        limit = check_time_limit(minutes)
        return cls(limit=None if limit is None else 60.0 * limit, elapsed=elapsed)

    def release(self, seconds: float) -> bool:
        """Run the clock for a shot that takes ``seconds``; whether it is released in time.

        The first shot that would be released after the limit sounds the buzzer: it is not
        released, and the clock stops at the limit.
        """
        if self.expired:
            return False
        if self.limit is not None and self.elapsed + seconds > self.limit:
            self.elapsed = self.limit
            self.expired = True
            return False
        self.elapsed += seconds
        return True

    def equalise(self, seconds: float) -> None:
        """Count an equalising shot taken after the buzzer (WCC: "immediately after the buzzer")."""
        self.elapsed += seconds

    def to_json(self) -> dict[str, object]:
        """The clock as the records give it: limit (minutes), seconds used, whether time expired."""
        return {
            "limit_minutes": None if self.limit is None else self.limit / 60.0,
            "elapsed_seconds": round(self.elapsed, 3),
            "expired": self.expired,
        }


def equalising_shot_due(shots_per_side: Sequence[int], side: int) -> bool:
    """Whether ``side``, next to shoot after the buzzer, is owed a shot to even out the shots.

    NCA 8b: one additional shot "if necessary, to equalize the number of shots"; WCC: "if a player
    or team has had one less shot, they will be allowed to take one last shot". A side is owed a
    shot when it has had fewer than the side that has had most.
    """
    return shots_per_side[side] < max(shots_per_side)
