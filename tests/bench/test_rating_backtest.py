"""The rating's side of the backtest (``bench/rating_backtest.py``): every forecaster predicts a
game from the games before it only, and the candidates are the models they say they are."""

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _load(name: str):
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


backtest = _load("backtest")
rb = _load("rating_backtest")


def _record(n: int = 120, seed: int = 4) -> list:
    """Games between eight players of spread levels: the better makes more 20s and wins more
    rounds."""
    rng = np.random.default_rng(seed)
    level = np.linspace(-1.5, 1.5, 8)
    games = []
    for i in range(n):
        a, b = rng.choice(8, 2, replace=False)
        rounds = []
        for _ in range(4):
            edge = level[a] - level[b] + rng.normal(0, 1.2)
            points = (2, 0) if edge > 0.3 else (0, 2) if edge < -0.3 else (1, 1)
            tw = (int(rng.poisson(2 + level[a])), int(rng.poisson(2 + level[b])))
            rounds.append((*points, *tw))
        pa, pb = sum(r[0] for r in rounds), sum(r[1] for r in rounds)
        games.append(
            backtest.RealGame(
                f"2015-05-{1 + i // 40:02}",
                f"p{a}",
                f"p{b}",
                1.0 if pa > pb else 0.0 if pa < pb else 0.5,
                (sum(r[2] for r in rounds), sum(r[3] for r in rounds)),
                4,
                tuple(rounds),
            )
        )
    return games


def _flipped(games, start: int) -> list:
    """The same record with every game from ``start`` on turned round (B's result for A's)."""
    out = list(games[:start])
    for g in games[start:]:
        rounds = tuple((r[1], r[0], r[3], r[2]) for r in g.detail)
        out.append(replace(g, score_a=1.0 - g.score_a, detail=rounds, twenties=g.twenties[::-1]))
    return out


@pytest.mark.parametrize("name", ["openskill_rounds", "openskill_rounds_par", "openskill_game"])
def test_a_rating_candidate_predicts_from_earlier_games_only(name):
    games = _record()
    params = rb.candidate_grids()[name][0]
    first = rb.rating_predictions(games, params)
    again = rb.rating_predictions(_flipped(games, 80), params)
    assert first[:81] == again[:81]
    assert first[81:] != again[81:]


def test_the_rating_learns_who_is_better():
    games = _record(400)
    params = rb.candidate_grids()["openskill_rounds_par"][0]
    predicted = rb.rating_predictions(games, params)
    observed = [g.score_a for g in games]
    assert backtest.brier(predicted[200:], observed[200:]) < 0.2
    assert backtest.brier(predicted, observed) < backtest.brier([0.5] * len(games), observed)


def test_the_20s_logistic_uses_earlier_games_only_and_its_steepness():
    games = _record()
    spread = backtest.Spread(game=3.0, field=2.3, form=1.2)
    first = rb.logistic_predictions(games, 0.3, spread, 5.5, backtest.per_four)
    again = rb.logistic_predictions(_flipped(games, 60), 0.3, spread, 5.5, backtest.per_four)
    assert first[:61] == again[:61]
    assert first[0] == 0.5  # nobody known yet: the field's level for both
    flatter = rb.logistic_predictions(games, 0.1, spread, 5.5, backtest.per_four)
    assert all(abs(f - 0.5) <= abs(p - 0.5) + 1e-12 for f, p in zip(flatter, first, strict=True))


def test_pooling_the_two_chances():
    sim, rating = [0.3, 0.6, 0.9], [0.5, 0.8, 0.2]
    assert rb.mixed(sim, rating, 0.0) == pytest.approx(sim)
    assert rb.mixed(sim, rating, 1.0) == pytest.approx(rating)
    halfway = rb.mixed([0.2], [0.8], 0.5)
    assert halfway == pytest.approx([0.5])


def test_each_candidate_starts_from_openskills_defaults_and_has_its_own_shape():
    grids = rb.candidate_grids()
    for name, grid in grids.items():
        assert grid[0].beta == pytest.approx(rb.DEFAULT_BETA), name
        assert grid[0].tau == pytest.approx(rb.DEFAULT_TAU), name
        assert len(set(grid)) == len(grid), name
    assert {p.per for p in grids["openskill_rounds_in_turn"]} == {"rounds-in-turn"}
    assert all(p.par_beta > 0 for p in grids["openskill_rounds_par"])
    assert all(p.par_beta == 0 for p in grids["openskill_rounds"])
