"""What a person's record says about them (pure; no Django): games won, drawn and lost, rounds
won with and without the hammer, 20s per round, win streaks, and the leaderboards' orders.

A recorded game stores its rounds from side A's point of view (``[points_a, points_b,
twenties_a, twenties_b, first]``, ``first`` the side that shot first, 0 for A and 1 for B, or
absent when nobody wrote it down). Everything here reads a game from one side, the person's
(:class:`SideGame`), so a profile, a head-to-head and a leaderboard count the same way:

- a round is **won**, **tied** or **lost** by its points (2-0, 1-1, 0-2); a round that time ran
  out on before a disc was shot (0-0) was no contest and counts in none of them, nor in the
  rounds that 20s per round divides by;
- the **hammer** is the last shot of a round: the side that did not shoot first has it. A round
  whose first shooter is unknown is counted apart (``won_hammer_unknown``), so rounds won with the
  hammer, without it and unknown always add up to the rounds won;
- a **game** is won or lost by its points; equal points is a draw (a preliminary game can end
  4-4);
- a **win streak** is a run of games won one after another in the order they were played; a
  draw or a loss ends it (a draw is not a win), so no streak is longer than the games won.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

Outcome = Literal["win", "draw", "loss"]


@dataclass(frozen=True)
class SideRound:
    """One round seen from one side: its points and 20s, and whether that side had the hammer
    (None when who shot first was not recorded)."""

    points_for: int
    points_against: int
    twenties_for: int
    twenties_against: int
    hammer: bool | None = None

    @property
    def contested(self) -> bool:
        """False for a round that time ran out on before a disc was shot (0-0)."""
        return not (self.points_for == 0 and self.points_against == 0)

    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.points_for, self.points_against)


@dataclass(frozen=True)
class SideGame:
    """One game seen from one side: its totals and its rounds (empty when the record has only
    the totals)."""

    points_for: int
    points_against: int
    twenties_for: int
    twenties_against: int
    rounds: tuple[SideRound, ...] = ()

    @property
    def outcome(self) -> Outcome:
        return outcome_of(self.points_for, self.points_against)


def outcome_of(points_for: int, points_against: int) -> Outcome:
    if points_for > points_against:
        return "win"
    if points_for < points_against:
        return "loss"
    return "draw"


def side_rounds(rounds: Sequence[Sequence[int | None]], side: int) -> tuple[SideRound, ...]:
    """A recorded game's rounds (side A's view, with the optional first shooter) seen from
    ``side`` (0 for A, 1 for B)."""
    out = []
    for line in rounds:
        # A short or partly empty line counts its missing numbers as 0 rather than failing a
        # whole profile on one odd imported round.
        numbers = [int(v or 0) for v in line[:4]] + [0] * (4 - len(line[:4]))
        points_a, points_b, twenties_a, twenties_b = numbers
        first = line[4] if len(line) > 4 else None
        hammer = None if first not in (0, 1) else first != side
        if side == 0:
            out.append(SideRound(points_a, points_b, twenties_a, twenties_b, hammer))
        else:
            out.append(SideRound(points_b, points_a, twenties_b, twenties_a, hammer))
    return tuple(out)


def side_game(
    side: int,
    points: tuple[int, int],
    twenties: tuple[int, int],
    rounds: Sequence[Sequence[int | None]] = (),
) -> SideGame:
    """A recorded game (totals as ``(a, b)``) seen from ``side`` (0 for A, 1 for B)."""
    mine, theirs = (0, 1) if side == 0 else (1, 0)
    return SideGame(
        points[mine], points[theirs], twenties[mine], twenties[theirs], side_rounds(rounds, side)
    )


@dataclass(frozen=True)
class Summary:
    """A run of games from one side: what a profile's summary and a head-to-head's totals show.

    ``rounds`` counts the contested rounds of the games that list their rounds; ``twenties`` and
    ``twenties_against`` are the games' totals (every game), while ``round_twenties`` counts the
    20s of the listed rounds only, the numerator of :attr:`twenties_per_round`."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points_for: int = 0
    points_against: int = 0
    twenties: int = 0
    twenties_against: int = 0
    rounds: int = 0
    rounds_won: int = 0
    rounds_tied: int = 0
    rounds_lost: int = 0
    round_twenties: int = 0
    round_twenties_against: int = 0
    hammer_rounds: int = 0
    won_with_hammer: int = 0
    no_hammer_rounds: int = 0
    won_without_hammer: int = 0
    won_hammer_unknown: int = 0
    longest_streak: int = 0

    @property
    def twenties_per_round(self) -> float | None:
        return self.round_twenties / self.rounds if self.rounds else None

    @property
    def twenties_against_per_round(self) -> float | None:
        return self.round_twenties_against / self.rounds if self.rounds else None

    @property
    def hammer_win_rate(self) -> float | None:
        """Share of the rounds played with the hammer that were won."""
        return self.won_with_hammer / self.hammer_rounds if self.hammer_rounds else None

    @property
    def no_hammer_win_rate(self) -> float | None:
        return self.won_without_hammer / self.no_hammer_rounds if self.no_hammer_rounds else None

    @property
    def win_rate(self) -> float | None:
        """Games won, a draw counted half."""
        return (self.wins + self.draws / 2) / self.games if self.games else None


def summarise(games: Iterable[SideGame]) -> Summary:
    """The totals of ``games`` (in the order played, for the longest streak)."""
    counts = dict.fromkeys(Summary.__dataclass_fields__, 0)
    outcomes = []
    for game in games:
        counts["games"] += 1
        result = game.outcome
        outcomes.append(result)
        counts[{"win": "wins", "draw": "draws", "loss": "losses"}[result]] += 1
        counts["points_for"] += game.points_for
        counts["points_against"] += game.points_against
        counts["twenties"] += game.twenties_for
        counts["twenties_against"] += game.twenties_against
        for rnd in game.rounds:
            if not rnd.contested:
                continue
            counts["rounds"] += 1
            counts["round_twenties"] += rnd.twenties_for
            counts["round_twenties_against"] += rnd.twenties_against
            won = rnd.outcome == "win"
            key = {"win": "rounds_won", "draw": "rounds_tied", "loss": "rounds_lost"}[rnd.outcome]
            counts[key] += 1
            if rnd.hammer is None:
                counts["won_hammer_unknown"] += won
            elif rnd.hammer:
                counts["hammer_rounds"] += 1
                counts["won_with_hammer"] += won
            else:
                counts["no_hammer_rounds"] += 1
                counts["won_without_hammer"] += won
    counts["longest_streak"] = longest_streak(outcomes).length
    return Summary(**counts)


@dataclass(frozen=True)
class Streak:
    """A run of wins: its length and the positions (in the list given) of its first and last
    game; ``start`` and ``end`` are None for no streak at all."""

    length: int = 0
    start: int | None = None
    end: int | None = None


def longest_streak(outcomes: Sequence[Outcome]) -> Streak:
    """The longest run of consecutive wins (the earliest of equal runs); a draw or a loss ends a
    run."""
    best = Streak()
    run_start = None
    for index, result in enumerate(outcomes):
        if result != "win":
            run_start = None
            continue
        if run_start is None:
            run_start = index
        length = index - run_start + 1
        if length > best.length:
            best = Streak(length, run_start, index)
    return best


@dataclass(frozen=True)
class Performance:
    """One side's 20s in one game, for the "most 20s in a game" board."""

    who: Hashable
    game: Hashable
    twenties: int
    rounds: int
    played_on: date


def most_twenties(performances: Iterable[Performance], limit: int = 20) -> list[Performance]:
    """The best games by 20s: more 20s first, then fewer rounds (the same 20s in fewer rounds is
    the better game), then the earlier game (who did it first)."""
    return sorted(performances, key=lambda p: (-p.twenties, p.rounds, p.played_on))[:limit]


@dataclass(frozen=True)
class RateLine:
    who: Hashable
    twenties: int
    rounds: int

    @property
    def rate(self) -> float:
        return self.twenties / self.rounds if self.rounds else 0.0


#: The fewest rounds for a place on the 20s-per-round board: about ten games, so that one
#: lucky evening does not top it.
MIN_ROUNDS = 40


def best_rates(
    lines: Iterable[RateLine], limit: int = 20, min_rounds: int = MIN_ROUNDS
) -> list[RateLine]:
    """The best 20s per round among those with at least ``min_rounds`` rounds; a tie goes to the
    one with more rounds (the steadier rate)."""
    kept = [line for line in lines if line.rounds >= min_rounds]
    return sorted(kept, key=lambda line: (-line.rate, -line.rounds))[:limit]


def top_streaks(
    streaks: Iterable[tuple[Hashable, Streak]], limit: int = 20
) -> list[tuple[Hashable, Streak]]:
    """The longest streaks, longest first; equal ones keep the order given (the caller's order
    of who reached it first)."""
    kept = [(who, streak) for who, streak in streaks if streak.length > 0]
    return sorted(kept, key=lambda item: -item[1].length)[:limit]
