"""Ratings from games (pure; no Django): a belief about each person's level, moved by every
recorded game, with its uncertainty.

The model is openskill's Thurstone-Mosteller with full pairing (Weng and Lin's, a maintained
library), fed with the rounds and the 20s of each game:

- each round is a contest, won, drawn or lost (2-1-0), so an 8-0 game says more than a 5-3 and a
  drawn round or game is the draw it is (it pulls two players together). The rounds are read one
  after the other in an order that does not depend on which side is A (won and lost rounds
  alternating, once starting each way, the two results averaged): read in the order played, a
  game two equal players drew left them apart. A game won never lowers the winner nor raises
  the loser (a favourite who wins by fewer rounds than expected keeps their rating);
- then each side plays a contest against par, the field's average 20s per 4-round game (and
  person) in the games so far: won by a side that made more, by the margin it made more
  (openskill's margin). Results alone only compare players who met, and the record is events far
  apart (Ontario, Hungary, ...); the 20s are on one scale everywhere;
- doubles rate the two partners as two people of one side.

Why this one: ``bench/backtest.py`` walks forward through the real competitive singles games of
2009-2017 (646 with rounds), each predicted from the games before it only, every candidate's
settings chosen walking forward too (Brier score, lower is sharper; coin 0.1908, Elo with K = 24
0.1732):

====================================================  ======
openskill, rounds against par (chosen)                0.1564
openskill, one contest per game, against par          0.1581
openskill, each round a contest (mirrored order)      0.1599
openskill, each round in the order played (first)     0.1599
openskill, one contest per game                       0.1630
openskill, per game with a margin of points and 20s   0.1632
openskill, per game and a contest on the 20s          0.1652
TrueSkill Through Time (nightly batch; beta 1, s 3)   0.1598
logistic on the players' 20s per game                 0.1567
====================================================  ======

Rounds say more than a game's bare result, and par more than a head-to-head contest on the 20s.
The rating and the 20s logistic are level on this record (0.0003 is well inside its noise); the
rating also knows who won. TrueSkill Through Time, smoothing the whole history, was no sharper
here and can only be rerun as a batch (a refit per block of games), while the app moves ratings
right after each verified result. Calibrated: counting every game from both sides, no tenth
with 30 games or more is off by more than 4.3 points (a perfectly calibrated forecaster shows
4.4 on these games). The settings of ``Params`` are those the walk ended with.

Speed: :meth:`RatingBook.update` is openskill's update written out for two sides on plain
numbers, with the library's V, W, V~ and W~ functions copied line for line onto ``math``'s
normal functions (the library's own ``rate`` deep-copies rating objects and goes through
``statistics.NormalDist``: about 75 µs a contest). A test holds :func:`contest` equal to
``ThurstoneMostellerFull.rate``. 200,000 games between 10,000 players replay in about 8 s of
processor time (:func:`replay_speed`; the backtest prints it).

``RatingBook`` is the whole state (the beliefs, and the field's 20s for par); ``replay`` builds it
from a record in order, and ``RatingBook.update`` moves it by one game, which is what the app
does after a verified result.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from math import erf, erfc, exp, log1p, sqrt

#: Where every person starts, and the spread of that first belief (openskill's defaults).
MU, SIGMA = 25.0, 25.0 / 3.0
#: Display scale: a rating of 1500 is the starting belief; one openskill point is 40 of these.
DISPLAY_CENTRE, DISPLAY_SCALE = 1500.0, 40.0
#: openskill's draw margin (``epsilon``) and floor on how far a game can shrink a spread.
EPSILON, KAPPA = 0.1, 0.0001


_SQRT2, _SQRT2PI, _TINY = sqrt(2.0), sqrt(2.0 * math.pi), 2.220446049250313e-16


def _cdf(x: float) -> float:
    return 0.5 * erfc(-x / _SQRT2)


def _pdf(x: float) -> float:
    return exp(-0.5 * x * x) / _SQRT2PI


# openskill's V, W, V~ and W~ (``openskill.models.weng_lin.common``), line for line, with the
# normal's functions from ``math``: the library's go through ``statistics.NormalDist``, which
# made them most of a replay's time.
def v(x: float, t: float) -> float:
    xt = x - t
    denominator = _cdf(xt)
    return -xt if denominator < _TINY else _pdf(xt) / denominator


def w(x: float, t: float) -> float:
    xt = x - t
    if _cdf(xt) < _TINY:
        return 1.0 if x < 0 else 0.0
    vx = v(x, t)
    return vx * (vx + xt)


def vt(x: float, t: float) -> float:
    xx = abs(x)
    b = _cdf(t - xx) - _cdf(-t - xx)
    if b < 1e-5:
        return -x - t if x < 0 else -x + t
    a = _pdf(-t - xx) - _pdf(t - xx)
    return (-a if x < 0 else a) / b


def wt(x: float, t: float) -> float:
    xx = abs(x)
    b = _cdf(t - xx) - _cdf(-t - xx)
    if b < _TINY:
        return 1.0
    return ((t - xx) * _pdf(t - xx) + (t + xx) * _pdf(-t - xx)) / b + vt(x, t) ** 2


def _vw(x: float, t: float) -> tuple[float, float]:
    """``(v(x, t), w(x, t))`` with one evaluation of the normal's functions."""
    xt = x - t
    denominator = _cdf(xt)
    if denominator < _TINY:
        return -xt, (1.0 if x < 0 else 0.0)
    big_v = _pdf(xt) / denominator
    return big_v, big_v * (big_v + xt)


def _vtwt(x: float, t: float) -> tuple[float, float]:
    """``(vt(x, t), wt(x, t))`` with one evaluation of the normal's functions."""
    xx = abs(x)
    b = _cdf(t - xx) - _cdf(-t - xx)
    p_lo, p_hi = _pdf(-t - xx), _pdf(t - xx)
    if b < 1e-5:
        big_v = -x - t if x < 0 else -x + t
    else:
        big_v = (p_hi - p_lo if x < 0 else p_lo - p_hi) / b
    if b < _TINY:
        return big_v, 1.0
    return big_v, ((t - xx) * p_hi + (t + xx) * p_lo) / b + big_v * big_v


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
    """The model's settings, chosen by the backtest (``bench/backtest.py``), walking forward
    through the real games of 2009-2017."""

    #: Spread of one contest's performance about a player's level (openskill's beta): the
    #: larger, the less one contest says.
    beta: float = 6.0
    #: The spread of a whole game's performance when predicting one (0: ``beta``). Rated per
    #: round, a game is several contests and beta is a round's; the backtest fits this apart.
    predict_beta: float = 10.0
    #: How much a player's level may move between two games (openskill's tau).
    tau: float = 25.0 / 300.0
    #: ``"rounds"``: each round a contest (2-1-0: won, drawn, lost), all read from the beliefs
    #: before the game and their moves added, so the order of a game's rounds does not matter;
    #: ``"rounds-in-turn"``: each round a contest after the one before (the first version);
    #: ``"game"``: one contest per game, its result on points.
    per: str = "rounds"
    #: Rated per round, a favourite who wins a game by fewer rounds than expected would lose
    #: rating; with this a game won never lowers the winner (nor a game lost raises the loser).
    result_floor: bool = True
    #: A game's win by more points than this moves the ratings further (openskill's margin;
    #: 0: off; ``per="game"`` only).
    margin: float = 0.0
    #: What a 20 adds to a side's score for that margin (the winner is still decided on points).
    twenties_weight: float = 0.0
    #: A contest on the 20s (who made more: per round, or per game with ``per="game"``), read
    #: with this spread of performance (0: no such contest).
    twenties_beta: float = 0.0
    #: That contest's margin (openskill's): a difference of more 20s than this moves more.
    twenties_margin: float = 0.0
    #: A contest per game of each side against par, the field's average 20s per 4-round game
    #: so far: won when the side made more 20s than par, read with this spread (0: none). It
    #: puts players who never met on one scale (events far apart, other countries).
    par_beta: float = 25.0 / 3.0
    #: Par's margin: 20s per game beyond par by more than this move more (openskill's margin).
    par_margin: float = 1.0


#: One side, per person ``(mu, sigma)``.
Team = list[tuple[float, float]]


@dataclass
class RatingBook:
    """Every person's belief, moved by the games in the order they were played."""

    params: Params = field(default_factory=Params)
    beliefs: dict[Hashable, Belief] = field(default_factory=dict)
    #: The 20s per 4-round game and person of every side in the games so far, and how many
    #: sides (par's level).
    field_twenties: float = 0.0
    field_sides: int = 0

    def belief(self, key: Hashable) -> Belief:
        return self.beliefs.get(key) or Belief()

    def predict(self, side_a: Sequence[Hashable], side_b: Sequence[Hashable]) -> float:
        """The chance that side A wins a game against side B, a tie counted half: that A's
        performance on the day beats B's, each a normal about the side's summed levels."""
        a = [self.belief(k) for k in side_a]
        b = [self.belief(k) for k in side_b]
        mu = sum(x.mu for x in a) - sum(x.mu for x in b)
        beta = self.params.predict_beta or self.params.beta
        var = sum(x.sigma**2 for x in a + b) + (len(a) + len(b)) * beta**2
        return 0.5 * (1.0 + erf(mu / sqrt(2.0 * var)))

    def update(self, game: RatedGame) -> dict[Hashable, Belief]:
        """Move the beliefs of the game's people by it; return their new beliefs."""
        params = self.params
        before = [[self.belief(k) for k in side] for side in (game.side_a, game.side_b)]
        teams = [[(b.mu, b.sigma) for b in side] for side in before]
        played = [r for r in game.rounds if r[0] or r[1]]  # 0-0: no disc shot in time
        if params.per == "rounds-in-turn":
            for points_a, points_b, *_ in played:
                outcome = (points_a > points_b) - (points_a < points_b)
                teams = contest(teams, outcome, params.beta, params.tau)
        elif params.per == "rounds":
            teams = self._rounds(teams, played)
        else:
            teams = self._game(teams, played)
        if params.per != "game" and params.result_floor:
            points = sum(r[0] - r[1] for r in played)
            if points:
                # A game won never lowers the winner nor raises the loser: a favourite who
                # wins by less than the rounds expected keeps their rating.
                won, lost = (0, 1) if points > 0 else (1, 0)
                teams[won] = [
                    (max(new[0], old.mu), new[1])
                    for new, old in zip(teams[won], before[won], strict=True)
                ]
                teams[lost] = [
                    (min(new[0], old.mu), new[1])
                    for new, old in zip(teams[lost], before[lost], strict=True)
                ]
        if params.par_beta > 0:
            teams = self._par(teams, played)
        out = {}
        for keys, olds, news in zip((game.side_a, game.side_b), before, teams, strict=True):
            for key, old, (mu, sigma) in zip(keys, olds, news, strict=True):
                out[key] = self.beliefs[key] = Belief(mu, sigma, old.games + 1)
        return out

    def _rounds(self, teams: list[Team], played: Sequence[tuple]) -> list[Team]:
        """Each round a contest, one after the other, in an order that does not depend on
        which side is A: the rounds won and lost alternate (then the rest, then the draws),
        once starting with a round A won and once with one B won, and the two results are
        averaged. Read in the order played, a game drawn by rounds won and lost left two
        equal players apart (the later rounds move more once they differ)."""
        params = self.params
        outcomes = [(r[0] > r[1]) - (r[0] < r[1]) for r in played]
        wins, losses, draws = outcomes.count(1), outcomes.count(-1), outcomes.count(0)
        results = []
        singles = len(teams[0]) == len(teams[1]) == 1
        for first in (1, -1):
            order = [first, -first] * min(wins, losses)
            order += [1] * (wins - losses) + [-1] * (losses - wins) + [0] * draws
            if singles:
                results.append(_singles_in_turn(teams, order, params.beta, params.tau))
            else:
                run, tau = teams, params.tau
                for outcome in order:
                    run = contest(run, outcome, params.beta, tau)
                    tau = 0.0  # the drift between games, once
                results.append(run)
            if wins == 0 or losses == 0:
                break  # one order only: nothing to average
        if len(results) == 1:
            return results[0]
        return [
            [
                ((p[0] + q[0]) / 2, sqrt((p[1] ** 2 + q[1] ** 2) / 2))
                for p, q in zip(side_1, side_2, strict=True)
            ]
            for side_1, side_2 in zip(*results, strict=True)
        ]

    def _game(self, teams: list[Team], played: Sequence[tuple]) -> list[Team]:
        """One contest for the game on points (by its margin), then one on its 20s."""
        params = self.params
        points_a = sum(r[0] for r in played)
        points_b = sum(r[1] for r in played)
        twenties = sum(r[2] - r[3] for r in played)
        outcome = (points_a > points_b) - (points_a < points_b)
        divisor = 1.0
        if outcome:
            divisor = _divisor(
                abs(points_a - points_b + params.twenties_weight * twenties), params.margin
            )
        teams = contest(teams, outcome, params.beta, params.tau, divisor)
        if params.twenties_beta > 0:
            teams = contest(
                teams,
                (twenties > 0) - (twenties < 0),
                params.twenties_beta,
                0.0,
                _divisor(abs(twenties), params.twenties_margin),
            )
        return teams

    def _par(self, teams: list[Team], played: Sequence[tuple]) -> list[Team]:
        """Each side against par (a fixed opponent at the starting level, whose belief never
        moves) on its 20s per 4-round game and person against the field's average so far."""
        if not played:
            return teams
        made = (sum(r[2] for r in played), sum(r[3] for r in played))
        per_four = [4.0 * x / len(played) / len(t) for x, t in zip(made, teams, strict=True)]
        if self.field_sides:
            par = self.field_twenties / self.field_sides
            out = []
            for team, x in zip(teams, per_four, strict=True):
                excess = x - par
                outcome = (excess > 0) - (excess < 0)
                divisor = _divisor(abs(excess), self.params.par_margin)
                if len(team) == 1:
                    out.append([_versus_par(*team[0], outcome, self.params.par_beta, divisor)])
                    continue
                par_team = [(MU, 0.0)] * len(team)
                out.append(
                    contest([team, par_team], outcome, self.params.par_beta, 0.0, divisor, True)[0]
                )
            teams = out
        self.field_twenties += sum(per_four)
        self.field_sides += 2
        return teams


def _singles_in_turn(
    teams: list[Team], order: Sequence[int], beta: float, tau: float
) -> list[Team]:
    """:func:`contest` for one person against one, the contests of ``order`` in turn (tau
    before the first only), on plain numbers: the replay's hot path."""
    (mu_a, s_a), (mu_b, s_b) = teams[0][0], teams[1][0]
    var_a, var_b = s_a * s_a + tau * tau, s_b * s_b + tau * tau
    beta2 = 2.0 * beta * beta
    for outcome in order:
        c2 = var_a + var_b + beta2
        c = sqrt(c2)
        t = EPSILON / c
        x = (mu_a - mu_b) / c
        if outcome > 0:
            v_a, w_a = _vw(x, t)
            v_b, w_b = -v_a, w_a
        elif outcome < 0:
            v_b, w_b = _vw(-x, t)
            v_a, w_a = -v_b, w_b
        else:
            v_a, w_a = _vtwt(x, t)
            v_b, w_b = -v_a, w_a  # vt is odd and wt even in x
        mu_a += var_a / c * v_a
        mu_b += var_b / c * v_b
        var_a *= max(1.0 - sqrt(var_a) / c * var_a / c2 * w_a, KAPPA)
        var_b *= max(1.0 - sqrt(var_b) / c * var_b / c2 * w_b, KAPPA)
    return [[(mu_a, sqrt(var_a))], [(mu_b, sqrt(var_b))]]


def _versus_par(
    mu: float, sigma: float, outcome: int, beta: float, divisor: float
) -> tuple[float, float]:
    """:func:`contest` of one person against par (at ``MU``, sure of itself), on plain
    numbers."""
    var = sigma * sigma
    c2 = var + 2.0 * beta * beta
    c = sqrt(c2)
    t = EPSILON / c
    x = (mu - MU) / c / divisor
    if outcome > 0:
        big_v, big_w = _vw(x, t)
    elif outcome < 0:
        big_v, big_w = _vw(-x, t)
        big_v = -big_v
    else:
        big_v, big_w = _vtwt(x, t)
    return mu + var / c * big_v, sqrt(var * max(1.0 - sqrt(var) / c * var / c2 * big_w, KAPPA))


def _divisor(difference: float, margin: float) -> float:
    """openskill's margin: the difference of the means is divided by this before the update,
    so a win by well more than ``margin`` moves further."""
    if margin > 0 and difference > margin:
        return log1p(difference / margin)
    return 1.0


def contest(
    teams: Sequence[Sequence[tuple[float, float]]],
    outcome: int,
    beta: float,
    tau: float,
    divisor: float = 1.0,
    a_only: bool = False,
) -> list[Team]:
    """openskill's Thurstone-Mosteller full-pairing update of two sides, ``(mu, sigma)`` per
    person, after a contest that A won (``outcome`` 1), drew (0) or lost (-1); ``divisor`` is
    openskill's margin divisor. The same figures as ``ThurstoneMostellerFull(beta=beta,
    tau=tau).rate(teams, ranks=...)`` (a test holds it), without its objects and deep copies.
    ``a_only``: A's side alone is moved and returned (B is par, whose belief never moves)."""
    tau2 = tau * tau
    if len(teams[0]) == 1 and len(teams[1]) == 1:  # singles: the replay's hot path
        (mu_a, s_a), (mu_b, s_b) = teams[0][0], teams[1][0]
        var_a, var_b = s_a * s_a + tau2, s_b * s_b + tau2
        mu_sum_a, var_sum_a, mu_sum_b, var_sum_b = mu_a, var_a, mu_b, var_b
        sides = [[(mu_a, var_a)], [(mu_b, var_b)]]
    else:
        sides = [[(mu, s * s + tau2) for mu, s in team] for team in teams]
        mu_sum_a = sum(p[0] for p in sides[0])
        var_sum_a = sum(p[1] for p in sides[0])
        mu_sum_b = sum(p[0] for p in sides[1])
        var_sum_b = sum(p[1] for p in sides[1])
    c2 = var_sum_a + var_sum_b + 2.0 * beta * beta
    c = sqrt(c2)
    t = EPSILON / c
    x = (mu_sum_a - mu_sum_b) / c / divisor
    if outcome > 0:
        v_a = v(x, t)
        w_a = v_a * (v_a + x - t) if _cdf(x - t) >= _TINY else w(x, t)
        v_b, w_b = -v_a, w_a
    elif outcome < 0:
        v_b = v(-x, t)
        w_b = v_b * (v_b - x - t) if _cdf(-x - t) >= _TINY else w(-x, t)
        v_a, w_a = -v_b, w_b
    else:
        v_a, w_a, v_b, w_b = vt(x, t), wt(x, t), vt(-x, t), wt(-x, t)
    out = []
    for side, var, big_v, big_w in (
        (sides[0], var_sum_a, v_a, w_a),
        (sides[1], var_sum_b, v_b, w_b),
    ):
        # openskill: mu_j += var_j / c * V; sigma_j^2 *= 1 - var_j / var * gamma * var / c^2
        # * W, with gamma = sqrt(var) / c (its default).
        shrink = sqrt(var) / c / c2 * big_w
        out.append(
            [
                (mu + p_var / c * big_v, sqrt(p_var * max(1.0 - p_var * shrink, KAPPA)))
                for mu, p_var in side
            ]
        )
        if a_only:
            break
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


def synthetic_record(games: int, players: int, seed: int = 1) -> list[RatedGame]:
    """A made-up record of singles games between ``players`` people of spread levels, for
    measuring the replay's speed."""
    rng = random.Random(seed)
    level = [rng.gauss(0.0, 1.0) for _ in range(players)]
    record = []
    for _ in range(games):
        a, b = rng.sample(range(players), 2)
        rounds = []
        for _ in range(4):
            edge = level[a] - level[b] + rng.gauss(0.0, 1.5)
            points = (2, 0) if edge > 0.4 else (0, 2) if edge < -0.4 else (1, 1)
            rounds.append((*points, rng.randint(0, 4), rng.randint(0, 4)))
        record.append(RatedGame((a,), (b,), tuple(rounds)))
    return record


def replay_speed(
    games: int = 200_000, players: int = 10_000, params: Params | None = None
) -> tuple[float, float]:
    """Seconds to replay a synthetic record of ``games`` games between ``players`` people:
    by the clock, and of this process's own processor time (what the machine's other work
    does not change)."""
    record = synthetic_record(games, players)
    wall, cpu = time.perf_counter(), time.process_time()
    replay(record, params)
    return time.perf_counter() - wall, time.process_time() - cpu
