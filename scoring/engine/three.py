"""A round of the three-player game: three players alone at one board, scored 2-1-0 by rank.

Family rulebook, Three-Player Game, Option Two: "each player plays alone and no opponent's disk is
considered friendly. Score using the Match-Play Rule: The player with the highest score gets 2
points, while the second highest gets 1 point, and the third player receives 0 points. If two
players tie for first, they each receive 1 point while the third player receives 0 points. Should
the second highest score be a tie, both players receive 0 points. Play to 8 points." The rulebook
is silent on all three tying; like a tie for first, each of them receives 1 point.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.translation import _

from .errors import EngineInputError, Figures, show
from .rounds import POINTS_LABEL, SCORE_LABEL, TWENTIES_LABEL, check_score

#: How a three-player round's board scores become points (see :func:`three_player_points`).
THREE = "three"
SIDES = 3

Trio = tuple[int, int, int]

#: Every result a three-player round can give, and 0-0-0 when time expired before a disc was shot.
_RESULTS = {(2, 1, 0), (1, 1, 0), (2, 0, 0), (1, 1, 1)}
ROUND_POINTS = frozenset(
    (p[i], p[j], p[k]) for p in _RESULTS for i, j, k in itertools.permutations(range(3))
)
TIME_EXPIRED: Trio = (0, 0, 0)


def three_player_points(scores: Sequence[int]) -> Trio:
    """The round points of the three players from their board scores (the Match-Play Rule)."""
    a, b, c = scores
    trio = (a, b, c)
    best = max(trio)
    first = [s == best for s in trio]
    if sum(first) > 1:
        return (int(first[0]), int(first[1]), int(first[2]))
    rest = [s for s in trio if s != best]
    second = max(rest)
    if rest.count(second) > 1:
        return (2 if a == best else 0, 2 if b == best else 0, 2 if c == best else 0)

    def points(s: int) -> int:
        return 2 if s == best else 1 if s == second else 0

    return (points(a), points(b), points(c))


def _trio(value: object, what: str) -> Trio:
    if (
        not isinstance(value, tuple | list)
        or len(value) != SIDES
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
    ):
        raise EngineInputError(
            _("%(what)s %(value)s must be three whole numbers, one per player")
            % {"what": _(what), "value": show(value)}
        )
    return (value[0], value[1], value[2])


@dataclass(frozen=True, slots=True)
class RoundOfThree:
    """One round of the three-player game, the players in the game's order.

    ``points`` are the round points (see :func:`three_player_points`), ``twenties`` the 20s each
    player sank, ``score`` the board totals (20s included) when kept.
    """

    points: Trio
    twenties: Trio
    score: Trio | None = None
    scoring: str = THREE

    def __post_init__(self) -> None:
        points = _trio(self.points, POINTS_LABEL)
        twenties = _trio(self.twenties, TWENTIES_LABEL)
        if min(twenties) < 0:
            raise EngineInputError.about(
                _("the 20s (%(twenties)s) cannot be negative"), {"twenties": Figures(twenties)}
            )
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "twenties", twenties)
        if self.score is not None:
            score = _trio(self.score, SCORE_LABEL)
            check_score(score, twenties)
            object.__setattr__(self, "score", score)
            expected = three_player_points(score)
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
        elif points not in ROUND_POINTS and points != TIME_EXPIRED:
            raise EngineInputError.about(
                _(
                    "the points (%(points)s) are impossible; a three-player round gives 2-1-0 "
                    "by rank, 1-1-0 for a tie for first, 2-0-0 for a tie for second, 1-1-1 when "
                    "all three tie, or 0-0-0 when time expired"
                ),
                {"points": Figures(points)},
            )
        if points == TIME_EXPIRED and self.score is None and twenties != TIME_EXPIRED:
            raise EngineInputError.about(
                _(
                    "points 0-0-0 mean time expired before a disc was shot, so there can be "
                    "no 20s, but the 20s are %(twenties)s"
                ),
                {"twenties": Figures(twenties)},
            )

    @classmethod
    def from_score(cls, score: Sequence[int], twenties: Sequence[int]) -> RoundOfThree:
        trio = _trio(score, SCORE_LABEL)
        return cls(three_player_points(trio), _trio(twenties, TWENTIES_LABEL), trio)

    @classmethod
    def time_expired(cls) -> RoundOfThree:
        return cls(TIME_EXPIRED, TIME_EXPIRED)

    @property
    def is_time_expired(self) -> bool:
        return self.points == TIME_EXPIRED and self.score is None

    def seen_from(self, order: Sequence[int]) -> RoundOfThree:
        """The same round with the players in ``order`` (indices into the current order)."""
        i, j, k = order
        return RoundOfThree(
            points=(self.points[i], self.points[j], self.points[k]),
            twenties=(self.twenties[i], self.twenties[j], self.twenties[k]),
            score=None if self.score is None else (self.score[i], self.score[j], self.score[k]),
        )
