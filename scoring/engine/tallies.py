"""Per-entry totals, and per-opponent totals, gathered in one pass over the games.

Tiebreak steps look only at these tallies, never at the games again: the points or 20s an entry
scored against the others of a tied group are the sum over its opponents in the group, so a step
costs the number of games of the tied entries, not the number of games in the stage.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .games import Game

#: Index of each figure in :attr:`Tally.against` lists.
POINTS, TWENTIES, WINS = 0, 1, 2


@dataclass(slots=True)
class Tally:
    """What one entry did: games, points and 20s in all, and against each opponent."""

    games: int = 0
    points: int = 0
    twenties: int = 0
    #: opponent -> [points scored against it, 20s scored against it, games won against it]
    against: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Credit:
    """Games, points and 20s awarded without a game being played: a bye in an odd field.

    The event decides what a bye is worth; the credit counts in the entry's totals (points, 20s,
    games) but not against any opponent, so no head-to-head step ever sees it.
    """

    games: int = 1
    points: int = 0
    twenties: int = 0


def tally_games(
    games: Iterable[Game], entries: Iterable[str] = (), credits: Mapping[str, Credit] | None = None
) -> dict[str, Tally]:
    """Add up every game once; ``entries`` without games get an empty tally; ``credits`` (byes)
    are added to the totals of their entries."""
    tallies: dict[str, Tally] = {entry: Tally() for entry in entries}
    for entry, credit in (credits or {}).items():
        tally = tallies.setdefault(entry, Tally())
        tally.games += credit.games
        tally.points += credit.points
        tally.twenties += credit.twenties
    for game in games:
        points_a = points_b = twenties_a = twenties_b = 0
        for round_ in game.rounds:
            points = round_.points
            twenties = round_.twenties
            points_a += points[0]
            points_b += points[1]
            twenties_a += twenties[0]
            twenties_b += twenties[1]
        _add(tallies, game.a, game.b, points_a, twenties_a, points_a > points_b)
        _add(tallies, game.b, game.a, points_b, twenties_b, points_b > points_a)
    return tallies


def _add(
    tallies: dict[str, Tally], entry: str, opponent: str, points: int, twenties: int, won: bool
) -> None:
    tally = tallies.get(entry)
    if tally is None:
        tally = tallies[entry] = Tally()
    tally.games += 1
    tally.points += points
    tally.twenties += twenties
    figures = tally.against.get(opponent)
    if figures is None:
        tally.against[opponent] = [points, twenties, int(won)]
    else:
        figures[POINTS] += points
        figures[TWENTIES] += twenties
        figures[WINS] += won
