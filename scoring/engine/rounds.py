"""One round: every player shoots all their discs once, then the board is counted.

A round is kept as the points each side earned (2-1-0), the 20s each side sank and, when known,
the board totals the points came from. The invariants checked here are the ones any scorecard must
satisfy whatever the category; the ones that depend on how many discs a side has are in
:func:`check_round`, because the number of discs depends on the category (WCC Tournament Scoring
Information: 8 discs each in singles, 6 each in doubles, 5 or 6 with cues).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tournaments.translation import _, gettext_noop

from .errors import EngineInputError, Figures, show

#: WCC Tournament Scoring Information: "Adult and Recreational Singles: 8 discs each per round".
DEFAULT_DISCS = 8

#: Every region of the board is worth a multiple of 5 (NCA 6a: 20, 15, 10 and 5).
DISC_VALUE_STEP = 5
TWENTY = 20
#: The most a disc can score without being a 20 (NCA 6a: the region around the hole counts 15).
FIFTEEN = 15

#: NCA 2a iv: higher score 2 points, a tie 1 each; WCC Tournament Scoring Information: a round in
#: which no disc was shot before time expired is 0-0.
ROUND_POINTS = frozenset({(2, 0), (1, 1), (0, 2), (0, 0)})
TIME_EXPIRED = (0, 0)

Pair = tuple[int, int]

#: What a message names when a value is wrong; translated when the message is built.
POINTS_LABEL = gettext_noop("points")
TWENTIES_LABEL = gettext_noop("20s")
SCORE_LABEL = gettext_noop("board score")


class RoundLike(Protocol):
    """What :func:`check_round` reads of a round of any number of sides."""

    twenties: tuple[int, ...]
    score: tuple[int, ...] | None


#: How a round's board scores become its points. NCA 2a iv (and the family rulebook's match-play
#: rule): 2 to the higher score, 1 each for a tie. Family rulebook Scoring 5: the winner adds the
#: difference of the scores, the other side 0, a tie gives nothing.
TWO_ONE_ZERO = "2-1-0"
DIFFERENCE = "difference"
ROUND_SCORINGS = (TWO_ONE_ZERO, DIFFERENCE)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def as_pair(value: object, what: str) -> Pair:
    """Check that ``value`` is two whole numbers (one per side) and return it as a tuple.

    ``what`` names the value in the message (marked with ``gettext_noop``, translated here).
    """
    if type(value) is tuple and len(value) == 2 and type(value[0]) is type(value[1]) is int:
        return value  # the common case, kept cheap: standings pages build thousands of rounds
    if (
        not isinstance(value, tuple | list)
        or len(value) != 2
        or not _is_whole(value[0])
        or not _is_whole(value[1])
    ):
        raise EngineInputError(
            _("%(what)s %(value)s must be a pair of whole numbers, one per side")
            % {"what": _(what), "value": show(value)}
        )
    return (value[0], value[1])


def points_from_score(score: Pair) -> Pair:
    """The round points that follow from the board totals.

    NCA 2a iv: "The player or team with the higher score shall receive 2 points. If the round is
    tied, each player or team shall receive 1 point." (WCC Scoring says the same.)
    """
    a, b = score
    if a > b:
        return (2, 0)
    if a < b:
        return (0, 2)
    return (1, 1)


def points_from_winner(winner: int | None) -> Pair:
    """The round points of a two-sided round told by who won it: side ``winner`` (0 or 1), or
    ``None`` for a tied round.

    NCA 2a iv, as :func:`points_from_score` applies it to the board totals: 2 to the side with
    the higher score, 1 each for a tie. A card that asks "who won the round?" instead of the
    points gets them from here, so the rule is written once.
    """
    if winner is None:
        return points_from_score((0, 0))
    if winner not in (0, 1):
        raise EngineInputError(
            _("the winner of a round is side 0 or 1 (or none), not %(winner)s")
            % {"winner": repr(winner)}
        )
    return points_from_score((1, 0) if winner == 0 else (0, 1))


def round_winner(points: Pair) -> int | None:
    """Who won a two-sided round with these points: side 0 or 1, or ``None`` when level (a tie,
    or a round time ran out on); what a card's "who won?" question shows for a stored round."""
    a, b = as_pair(points, POINTS_LABEL)
    if a == b:
        return None
    return 0 if a > b else 1


def difference_points(score: Pair) -> Pair:
    """Family rulebook Scoring 5: "Only the difference between the higher and lower scores is
    added to the score of the winning player/partnership, with the second place ... scoring 0 for
    that round. In the event of a tie, neither ... adds to their scores for that round." """
    a, b = score
    return (a - b, 0) if a >= b else (0, b - a)


_POINTS_FROM_SCORE = {TWO_ONE_ZERO: points_from_score, DIFFERENCE: difference_points}


def check_score(score: tuple[int, ...], twenties: tuple[int, ...]) -> None:
    """Board scores in fives, never negative, and at least the 20s they include (any number
    of sides)."""
    for value in score:
        if value < 0 or value % DISC_VALUE_STEP:
            raise EngineInputError.about(
                _(
                    "the board scores (%(score)s) are impossible; every disc counts 5, 10, 15 "
                    "or 20, so a board score is a multiple of 5 and never negative"
                ),
                {"score": Figures(score)},
            )
    for value, count in zip(score, twenties, strict=True):
        if value < TWENTY * count:
            raise EngineInputError.about(
                _(
                    "the board scores (%(score)s) are impossible with these 20s "
                    "(%(twenties)s); %(count)s 20s alone make %(least)s (the score includes "
                    "the 20s)"
                ),
                {
                    "score": Figures(score),
                    "twenties": Figures(twenties),
                    "count": count,
                    "least": TWENTY * count,
                },
            )


@dataclass(frozen=True, slots=True)
class Round:
    """The result of one round for the two sides of a game, side ``a`` first.

    ``points`` are the round points (2-0, 1-1, 0-2, or 0-0 when time expired before a disc was
    shot), ``twenties`` the 20s each side sank (tiebreak material), ``score`` the board totals
    including the 20s when the scorecard has them. Lists are accepted and stored as tuples.

    ``scoring`` says how the points follow from the board: ``"2-1-0"`` (NCA, match play) or
    ``"difference"`` (the family rulebook's game to 100), where the points are the difference of
    the board scores, so those must be known unless time expired.
    """

    points: Pair
    twenties: Pair
    score: Pair | None = None
    scoring: str = TWO_ONE_ZERO

    def __post_init__(self) -> None:
        if self.scoring != TWO_ONE_ZERO:
            self._check_other_scoring()
            return
        twenties = as_pair(self.twenties, TWENTIES_LABEL)
        if twenties[0] < 0 or twenties[1] < 0:
            raise EngineInputError.about(
                _("the 20s (%(twenties)s) cannot be negative"), {"twenties": Figures(twenties)}
            )
        points = as_pair(self.points, POINTS_LABEL)
        if self.score is not None:
            score = as_pair(self.score, SCORE_LABEL)
            check_score(score, twenties)
            expected = points_from_score(score)
            if points != expected:
                raise EngineInputError.about(
                    _(
                        "the points (%(points)s) do not follow from the board scores "
                        "(%(score)s), which give %(expected)s"
                    ),
                    {
                        "points": Figures(points),
                        "score": Figures(score),
                        "expected": Figures(expected),
                    },
                )
            if score is not self.score:
                object.__setattr__(self, "score", score)
        elif points not in ROUND_POINTS:
            raise EngineInputError.about(
                _(
                    "the points (%(points)s) are impossible; a round scores 2-0, 1-1, 0-2, "
                    "or 0-0 when time expired"
                ),
                {"points": Figures(points)},
            )
        if points == TIME_EXPIRED and twenties != (0, 0):
            raise EngineInputError.about(
                _(
                    "points 0-0 mean time expired before a disc was shot, so there can be no "
                    "20s, but the 20s are %(twenties)s"
                ),
                {"twenties": Figures(twenties)},
            )
        if points is not self.points:
            object.__setattr__(self, "points", points)
        if twenties is not self.twenties:
            object.__setattr__(self, "twenties", twenties)

    def _check_other_scoring(self) -> None:
        if self.scoring not in _POINTS_FROM_SCORE:
            known = ", ".join(ROUND_SCORINGS)
            raise EngineInputError(
                _("unknown round scoring %(scoring)s; known: %(known)s")
                % {"scoring": repr(self.scoring), "known": known}
            )
        twenties = as_pair(self.twenties, TWENTIES_LABEL)
        if twenties[0] < 0 or twenties[1] < 0:
            raise EngineInputError.about(
                _("the 20s (%(twenties)s) cannot be negative"), {"twenties": Figures(twenties)}
            )
        points = as_pair(self.points, POINTS_LABEL)
        object.__setattr__(self, "twenties", twenties)
        object.__setattr__(self, "points", points)
        if self.score is None:
            if points != TIME_EXPIRED or twenties != (0, 0):
                raise EngineInputError(
                    _(
                        "this game is scored by the difference of the board scores, so give both "
                        "board scores (or mark the round as one that time ran out on)"
                    )
                )
            return
        score = as_pair(self.score, SCORE_LABEL)
        check_score(score, twenties)
        object.__setattr__(self, "score", score)
        expected = _POINTS_FROM_SCORE[self.scoring](score)
        if points != expected:
            raise EngineInputError.about(
                _(
                    "the points (%(points)s) do not follow from the board scores "
                    "(%(score)s), which give %(expected)s"
                ),
                {
                    "points": Figures(points),
                    "score": Figures(score),
                    "expected": Figures(expected),
                },
            )

    @classmethod
    def from_score(cls, score: Pair, twenties: Pair, scoring: str = TWO_ONE_ZERO) -> Round:
        """Build a round from the board totals (20s included); the points follow from them."""
        pair = as_pair(score, SCORE_LABEL)
        if scoring not in _POINTS_FROM_SCORE:
            known = ", ".join(ROUND_SCORINGS)
            raise EngineInputError(
                _("unknown round scoring %(scoring)s; known: %(known)s")
                % {"scoring": repr(scoring), "known": known}
            )
        points = _POINTS_FROM_SCORE[scoring](pair)
        return cls(points=points, twenties=twenties, score=pair, scoring=scoring)

    @classmethod
    def time_expired(cls, scoring: str = TWO_ONE_ZERO) -> Round:
        """A round time ran out on before a disc was shot.

        WCC Tournament Scoring Information: "For any round where no discs are shot before time
        expires, both teams will record a zero for that round."
        """
        return cls(points=TIME_EXPIRED, twenties=(0, 0), scoring=scoring)

    @property
    def is_time_expired(self) -> bool:
        """No disc was shot before time ran out: 0-0 with no 20s and no board scores."""
        return self.points == TIME_EXPIRED and self.score is None and self.twenties == (0, 0)

    def mirrored(self) -> Round:
        """The same round seen from the other side of the board."""
        return Round(
            points=(self.points[1], self.points[0]),
            twenties=(self.twenties[1], self.twenties[0]),
            score=(self.score[1], self.score[0]) if self.score is not None else None,
            scoring=self.scoring,
        )


def check_round(round_: Round | RoundLike, discs: int = DEFAULT_DISCS) -> None:
    """Check what depends on the number of discs a side shoots in a round.

    A side cannot sink more 20s than it has discs, and its board total cannot exceed 20 for each
    20 plus 15 for every other disc (NCA 6a; WCC Tournament Scoring Information gives the disc
    counts per category). ``discs`` is per side: 8 in singles, 12 for a doubles team of two.
    """
    if not _is_whole(discs) or discs < 1:
        raise EngineInputError(
            _("discs per side must be a whole number of at least 1, not %(discs)s")
            % {"discs": discs}
        )
    for count in round_.twenties:
        if count > discs:
            raise EngineInputError.about(
                _("the 20s (%(twenties)s) are impossible; a side has only %(discs)s discs"),
                {"twenties": Figures(round_.twenties), "discs": discs},
            )
    if round_.score is None:
        return
    for value, count in zip(round_.score, round_.twenties, strict=True):
        most = TWENTY * count + FIFTEEN * (discs - count)
        if value > most:
            raise EngineInputError.about(
                _(
                    "the board scores (%(score)s) are impossible; %(discs)s discs with "
                    "%(count)s 20s make at most %(most)s"
                ),
                {"score": Figures(round_.score), "discs": discs, "count": count, "most": most},
            )
