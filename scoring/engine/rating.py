"""Ratings from rounds (pure; no Django): a belief about each person's level, moved by every round
of every recorded game, with its uncertainty.

The update is openskill's (Weng-Lin, a maintained library): each round of a game is one contest
between the two sides, won, lost or tied (2-1-0), so a 5-3 game moves the players less than an
8-0, and a drawn round counts as the draw it is. Doubles rate the two partners as two people of one
side. ``RatingBook`` is the whole state; ``replay`` builds it from a record in order, and
``RatingBook.update`` moves it by one game, which is what the app does after a verified result.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from math import erf, sqrt

from openskill.models import ThurstoneMostellerFull

#: Where every person starts, and the spread of that first belief (openskill's defaults).
MU, SIGMA = 25.0, 25.0 / 3.0
#: Display scale: a rating of 1500 is the starting belief; one openskill point is 40 of these.
DISPLAY_CENTRE, DISPLAY_SCALE = 1500.0, 40.0


@dataclass(frozen=True)
class RatedGame:
    """One game as the rating reads it: who played each side and its rounds as
    ``(points_a, points_b, twenties_a, twenties_b)``."""

    side_a: tuple[Hashable, ...]
    side_b: tuple[Hashable, ...]
    rounds: tuple[tuple[int, int, int, int], ...]


@dataclass
class Belief:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


@dataclass(frozen=True)
class Params:
    """The model's settings, chosen by the backtest (``bench/backtest.py``)."""

    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    #: Per round: a game's rounds are each a contest; a weight below 1 says they are not
    #: independent evidence (same players, same day).
    round_weight: float = 1.0


@dataclass
class RatingBook:
    """Every person's belief, moved by the games in the order they were played."""

    params: Params = field(default_factory=Params)
    beliefs: dict[Hashable, Belief] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._model = ThurstoneMostellerFull(
            mu=MU, sigma=SIGMA, beta=self.params.beta, tau=self.params.tau
        )

    def belief(self, key: Hashable) -> Belief:
        return self.beliefs.get(key) or Belief()

    def predict(self, side_a: Sequence[Hashable], side_b: Sequence[Hashable]) -> float:
        """The chance that side A wins a game against side B, a tie counted half."""
        a = [self.belief(k) for k in side_a]
        b = [self.belief(k) for k in side_b]
        mu = sum(x.mu for x in a) - sum(x.mu for x in b)
        var = sum(x.sigma**2 for x in a + b) + (len(a) + len(b)) * self.params.beta**2
        return 0.5 * (1.0 + erf(mu / sqrt(2.0 * var)))

    def update(self, game: RatedGame) -> dict[Hashable, Belief]:
        """Move the beliefs of the game's people by its rounds; return their new beliefs."""
        model = self._model
        teams = [
            [model.rating(mu=self.belief(k).mu, sigma=self.belief(k).sigma) for k in side]
            for side in (game.side_a, game.side_b)
        ]
        for points_a, points_b, _twenties_a, _twenties_b in game.rounds:
            if points_a == points_b == 0:
                continue  # time ran out before a disc was shot: no contest
            ranks = [1, 1] if points_a == points_b else ([1, 2] if points_a > points_b else [2, 1])
            teams = model.rate(teams, ranks=ranks)
        out = {}
        for side, team in zip((game.side_a, game.side_b), teams, strict=True):
            for key, rating in zip(side, team, strict=True):
                games = self.belief(key).games + 1
                out[key] = self.beliefs[key] = Belief(rating.mu, rating.sigma, games)
        return out


def replay(games: Iterable[RatedGame], params: Params | None = None) -> RatingBook:
    """The ratings after every game of a record, in order."""
    book = RatingBook(params or Params())
    for game in games:
        book.update(game)
    return book


def display(belief: Belief) -> tuple[int, int]:
    """A belief as pages show it: the rating and its ± (two spreads: about 95 % sure)."""
    return (
        round(DISPLAY_CENTRE + DISPLAY_SCALE * (belief.mu - MU)),
        round(DISPLAY_SCALE * 2 * belief.sigma),
    )
