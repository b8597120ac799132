"""The rating's side of the backtest (``bench/backtest.py``): the candidate rating models, the
20s logistic curve and the simulation fed with the rating, each game predicted from the games
before it only.

Every candidate has settings (``Params``: the spread of a game's performance, the drift between
games, the margin's weight); none is fixed by looking at the whole record: each game is
predicted with the settings whose predictions of the games before it scored best (the lowest
Brier score; :func:`backtest.walk_forward`), the library's defaults until ``WARM_UP`` games are
seen. The same goes for the 20s logistic's steepness and for how far the simulation listens to
the rating.
"""

from __future__ import annotations

import datetime
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from scoring.engine.rating import MU, Params, RatedGame, RatingBook
from simulation.players.belief import Spread, belief, rated_belief

#: Games seen before the results choose a forecaster's settings.
WARM_UP = 50
#: openskill's defaults: the first settings of every openskill candidate.
DEFAULT_BETA, DEFAULT_TAU = 25.0 / 6.0, 25.0 / 300.0
BETAS = (2.0, 3.0, DEFAULT_BETA, 6.0, 8.0, 11.0)
TAUS = (DEFAULT_TAU, 0.3, 1.0)
PREDICT_BETAS = (4.0, 6.0, 8.0, 10.0, 12.0)
#: openskill's defaults, one contest per game, nothing else.
PLAIN = Params(
    beta=DEFAULT_BETA,
    tau=DEFAULT_TAU,
    predict_beta=0.0,
    per="game",
    margin=0.0,
    twenties_weight=0.0,
    twenties_beta=0.0,
    twenties_margin=0.0,
    par_beta=0.0,
    par_margin=0.0,
)


def rated(game) -> RatedGame:
    """A backtest game as the rating reads it."""
    return RatedGame((game.a,), (game.b,), game.detail)


_STATES: dict[tuple[int, Params], tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def rating_predictions(games: Sequence, params: Params) -> list[float]:
    """Each game's P(A wins) + P(tie)/2 by the rating of the games before it
    (:meth:`RatingBook.predict`; the replay is shared by the settings that differ only in
    ``predict_beta``)."""
    key = (id(games), replace(params, predict_beta=0.0))
    if key not in _STATES:
        book = RatingBook(params)
        mu, var, people = [], [], []
        for g in games:
            a, b = book.belief(g.a), book.belief(g.b)
            mu.append(a.mu - b.mu)
            var.append(a.sigma**2 + b.sigma**2)
            people.append(2)
            book.update(rated(g))
        _STATES[key] = (np.array(mu), np.array(var), np.array(people))
    mu, var, people = _STATES[key]
    beta = params.predict_beta or params.beta
    z = mu / np.sqrt(2.0 * (var + people * beta**2))
    return [0.5 * (1.0 + math.erf(x)) for x in z]


def candidate_grids() -> dict[str, list[Params]]:
    """The settings each openskill candidate is walked forward over (the first: openskill's
    defaults; par, where there is one, read with twice the default beta and a margin of one
    20)."""
    base = [replace(PLAIN, beta=b, tau=t) for b, t in itertools.product(BETAS, TAUS)]
    base.remove(PLAIN)
    base.insert(0, PLAIN)

    def par(per: str) -> list[Params]:
        first = replace(PLAIN, per=per, par_beta=2 * DEFAULT_BETA, par_margin=1.0)
        grid = [
            replace(PLAIN, beta=b, tau=t, per=per, par_beta=pb, par_margin=pm)
            for b, t, pb, pm in itertools.product(
                (DEFAULT_BETA, 6.0, 8.0), TAUS[:2], (4.0, 2 * DEFAULT_BETA, 16.0), (0.0, 1.0, 2.0)
            )
        ]
        grid.remove(first)
        return [first, *grid]

    grids = {
        "openskill_rounds_in_turn": [
            replace(p, per="rounds-in-turn", result_floor=False) for p in base
        ],
        "openskill_rounds": [replace(p, per="rounds") for p in base],
        "openskill_game": [replace(p, per="game") for p in base],
        "openskill_game_margin": [
            replace(p, per="game", margin=m, twenties_weight=tw)
            for p in base
            for m, tw in itertools.product((1.0, 2.0, 4.0), (0.0, 0.5))
        ],
        "openskill_game_20s": [
            replace(p, per="game", twenties_beta=p.beta * k, twenties_margin=1.0)
            for p in base
            for k in (1.0, 2.0, 4.0)
        ],
        "openskill_rounds_par": par("rounds"),
        "openskill_game_par": par("game"),
    }
    # Each also predicting with a game's spread of its own (rated per round, beta is a
    # round's), the first of each keeping beta.
    return {
        name: grid
        + [replace(p, predict_beta=pb) for p in grid for pb in PREDICT_BETAS if pb != p.beta]
        for name, grid in grids.items()
    }


@dataclass(frozen=True)
class Fitted:
    """A forecaster walked forward over its settings."""

    predicted: list[float]
    settings: list  # the settings each game was predicted with
    by_setting: dict  # each setting's Brier over the whole record (after the fact)


def fit_forward(
    grid: Sequence, predict: Callable[[object], Sequence[float]], observed: Sequence[float]
) -> Fitted:
    """``predict`` under every setting of ``grid``, then each game by the setting that scored
    best on the games before it (``grid[0]`` during the warm-up)."""
    from backtest import walk_forward

    by_index = {i: predict(setting) for i, setting in enumerate(grid)}
    fit = walk_forward(by_index, observed, first=0, warm_up=WARM_UP)
    return Fitted(
        fit.predicted,
        [grid[i] for i in fit.chosen],
        {grid[i]: score for i, score in fit.brier_by_form.items()},
    )


# --- TrueSkill Through Time, as a nightly batch ----------------------------------------------


def ttt_predictions(
    games: Sequence, sigma: float, gamma: float, block: int, iterations: int = 6
) -> list[float]:
    """TrueSkill Through Time (``trueskillthroughtime``) walked forward in blocks: the whole
    history before a block smoothed (as a nightly run would), each game of the block predicted
    from its players' last posteriors, widened by the drift since. Its own units: beta = 1."""
    import trueskillthroughtime as ttt

    days = [datetime.date.fromisoformat(g.date).toordinal() for g in games]
    out: list[float] = []
    for start in range(0, len(games), block):
        posterior: dict[str, tuple[float, float, int]] = {}
        if start:
            seen = games[:start]
            ties = sum(g.score_a == 0.5 for g in seen) / len(seen)
            history = ttt.History(
                [[[g.a], [g.b]] for g in seen],
                [[g.score_a, 1 - g.score_a] for g in seen],
                days[:start],
                mu=0.0,
                sigma=sigma,
                beta=1.0,
                gamma=gamma,
                p_draw=min(max(ties, 0.01), 0.5),
            )
            history.convergence(iterations=iterations, epsilon=0.001, verbose=False)
            for name, curve in history.learning_curves().items():
                when, g = curve[-1]
                posterior[name] = (g.mu, g.sigma, when)
        for i in range(start, min(start + block, len(games))):
            g = games[i]
            mus, variance = [], 2.0
            for name in (g.a, g.b):
                mu, sd, when = posterior.get(name, (0.0, sigma, days[i]))
                mus.append(mu)
                variance += sd**2 + gamma**2 * (days[i] - when)
            out.append(0.5 * (1 + math.erf((mus[0] - mus[1]) / math.sqrt(2 * variance))))
    return out


# --- the 20s logistic -------------------------------------------------------------------------

#: Steepness of the logistic on the 20s-per-game difference the walk-forward chooses from.
STEEPNESS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7)


def logistic_predictions(
    games: Sequence, k: float, spread: Spread, prior: float, per_four
) -> list[float]:
    """P(A) = logistic(k * (A's 20s per game - B's)), each player's average of the games
    before shrunk towards the field's average so far (:func:`belief`'s mean)."""
    seen: dict[str, list[float]] = defaultdict(list)
    field = [prior, 1]
    out = []
    for g in games:
        field_mean = field[0] / field[1]
        level = [
            belief(float(np.mean(seen[n])) if seen[n] else 0.0, len(seen[n]), field_mean, spread)[0]
            for n in (g.a, g.b)
        ]
        out.append(1.0 / (1.0 + math.exp(-k * (level[0] - level[1]))))
        x_a, x_b = per_four(g)
        seen[g.a].append(x_a)
        seen[g.b].append(x_b)
        field[0] += x_a + x_b
        field[1] += 2
    return out


# --- the simulation fed with the rating -------------------------------------------------------

#: How far the simulation's 20s level listens to the rating (0: not at all) and how many 20s
#: per game one rating point (openskill's units) is worth, walked forward.
WEIGHTS = (0.0, 0.25, 0.5, 0.75)
SLOPES = (0.25, 0.4, 0.6)


def simulation_with_rating(
    games: Sequence,
    grid,
    spread: Spread,
    params: Params,
    weight: float,
    slope: float,
    prior: float,
    per_four,
    expected_score,
) -> list[float]:
    """The simulation's prediction with each player's 20s level moved towards what their
    rating says (:func:`simulation.players.belief.rated_belief`, the app's previews' own)."""
    seen: dict[str, list[float]] = defaultdict(list)
    field = [prior, 1]
    book = RatingBook(params)
    out = []
    for g in games:
        field_mean = field[0] / field[1]
        sides = []
        for name in (g.a, g.b):
            mean, sd = belief(
                float(np.mean(seen[name])) if seen[name] else 0.0,
                len(seen[name]),
                field_mean,
                spread,
            )
            r = book.belief(name)
            sides.append(
                rated_belief(mean, sd, r.mu - MU, r.sigma, field_mean, weight=weight, slope=slope)
            )
        out.append(expected_score(grid, *sides))
        x_a, x_b = per_four(g)
        seen[g.a].append(x_a)
        seen[g.b].append(x_b)
        field[0] += x_a + x_b
        field[1] += 2
        book.update(rated(g))
    return out


#: The rating's share when the two chances are pooled, walked forward.
POOL_WEIGHTS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, 1e-4, 1 - 1e-4)
    return np.log(p / (1 - p))


def mixed(p_simulation: Sequence[float], p_rating: Sequence[float], weight: float) -> list[float]:
    """The two chances pooled on the log-odds scale, ``weight`` the rating's share."""
    z = (1 - weight) * logit(np.asarray(p_simulation)) + weight * logit(np.asarray(p_rating))
    return list(1.0 / (1.0 + np.exp(-z)))
