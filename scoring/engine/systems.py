"""Scoring systems: how board scores become points, and when a game ends.

Each system is looked up by name in :data:`SYSTEMS` (see :func:`get_system`). Given the board
scores of the rounds played so far, one tuple per round with one score per side (``None`` for a
round in which time expired before a disc was shot), :meth:`ScoringSystem.play` says the points
each round gave, the totals, whether the game is over and which side won.

Each system also says what a game won without play is worth (:meth:`ScoringSystem.unplayed_game`:
a bye, a walkover, a game forfeited on the head referee's ruling). The rulebooks are silent on
it, so the value follows from what a win is worth in the system itself: a walkover must never rank
its winner below a player who lost a game at the board, nor above one who won it outright.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.translation import _, ngettext

from .errors import EngineInputError, show
from .games import GAME_ROUNDS
from .rounds import DIFFERENCE, DISC_VALUE_STEP, TWO_ONE_ZERO, difference_points
from .three import THREE, three_player_points

Scores = Sequence[int] | None


@dataclass(frozen=True, slots=True)
class GameState:
    """Where a game stands: points per round and in total, whether it is over, who won.

    ``winner`` is the index of the winning side (0 for the first), or None while nobody has won
    (the game goes on, or ended level where the system allows a draw).
    """

    round_points: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    over: bool
    winner: int | None


@dataclass(frozen=True, slots=True)
class UnplayedGame:
    """What a game won without play credits: a bye in an odd field, a walkover (the opponent
    withdrew or was disqualified) or a game forfeited on the head referee's ruling.

    ``winner`` points and ``twenties`` 20s go to the side that was there; every other side (the
    one that forfeits; a bye has none) scores ``loser`` points and no 20s.
    """

    winner: int
    loser: int = 0
    twenties: int = 0

    def points_for(self, present: int, sides: int = 2) -> tuple[int, ...]:
        """The game's points, one per side, when side ``present`` wins it without play."""
        return tuple(self.winner if side == present else self.loser for side in range(sides))

    def twenties_for(self, present: int, sides: int = 2) -> tuple[int, ...]:
        """The game's 20s, one per side, when side ``present`` wins it without play."""
        return tuple(self.twenties if side == present else 0 for side in range(sides))


@dataclass(frozen=True, slots=True)
class UnplayedRule:
    """What a system credits a game won without play, as the organizer's stage form tells it.

    ``worth`` is the system's own value of the win; ``settable`` whether a stage may credit other
    points instead (its bye points); ``words`` the rule in words for the organizer.
    """

    worth: int
    settable: bool
    words: str


def _line(totals: Sequence[int]) -> str:
    return "-".join(str(t) for t in totals)


#: Extra round lines a championship card keeps beyond its regular rounds, for the deciding 5th
#: round and one more should that be tied as well (more are written on the back of the card).
PLAYOFF_SPARE_ROUNDS = 2


def _leader(totals: Sequence[int]) -> int | None:
    best = max(totals)
    leaders = [side for side, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


class ScoringSystem(ABC):
    """A way of scoring a game; subclasses say what a round is worth, when the game ends, and
    what a game won without play is worth."""

    name: str = ""
    sides: int = 2
    #: How a round's board scores become its points (see :class:`.rounds.Round`).
    round_scoring: str = TWO_ONE_ZERO
    #: Whether an event may credit a game won without play other points than :meth:`win_worth`
    #: (the stage's bye points), see :meth:`unplayed_game`.
    unplayed_settable: bool = False

    @abstractmethod
    def win_worth(self) -> int:
        """The points a game won without play credits its winner when the event sets nothing
        else: what a win at the board is worth under this system."""

    @abstractmethod
    def unplayed_words(self) -> str:
        """What a bye or a walkover is worth under this system, in words for the organizer."""

    def unplayed_game(self, points: int | None = None, twenties: int = 0) -> UnplayedGame:
        """What a bye, a walkover or a forfeited game credits: :meth:`win_worth` to the winner,
        nothing to the side that forfeits.

        ``points`` (the stage's bye points) replaces the winner's points only where the system
        lets an event choose (:attr:`unplayed_settable`); elsewhere it is not read, since any
        other figure would rank a walkover against the games played. ``twenties`` (the stage's
        bye 20s) is the event's in every system: the 20s count alike whatever scores the games.
        """
        winner = points if points is not None and self.unplayed_settable else self.win_worth()
        return UnplayedGame(winner=winner, loser=0, twenties=twenties)

    def unplayed_rule(self) -> UnplayedRule:
        """The rule of :meth:`unplayed_game` for the organizer's stage form."""
        return UnplayedRule(self.win_worth(), self.unplayed_settable, self.unplayed_words())

    @abstractmethod
    def round_points(self, scores: Sequence[int]) -> tuple[int, ...]:
        """Points for one counted round, from the board scores (20s included) of each side."""

    @abstractmethod
    def status(self, history: Sequence[tuple[int, ...]]) -> tuple[bool, int | None]:
        """``(over, winner)`` given the totals before any round and after each round so far."""

    def play(self, rounds: Sequence[Scores]) -> GameState:
        """Score the rounds played so far; a round played after the game was over is an error."""
        points = [
            (0,) * self.sides if scores is None else self._points(scores, number)
            for number, scores in enumerate(rounds, 1)
        ]
        return self.tally(points)

    def tally(self, round_points: Sequence[Sequence[int]]) -> GameState:
        """Where a game stands from the points each round gave (already scored by this system).

        A round played after the game was over is an error naming that round.
        """
        totals = (0,) * self.sides
        history = [totals]
        over, winner = self.status(history)
        for number, points in enumerate(round_points, 1):
            if over:
                raise EngineInputError(
                    _("round %(number)s is one too many: the game was over after round %(last)s")
                    % {"number": number, "last": number - 1},
                    round=number,
                )
            totals = tuple(t + p for t, p in zip(totals, points, strict=True))
            history.append(totals)
            over, winner = self.status(history)
        return GameState(tuple(tuple(p) for p in round_points), totals, over, winner)

    def fewest_rounds(self) -> int:
        """The fewest rounds a game of this system can take (the lines a card needs at least)."""
        return 1

    def paper_rounds(self) -> int:
        """Round lines a printed card keeps so that a game can be written down to its end: twice
        the fewest rounds (ties and lost rounds), at least 8."""
        return max(8, 2 * self.fewest_rounds())

    def missing(self, played: int, totals: Sequence[int]) -> str:
        """What an unfinished game needs next, in words a referee reads out."""
        return _("round %(round)s is needed: the game stands at %(line)s") % {
            "round": played + 1,
            "line": _line(totals),
        }

    def _points(self, scores: Sequence[int], number: int) -> tuple[int, ...]:
        if len(scores) != self.sides or any(
            isinstance(s, bool) or not isinstance(s, int) or s < 0 or s % DISC_VALUE_STEP
            for s in scores
        ):
            raise EngineInputError(
                _(
                    "%(system)s: round %(number)s: board scores %(scores)s must be "
                    "%(sides)s non-negative multiples of 5, one per side"
                )
                % {
                    "system": self.name,
                    "number": number,
                    "scores": show(list(scores)),
                    "sides": self.sides,
                }
            )
        return self.round_points(scores)


def two_one_zero(scores: Sequence[int]) -> tuple[int, int]:
    """NCA 2a iv: the higher score receives 2 points; a tied round gives each 1 point."""
    a, b = scores
    if a == b:
        return (1, 1)
    return (2, 0) if a > b else (0, 2)


class Nca(ScoringSystem):
    """NCA competitive rules: 2-1-0 per round (NCA 2a iv), a game is 4 rounds (NCA 2b).

    With ``playoff=True`` a game tied after 4 rounds plays a 5th (WCC Scoring: "a 5th round will
    be played as a winner has to be determined"); should that be tied as well, deciding rounds
    continue, since the rule requires a winner. Without it a game tied after 4 rounds is a draw.
    """

    name = "nca"
    #: A game of 2-1-0 rounds has a known range, from a game drawn to every round won, and events
    #: credit a bye differently within it, so the stage may set its own figure.
    unplayed_settable = True

    def __init__(self, rounds: int = GAME_ROUNDS, playoff: bool = False) -> None:
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise EngineInputError(
                _("nca: rounds per game must be at least 1, not %(rounds)s")
                % {"rounds": repr(rounds)}
            )
        self.rounds = rounds
        self.playoff = playoff

    def fewest_rounds(self) -> int:
        return self.rounds

    def paper_rounds(self) -> int:
        return self.rounds + (PLAYOFF_SPARE_ROUNDS if self.playoff else 0)

    def win_worth(self) -> int:
        """Every round won: 8 points in a game of 4 rounds, a bye as a game won 8-0 (a
        deciding round is played only at the board, so it never counts here)."""
        return 2 * self.rounds

    def unplayed_words(self) -> str:
        # A player who loses a game at the board has fewer points than a drawn game gives (at
        # most 3 of 8 in 4 rounds), so a stage that credits at least a draw ranks a walkover
        # above every game lost.
        return ngettext(
            "By default a bye or a walkover counts as a game won %(points)s-0, its %(rounds)s "
            "round won. With fewer than %(draw)s points (a drawn game), a walkover could rank "
            "no higher than a game lost at the board.",
            "By default a bye or a walkover counts as a game won %(points)s-0, all %(rounds)s "
            "rounds won. With fewer than %(draw)s points (a drawn game), a walkover could rank "
            "no higher than a game lost at the board.",
            self.rounds,
        ) % {"points": self.win_worth(), "rounds": self.rounds, "draw": self.rounds}

    def missing(self, played: int, totals: Sequence[int]) -> str:
        following = played + 1
        if played < self.rounds:
            if following == self.rounds:
                return _("round %(round)s is needed: a game has %(rounds)s rounds") % {
                    "round": following,
                    "rounds": self.rounds,
                }
            return _("rounds %(round)s to %(rounds)s are needed: a game has %(rounds)s rounds") % {
                "round": following,
                "rounds": self.rounds,
            }
        return _(
            "round %(round)s is needed: the game is tied %(line)s and a championship "
            "game must have a winner"
        ) % {"round": following, "line": _line(totals)}

    def round_points(self, scores: Sequence[int]) -> tuple[int, ...]:
        return two_one_zero(scores)

    def status(self, history: Sequence[tuple[int, ...]]) -> tuple[bool, int | None]:
        leader = _leader(history[-1])
        if len(history) - 1 < self.rounds:
            return False, None
        if self.playoff and leader is None:
            return False, None
        return True, leader


def _target_words(target: int) -> str:
    """The rule of a game won without play in a system played to a target."""
    return _(
        "A bye or a walkover counts as a game won %(points)s-0: a game to %(target)s is won by "
        "reaching %(target)s, so a walkover ranks with the games won at the board. The scoring "
        "system sets it for every stage."
    ) % {"points": target, "target": target}


class FirstTo(ScoringSystem):
    """Play until a side reaches the target with the lead; a tie there plays one more round.

    Subclasses choose the round points. Family rulebook Scoring 6 ("Play to 100 points. Should
    there be a tie, play one final determining round") and the Match-Play Rule ("Play to 8
    points. Should players/partnerships tie, play one final determining round"): the game ends
    once a side has reached the target and leads alone; a determining round that is tied again
    settles nothing, so rounds go on until one side leads.
    """

    def __init__(self, target: int) -> None:
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise EngineInputError(f"{self.name}: the target must be at least 1, not {target!r}")
        self.target = target

    def win_worth(self) -> int:
        """The target: a game is won by reaching it, and the loser ends short of it (in a
        difference game always, since a round adds to one side only)."""
        return self.target

    def unplayed_words(self) -> str:
        return _target_words(self.target)

    def status(self, history: Sequence[tuple[int, ...]]) -> tuple[bool, int | None]:
        totals = history[-1]
        if max(totals) < self.target:
            return False, None
        leader = _leader(totals)
        return leader is not None, leader

    def fewest_rounds(self) -> int:
        # The most a round gives under 2-1-0 (two or three players) is 2, so the target takes
        # at least target / 2 rounds; a difference game can in principle end in one round.
        if self.round_scoring == DIFFERENCE:
            return 1
        return -(-self.target // 2)

    def missing(self, played: int, totals: Sequence[int]) -> str:
        following = played + 1
        if max(totals) >= self.target:
            return _("round %(round)s is needed: the game is tied %(line)s") % {
                "round": following,
                "line": _line(totals),
            }
        return _(
            "round %(round)s is needed: the game is played to %(target)s points and "
            "stands at %(line)s"
        ) % {"round": following, "target": self.target, "line": _line(totals)}


class DifferenceTo100(FirstTo):
    """Family rulebook Scoring 5-6: the round winner adds the difference of the board scores.

    "Only the difference between the higher and lower scores is added to the score of the winning
    player/partnership, with the second place ... scoring 0 for that round. In the event of a tie,
    neither ... adds to their scores for that round." Play to 100; a tie plays one more round.
    """

    name = "difference-to-100"
    round_scoring = DIFFERENCE

    def __init__(self, target: int = 100) -> None:
        super().__init__(target)

    def round_points(self, scores: Sequence[int]) -> tuple[int, ...]:
        return difference_points((scores[0], scores[1]))


class MatchPlayTo8(FirstTo):
    """Family rulebook, Optional Match-Play Rule: 2 points for the higher score, 1 each for a tie.

    "Play to 8 points. Should players/partnerships tie, play one final determining round."
    """

    name = "match-play-to-8"

    def __init__(self, target: int = 8) -> None:
        super().__init__(target)

    def round_points(self, scores: Sequence[int]) -> tuple[int, ...]:
        return two_one_zero(scores)


class ThreePlayer(FirstTo):
    """Family rulebook, Three-Player Game, Option Two, scored by the Match-Play Rule: three
    players alone, 2-1-0 by rank each round (see :func:`.three.three_player_points`), play to 8;
    a tie at the top plays on until one player leads alone."""

    name = "three-player"
    sides = 3
    round_scoring = THREE

    def __init__(self, target: int = 8) -> None:
        super().__init__(target)

    def round_points(self, scores: Sequence[int]) -> tuple[int, ...]:
        return three_player_points(scores)


class FirstToN(ScoringSystem):
    """Event practice: 2-1-0 per round (NCA 2a iv), the first side to ``target`` points wins.

    When both sides stand at ``target - 1`` a tied round would take both over the line together,
    so from that point the game goes on by pairs of rounds (the even-number-of-rounds rule): a
    side wins once it leads after an even number of extra rounds, so that both sides have had the
    hammer (the last shot) equally often (NCA 4b: players alternate starting each round).
    """

    name = "first-to-N"

    def __init__(self, target: int) -> None:
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            raise EngineInputError(
                _("first-to-N: the target must be at least 1, not %(target)s")
                % {"target": repr(target)}
            )
        self.target = target
        self.name = f"first-to-{target}"

    def fewest_rounds(self) -> int:
        return -(-self.target // 2)

    def win_worth(self) -> int:
        """The target: a game is won by reaching it first."""
        return self.target

    def unplayed_words(self) -> str:
        return _target_words(self.target)

    def missing(self, played: int, totals: Sequence[int]) -> str:
        following = played + 1
        if max(totals) < self.target and totals != (self.target - 1, self.target - 1):
            return _(
                "round %(round)s is needed: the game is played to %(target)s points and "
                "stands at %(line)s"
            ) % {"round": following, "target": self.target, "line": _line(totals)}
        return _(
            "round %(round)s is needed: both sides reached %(reached)s, so the game "
            "goes on by pairs of rounds until one leads after a pair (now %(line)s)"
        ) % {"round": following, "reached": self.target - 1, "line": _line(totals)}

    def round_points(self, scores: Sequence[int]) -> tuple[int, ...]:
        return two_one_zero(scores)

    def status(self, history: Sequence[tuple[int, ...]]) -> tuple[bool, int | None]:
        level = (self.target - 1, self.target - 1)
        start = next((i for i, totals in enumerate(history) if totals == level), None)
        leader = _leader(history[-1])
        if start is None:
            if max(history[-1]) >= self.target:
                return True, leader
            return False, None
        extra = len(history) - 1 - start
        if extra > 0 and extra % 2 == 0 and leader is not None:
            return True, leader
        return False, None


#: Every scoring system by name; the values build a system from keyword parameters.
SYSTEMS: dict[str, Callable[..., ScoringSystem]] = {
    Nca.name: Nca,
    DifferenceTo100.name: DifferenceTo100,
    MatchPlayTo8.name: MatchPlayTo8,
    ThreePlayer.name: ThreePlayer,
    "first-to-N": FirstToN,
}

_FIRST_TO = re.compile(r"first-to-(\d+)")


def get_system(name: str, **params: object) -> ScoringSystem:
    """Build the scoring system called ``name`` (``first-to-11`` is ``first-to-N`` with 11)."""
    match = _FIRST_TO.fullmatch(name)
    if match:
        return FirstToN(int(match.group(1)))
    try:
        factory = SYSTEMS[name]
    except KeyError:
        known = ", ".join(sorted(SYSTEMS))
        raise EngineInputError(
            _("unknown scoring system %(name)s; known: %(known)s")
            % {"name": repr(name), "known": known}
        ) from None
    try:
        return factory(**params)
    except TypeError as error:
        raise EngineInputError(f"{name}: {error}") from None
