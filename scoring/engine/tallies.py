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
    """What one entry did: games, points and 20s in all, and against each opponent.

    ``games``, ``points`` and ``twenties`` include the byes credited to the entry; ``byes`` says
    how many of its games were byes. ``board`` is the total of the entry's own board scores (20s
    included) over the rounds whose scorecard kept them; ``unscored`` counts the rounds it played
    whose board scores were not kept (a round time ran out on before a disc was shot is 0-0 by
    rule, so it is not one of them).
    """

    games: int = 0
    points: int = 0
    twenties: int = 0
    byes: int = 0
    board: int = 0
    unscored: int = 0
    #: opponent -> [points scored against it, 20s scored against it, games won against it]
    against: dict[str, list[int]] = field(default_factory=dict)

    @property
    def played(self) -> int:
        """Games played at a board: all the games less the byes."""
        return self.games - self.byes


@dataclass(frozen=True, slots=True)
class Credit:
    """Games, points and 20s awarded without a game being played: a bye in an odd field, or a
    walkover (the opponent withdrew or was disqualified, or forfeited the game on the head
    referee's ruling; the side that forfeits is credited the game and nothing else).

    The scoring system decides what a bye (and so a walkover) is worth, with the event's figure
    where the system allows one (:meth:`.systems.ScoringSystem.unplayed_game`); the credit counts
    in the entry's totals (points, 20s, games) but not against any opponent, so no head-to-head
    step ever sees it. ``games`` is the number of byes (and walkovers): the Buchholz counts each
    as described in :func:`.tiebreaks.buchholz`, as FIDE counts a game not played.
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
        tally.byes += credit.games
        tally.points += credit.points
        tally.twenties += credit.twenties
    for game in games:
        if game.c is None:
            _tally_pair(tallies, game)
        else:
            _tally_sides(tallies, game)
    return tallies


def _tally_pair(tallies: dict[str, Tally], game: Game) -> None:
    """A two-sided game, added up in one tight loop: standings pages add up thousands."""
    points_a = points_b = twenties_a = twenties_b = board_a = board_b = unscored = 0
    for round_ in game.rounds:
        points = round_.points
        twenties = round_.twenties
        points_a += points[0]
        points_b += points[1]
        twenties_a += twenties[0]
        twenties_b += twenties[1]
        score = round_.score
        if score is not None:
            board_a += score[0]
            board_b += score[1]
        elif points[0] or points[1]:  # played, but the card kept only the points
            unscored += 1
    won_a, won_b = points_a > points_b, points_b > points_a
    _add(tallies, game.a, [game.b], points_a, twenties_a, board_a, unscored, won_a)
    _add(tallies, game.b, [game.a], points_b, twenties_b, board_b, unscored, won_b)


def _tally_sides(tallies: dict[str, Tally], game: Game) -> None:
    """A three-player game: each player's totals, and a win only for the leader alone."""
    sides = game.sides
    count = len(sides)
    points = [0] * count
    twenties = [0] * count
    board = [0] * count
    unscored = 0
    for round_ in game.rounds:
        score = round_.score
        for side in range(count):
            points[side] += round_.points[side]
            twenties[side] += round_.twenties[side]
            if score is not None:
                board[side] += score[side]
        if score is None and any(round_.points):
            unscored += 1
    best = max(points)
    alone = points.count(best) == 1
    for side, entry in enumerate(sides):
        opponents = [other for other in sides if other != entry]
        won = alone and points[side] == best
        _add(tallies, entry, opponents, points[side], twenties[side], board[side], unscored, won)


def _add(
    tallies: dict[str, Tally],
    entry: str,
    opponents: list[str],
    points: int,
    twenties: int,
    board: int,
    unscored: int,
    won: bool,
) -> None:
    """Add one game of ``entry``; in a three-player game both opponents see the whole game
    (the points and 20s the entry made at the board with them)."""
    tally = tallies.get(entry)
    if tally is None:
        tally = tallies[entry] = Tally()
    tally.games += 1
    tally.points += points
    tally.twenties += twenties
    tally.board += board
    tally.unscored += unscored
    for opponent in opponents:
        figures = tally.against.get(opponent)
        if figures is None:
            tally.against[opponent] = [points, twenties, int(won)]
        else:
            figures[POINTS] += points
            figures[TWENTIES] += twenties
            figures[WINS] += won
