"""Backtest: does the simulation predict real games? Each game of the real competitive singles
record (``shared/data/competitive-singles-2009-2017.csv``) is predicted from the players' earlier
games only, by three forecasters side by side:

- the simulation: each player described by their record so far, as what it tells of their 20s
  per 4-round game on the day: a normal belief whose mean is their average shrunk towards the
  field's average of the games so far, and whose spread is what that average does not know yet
  (few games) plus how far the player's level on the day may be from it (below)
  (:func:`simulation.players.belief.belief`, the app's previews' own);
  P(A wins) + P(tie)/2 is read from simulated games between players so described (a grid of
  20s-per-game levels played once, in a process pool, interpolated between its points) and
  averaged over both beliefs (Gauss-Hermite quadrature). Describing a player by a single number
  instead made every prediction too sure of itself: 3.7 % for games the favourite lost one time
  in four;
- Elo, the usual baseline (K = 24, every player starting at 1500, a tie worth half);
- a coin (always 0.5).

It prints each forecaster's Brier score (lower is sharper; the coin's is the score of knowing
nothing) and the simulation's calibration table: games by tenth of predicted chance, the mean
prediction against what happened, twice: for player A as the record lists the games, and for
every player of every game (each game from both sides). The second is the check of a forecaster
that knows nothing of the order of the names: the record lists the stronger player first more
often (A wins 63 % of the preliminary games as listed, 52 % of the power-pool games), which no
forecaster that sees only the players' results can know. The aim: at least as sharp as Elo,
calibrated within 5 points in every tenth with enough games. Real games after 2017 are kept apart
for the same check later.

How far a player's level on the day may be from their average is the one spread that the 20s
counts alone do not settle: from event to event a player's 20s per game move by about ±1.2, but
their results move more (a day's level is more than its 20s), and read with ±1.2 the simulated
games between two described players are too sure of the favourite (a worst gap of 8 to 10
points). So the forecast fits it on the results, walking forward: each game is predicted with
the day's spread (of ``FORM_GRID``) that best predicted the games before it (the lowest Brier
score), the one the 20s measure until ``FORM_WARM_UP`` games are seen; nothing of a game or of
the games after it goes into its prediction. The fit over the whole record is printed beside the
app's own spread (``belief.RECORD_SPREAD.form``), which should be that figure.

The worst gap a perfectly calibrated forecaster would show on these same games (outcomes drawn
from its own chances, ties at the record's rate) says how to read the table: its noise at this
size, about 4 points at the median for 646 games (and under 7 in 90 % of draws), so a gap well
beyond it is the simulation's.

The rating (``scoring.engine.rating``) is chosen here too (``bench/rating_backtest.py``): each
candidate model predicts every game from the games before it, its settings walked forward as the
day's spread is (each game with the settings that best predicted the games before it), beside
Elo, a logistic curve on the two players' 20s per game (their averages so far, shrunk towards the
field's; its steepness walked forward) and TrueSkill Through Time (the whole history smoothed
before each block of games, as a nightly run would). The sharpest candidate is the one chosen;
its calibration table is printed as the simulation's is. Then the simulation fed with the rating:
each player's 20s level moved towards the level their rating stands for (the app's previews'
``belief.rated_belief``; how far, walked forward), and, apart, the two chances pooled. Last, the
replay's speed on a synthetic record (``--speed-games`` between ``--speed-players``).

How games end is checked too, not only who wins them: the shares of games whose first 4 rounds
end 8-0, 7-1, 6-2, 5-3 and 4-4 (the winner's points first) in simulated games between each real
game's players, described as the previews describe them, against the real games' shares, for
all the complete games and apart for the even pairings (the simulation's favourite under
``EVEN_BELOW``) and the others; the aim: every share within 5 points. Games after 2017 are kept
apart: ``--later FILE`` (the same layout) checks their shares the same way, each predicted from
all the games before it; without it the output says that none was given.

Run: ``python bench/backtest.py [--games-per-cell N] [--workers 2] [--ttt-block 50]
[--speed-games 200000] [--later FILE] [--grid-file PICKLE] [--shares-only]``; ends with a
``RESULT`` line (``share_<result>_sim`` / ``_real`` per share, ``share_worst_gap_pts``).
"""

from __future__ import annotations

import argparse
import csv
import pickle
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "bench"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from simulation.players.belief import (  # noqa: E402 (the path above first)
    RECORD_SPREAD,
    Spread,
    belief,
)

DATA = ROOT.parent / "shared" / "data" / "competitive-singles-2009-2017.csv"
#: The 20s-per-game levels the simulation is played at; a player between two is interpolated.
LEVELS = (2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
#: A player's 20s per game before the record has any game: the competitive field's average.
PRIOR_TWENTIES = 5.5
#: Nodes of the Gauss-Hermite quadrature over each player's belief.
QUADRATURE = 9
ELO_K, ELO_START = 24.0, 1500.0
#: A tenth of the calibration table counts once it holds this many games.
ENOUGH = 30
#: TrueSkill Through Time's settings compared (prior spread, drift per day; beta = 1).
TTT_SETTINGS = ((1.5, 0.01), (3.0, 0.01))


@dataclass(frozen=True)
class RealGame:
    date: str
    a: str
    b: str
    #: 1 when A won on points, 0.5 for a tie, 0 when B won.
    score_a: float
    twenties: tuple[int, int]
    rounds: int
    #: Each round as ``(points_a, points_b, twenties_a, twenties_b)`` (what the rating reads).
    detail: tuple[tuple[int, int, int, int], ...] = ()


def read_games(path: Path = DATA) -> list[RealGame]:
    """The record, in the order played (date, then the file's order within a day)."""
    games = []
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            pa = [int(x) for x in row["points_a"].split()]
            pb = [int(x) for x in row["points_b"].split()]
            twa = [int(x) for x in row["twenties_a"].split()]
            twb = [int(x) for x in row["twenties_b"].split()]
            ta, tb = sum(twa), sum(twb)
            if not pa:
                continue  # a game with no round recorded (a forfeit): nothing to predict
            total_a, total_b = sum(pa), sum(pb)
            score = 1.0 if total_a > total_b else 0.0 if total_a < total_b else 0.5
            games.append(
                RealGame(
                    row["date"],
                    row["player_a"].strip(),
                    row["player_b"].strip(),
                    score,
                    (ta, tb),
                    len(pa),
                    tuple(zip(pa, pb, twa, twb, strict=True)),
                )
            )
    return sorted(games, key=lambda g: g.date)


# --- the simulation's grid ----------------------------------------------------------------------


#: The results of a game's first 4 rounds, the winner's points first (2 a round won, 1 each a
#: round tied, so the two totals make 8).
RESULTS = ("8-0", "7-1", "6-2", "5-3", "4-4")


def result_index(points_a: Sequence[int], points_b: Sequence[int]) -> int | None:
    """Which of :data:`RESULTS` the first 4 rounds make, or None for a game of fewer rounds."""
    if len(points_a) < 4 or len(points_b) < 4:
        return None
    return 8 - max(sum(points_a[:4]), sum(points_b[:4]))


def _cell(task: tuple[float, float, int, int]) -> tuple[float, float, float, np.ndarray]:
    """P(A wins) + P(tie)/2 over ``games`` simulated games of A (x_a 20s per game) against B,
    seats alternated so that neither side always shoots first, and the games' shares of
    :data:`RESULTS`."""
    from simulation.game import play_game
    from simulation.players.estimate import profile_from_twenties

    x_a, x_b, games, seed = task
    a, b = profile_from_twenties(x_a), profile_from_twenties(x_b)
    score = 0.0
    results = np.zeros(len(RESULTS))
    for n in range(games):
        flip = n % 2 == 1
        record = play_game([b, a] if flip else [a, b], seed=seed + n, events=False)
        points = record["points"][::-1] if flip else record["points"]
        score += 1.0 if points[0] > points[1] else 0.0 if points[0] < points[1] else 0.5
        index = result_index(*zip(*(r["points"][:2] for r in record["rounds"]), strict=True))
        if index is not None:
            results[index] += 1
    return x_a, x_b, score / games, results / max(results.sum(), 1.0)


#: Each pair of levels' shares of :data:`RESULTS` (the same both ways round).
ShareGrid = dict[tuple[float, float], np.ndarray]


def simulate_grid(
    games_per_cell: int, workers: int, shares: ShareGrid | None = None
) -> dict[tuple[float, float], float]:
    """The simulated chance of A against B at every pair of levels (A's side; B's is 1 - it);
    each pair's shares of :data:`RESULTS` go into ``shares`` when given (then the pairs of
    equal levels are played too)."""
    tasks = [
        (x_a, x_b, games_per_cell, 1000 * i + 100 * j)
        for i, x_a in enumerate(LEVELS)
        for j, x_b in enumerate(LEVELS)
        if i < j or (i == j and shares is not None)
    ]
    # A player against their like wins half the time, by symmetry: no simulation can say
    # better, and a few dozen games would only say it with their noise.
    grid: dict[tuple[float, float], float] = {(x, x): 0.5 for x in LEVELS}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for x_a, x_b, p, results in pool.map(_cell, tasks):
            if shares is not None:
                shares[(x_a, x_b)] = shares[(x_b, x_a)] = results
            if x_a != x_b:
                grid[(x_a, x_b)] = p
                grid[(x_b, x_a)] = 1.0 - p
    return grid


def interpolate(grid: dict[tuple[float, float], float], x_a: float, x_b: float) -> float:
    """Bilinear between the grid's levels, clamped at its ends."""
    levels = np.array(LEVELS)
    x_a, x_b = (float(np.clip(x, levels[0], levels[-1])) for x in (x_a, x_b))
    i = min(int(np.searchsorted(levels, x_a, side="right")) - 1, len(levels) - 2)
    j = min(int(np.searchsorted(levels, x_b, side="right")) - 1, len(levels) - 2)
    fa = (x_a - levels[i]) / (levels[i + 1] - levels[i])
    fb = (x_b - levels[j]) / (levels[j + 1] - levels[j])
    lo = grid[(levels[i], levels[j])] * (1 - fb) + grid[(levels[i], levels[j + 1])] * fb
    hi = grid[(levels[i + 1], levels[j])] * (1 - fb) + grid[(levels[i + 1], levels[j + 1])] * fb
    return lo * (1 - fa) + hi * fa


# --- what the record says of a player -----------------------------------------------------------


def per_four(g: RealGame) -> tuple[float, float]:
    """Both players' 20s of the game per 4 rounds (the levels' unit)."""
    return g.twenties[0] * 4.0 / g.rounds, g.twenties[1] * 4.0 / g.rounds


def spread_of(games: Sequence[RealGame]) -> Spread:
    """The three spreads, measured on the record: within an event, the variance of a player's
    games about their mean there; across events, the variance of a player's event means less
    what the luck of their games there explains; across players, the variance of the players'
    means less the same. They are dispersions of the whole record, not any player's results,
    so the forecasts still use nothing of a game's own players that came after it."""
    by_event: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for g in games:
        for name, x in zip((g.a, g.b), per_four(g), strict=True):
            by_event[name][g.date].append(x)
    within = [np.var(v, ddof=1) for e in by_event.values() for v in e.values() if len(v) >= 2]
    game_var = float(np.mean(within))
    form_vars, means, counts = [], [], []
    for events in by_event.values():
        played = [v for v in events.values() if len(v) >= 3]
        if len(played) >= 3:
            event_means = [np.mean(v) for v in played]
            luck = np.mean([game_var / len(v) for v in played])
            form_vars.append(np.var(event_means, ddof=1) - luck)
        everything = [x for v in events.values() for x in v]
        if len(everything) >= 10:
            means.append(np.mean(everything))
            counts.append(len(everything))
    form_var = max(float(np.mean(form_vars)), 0.0) if form_vars else 0.0
    field_var = float(np.var(means, ddof=1) - np.mean([game_var / n for n in counts]))
    return Spread(game_var**0.5, max(field_var, 0.0) ** 0.5, form_var**0.5)


def expected_score(grid, a: tuple[float, float], b: tuple[float, float]) -> float:
    """P(A wins) + P(tie)/2 averaged over both players' beliefs (mean, sd)."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(QUADRATURE)
    weights = weights / weights.sum()
    total = 0.0
    for x_a, w_a in zip(a[0] + a[1] * nodes, weights, strict=True):
        for x_b, w_b in zip(b[0] + b[1] * nodes, weights, strict=True):
            total += w_a * w_b * interpolate(grid, float(x_a), float(x_b))
    return total


def expected_shares(
    shares: ShareGrid, a: tuple[float, float], b: tuple[float, float]
) -> np.ndarray:
    """The shares of :data:`RESULTS` averaged over both players' beliefs (mean, sd), as a
    preview playing each game at levels drawn from them sees them."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(QUADRATURE)
    weights = weights / weights.sum()
    total = np.zeros(len(RESULTS))
    for x_a, w_a in zip(a[0] + a[1] * nodes, weights, strict=True):
        for x_b, w_b in zip(b[0] + b[1] * nodes, weights, strict=True):
            total += w_a * w_b * interpolate(shares, float(x_a), float(x_b))  # type: ignore[arg-type]
    return total


#: A pairing is even when the simulation gives the favourite less than this chance.
EVEN_BELOW = 0.65


@dataclass(frozen=True)
class ShareCheck:
    """Simulated against real shares of :data:`RESULTS` (fractions), over the complete games."""

    games: int
    simulated: np.ndarray
    real: np.ndarray
    #: The same for the even pairings (favourite under :data:`EVEN_BELOW`) and the others.
    split: dict[str, tuple[int, np.ndarray, np.ndarray]]

    @property
    def worst_gap(self) -> float:
        """The widest gap, in points, between a simulated and a real share (all games)."""
        return float(np.max(np.abs(self.simulated - self.real)) * 100)


def result_shares(
    games: Sequence[RealGame],
    grid,
    shares: ShareGrid,
    spread: Spread = RECORD_SPREAD,
    *,
    first: int = 0,
) -> ShareCheck:
    """Each complete game's simulated shares of :data:`RESULTS` between its players (the games
    from the ``first``-th on), described by their record before it as the app's previews
    describe them (``belief``, the app's spreads), against what the games ended."""
    twenties: dict[str, list[float]] = defaultdict(list)
    field = [PRIOR_TWENTIES, 1]
    simulated, real, favourite = [], [], []
    for number, g in enumerate(games):
        index = result_index([r[0] for r in g.detail], [r[1] for r in g.detail])
        if index is not None and number >= first:
            a, b = (
                belief(_mean(twenties[name]), len(twenties[name]), field[0] / field[1], spread)
                for name in (g.a, g.b)
            )
            simulated.append(expected_shares(shares, a, b))
            real.append(np.eye(len(RESULTS))[index])
            p = expected_score(grid, a, b)
            favourite.append(max(p, 1.0 - p))
        x_a, x_b = per_four(g)
        twenties[g.a].append(x_a)
        twenties[g.b].append(x_b)
        field[0] += x_a + x_b
        field[1] += 2
    sim, act, fav = np.array(simulated), np.array(real), np.array(favourite)
    split = {}
    for name, mask in (("even", fav < EVEN_BELOW), ("uneven", fav >= EVEN_BELOW)):
        if mask.any():
            split[name] = (int(mask.sum()), sim[mask].mean(axis=0), act[mask].mean(axis=0))
    return ShareCheck(len(sim), sim.mean(axis=0), act.mean(axis=0), split)


def print_shares(check: ShareCheck, label: str) -> None:
    print(
        f"\nresults of the first 4 rounds, {label} ({check.games} complete games): "
        "simulated / real, percent"
    )
    print("  " + "  ".join(f"{r:>11}" for r in RESULTS))
    rows = [("all", check.games, check.simulated, check.real)]
    rows += [(name, n, sim, act) for name, (n, sim, act) in check.split.items()]
    for name, n, sim, act in rows:
        cells = "  ".join(f"{s * 100:5.1f}/{r * 100:5.1f}" for s, r in zip(sim, act, strict=True))
        print(f"  {cells}   {name} ({n})")
    print(f"  worst gap {check.worst_gap:.1f} points (the aim: within 5 in every share)")


# --- the forecasts ------------------------------------------------------------------------------


def forecasts(games: Sequence[RealGame], grid, spread: Spread) -> dict[str, list[float]]:
    """Each forecaster's prediction of each game, from the games before it only."""
    twenties: dict[str, list[float]] = defaultdict(list)
    field = [PRIOR_TWENTIES, 1]  # the field's 20s so far and how many player-games
    elo: dict[str, float] = defaultdict(lambda: ELO_START)
    out: dict[str, list[float]] = {"simulation": [], "elo": [], "coin": []}
    for g in games:
        field_mean = field[0] / field[1]
        a, b = (
            belief(_mean(twenties[name]), len(twenties[name]), field_mean, spread)
            for name in (g.a, g.b)
        )
        out["simulation"].append(expected_score(grid, a, b))
        expected = 1.0 / (1.0 + 10 ** ((elo[g.b] - elo[g.a]) / 400.0))
        out["elo"].append(expected)
        out["coin"].append(0.5)
        # What the game teaches, for the games after it (per 4 rounds, as the levels are).
        x_a, x_b = per_four(g)
        twenties[g.a].append(x_a)
        twenties[g.b].append(x_b)
        field[0] += x_a + x_b
        field[1] += 2
        elo[g.a] += ELO_K * (g.score_a - expected)
        elo[g.b] -= ELO_K * (g.score_a - expected)
    return out


def _mean(seen: Sequence[float]) -> float:
    return sum(seen) / len(seen) if seen else 0.0


def brier(predicted: Sequence[float], observed: Sequence[float]) -> float:
    p, y = np.asarray(predicted), np.asarray(observed)
    return float(np.mean((p - y) ** 2))


def calibration(predicted: Sequence[float], observed: Sequence[float]) -> list[tuple]:
    """(tenth, games, mean predicted, mean observed) for each tenth of predicted chance."""
    rows = []
    p, y = np.asarray(predicted), np.asarray(observed)
    tenth = np.minimum((p * 10).astype(int), 9)
    for t in range(10):
        mask = tenth == t
        if mask.any():
            rows.append((t, int(mask.sum()), float(p[mask].mean()), float(y[mask].mean())))
    return rows


def widest(rows: Sequence[tuple]) -> float:
    """The widest gap (points) between mean prediction and outcome in a calibration table, among
    the tenths with enough games."""
    return max((abs(mp - my) * 100 for _, n, mp, my in rows if n >= ENOUGH), default=0.0)


def worst_gap(predicted: Sequence[float], observed: Sequence[float]) -> float:
    """:func:`widest` of the table that counts every game from both sides."""
    p, y = np.asarray(predicted, dtype=float), np.asarray(observed, dtype=float)
    return widest(calibration(np.concatenate([p, 1 - p]), np.concatenate([y, 1 - y])))


def perfect_forecaster_gaps(
    predicted: Sequence[float], tie_rate: float, draws: int = 400, seed: int = 1
) -> np.ndarray:
    """The worst-tenth gaps a perfectly calibrated forecaster would show on games like these:
    outcomes drawn from the predictions themselves (a tie at the record's rate where the
    prediction leaves room for it, counted half), ``draws`` times. The aim of 5 points means
    something only where this is well under 5: it is the noise of the table at this size."""
    rng = np.random.default_rng(seed)
    p = np.asarray(predicted, dtype=float)
    tie = np.minimum(tie_rate, 2 * np.minimum(p, 1 - p))
    gaps = np.empty(draws)
    for k in range(draws):
        u = rng.random(p.shape[0])
        outcome = np.where(u < p - tie / 2, 1.0, np.where(u < p + tie / 2, 0.5, 0.0))
        gaps[k] = worst_gap(p, outcome)
    return gaps


#: The spreads of a player's level on the day the forecast chooses from (standard deviations,
#: 20s per game), walking forward.
FORM_GRID = (1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.4, 2.6, 2.8, 3.0)
#: Games seen before the results choose the day's spread (until then, the 20s' own measure).
FORM_WARM_UP = 100


@dataclass(frozen=True)
class FormFit:
    """The walk-forward forecast and what it chose."""

    predicted: list[float]
    """Each game's prediction, with the spread chosen on the games before it."""
    chosen: list[float]
    """The spread each game was predicted with."""
    brier_by_form: dict[float, float]
    """Each spread's Brier score over the whole record (what a fit on all of it would see)."""

    @property
    def whole_record(self) -> float:
        """The spread a fit over the whole record chooses."""
        return min(self.brier_by_form, key=self.brier_by_form.__getitem__)


def walk_forward(
    by_form: dict[float, Sequence[float]],
    observed: Sequence[float],
    first: float,
    warm_up: int = FORM_WARM_UP,
) -> FormFit:
    """Each game predicted with the spread whose predictions of the games before it scored
    best (Brier), ``first`` for the first ``warm_up`` games. ``by_form`` holds every game's
    prediction under each spread (``first`` among them)."""
    forms = list(by_form)
    p = {form: np.asarray(by_form[form], dtype=float) for form in forms}
    y = np.asarray(observed, dtype=float)
    # Running sums of squared errors: the Brier score of the games before game i, for each form.
    seen = {form: np.concatenate([[0.0], np.cumsum((p[form] - y) ** 2)]) for form in forms}
    predicted, chosen = [], []
    for i in range(y.size):
        form = first if i < warm_up else min(forms, key=lambda f: (seen[f][i], f))
        chosen.append(form)
        predicted.append(float(p[form][i]))
    brier_by_form = {form: float(seen[form][-1] / max(y.size, 1)) for form in forms}
    return FormFit(predicted, chosen, brier_by_form)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games-per-cell",
        type=int,
        default=100,
        help="simulated games per pair of levels: at 24 a cell's chance is known to about ±10 "
        "points, and that noise alone took the worst gap of one run to 6.6 points, where 100 "
        "games a cell gave 4.4 on the same record",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--data", type=Path, default=DATA, help="the real games (CSV)")
    parser.add_argument(
        "--ttt-block",
        type=int,
        default=50,
        help="TrueSkill Through Time is refitted on all the games before each block of this "
        "many (a refit per game would take minutes)",
    )
    parser.add_argument("--speed-games", type=int, default=200_000)
    parser.add_argument("--speed-players", type=int, default=10_000)
    parser.add_argument(
        "--later",
        type=Path,
        default=None,
        help="real games after 2017 (a CSV of the same layout), kept apart: their results' "
        "shares are checked the same way, each game predicted from all the games before it",
    )
    parser.add_argument(
        "--grid-file",
        type=Path,
        default=None,
        help="a pickle of the simulated grid: read when it exists, written after simulating "
        "when not (the grid depends on play only, so changes to the beliefs reuse it)",
    )
    parser.add_argument(
        "--shares-only",
        action="store_true",
        help="stop after the results' shares and the Brier scores (a quick check of a change)",
    )
    args = parser.parse_args()
    games = read_games(args.data)
    print(f"{len(games)} real games, {games[0].date} to {games[-1].date}")
    started = time.perf_counter()
    shares: ShareGrid = {}
    if args.grid_file is not None and args.grid_file.exists():
        grid, shares = pickle.loads(args.grid_file.read_bytes())
        print(f"the simulated grid read from {args.grid_file.name} (as simulated before)")
    else:
        grid = simulate_grid(args.games_per_cell, args.workers, shares)
        if args.grid_file is not None:
            args.grid_file.write_bytes(pickle.dumps((grid, shares)))
        cells = len(LEVELS) * (len(LEVELS) + 1) // 2
        print(
            f"simulated {cells} pairs of levels x {args.games_per_cell} games in "
            f"{time.perf_counter() - started:.0f} s"
        )
    spread = spread_of(games)
    print(
        f"20s per game in the record: a game about the player's average \u00b1{spread.game:.2f}, "
        f"players' averages \u00b1{spread.field:.2f}, a player's level from event to event "
        f"\u00b1{spread.form:.2f}"
    )
    predicted = forecasts(games, grid, spread)
    observed = [g.score_a for g in games]
    forms = {spread.form: predicted["simulation"]}
    for form in FORM_GRID:
        forms[form] = forecasts(games, grid, replace(spread, form=form))["simulation"]
    fit = walk_forward(forms, observed, first=spread.form)
    predicted["simulation"] = fit.predicted
    scores = {name: brier(p, observed) for name, p in predicted.items()}
    print(
        f"the day's spread fitted on the results, walking forward (\u00b1{spread.form:.2f} for "
        f"the first {FORM_WARM_UP} games): it ended at \u00b1{fit.chosen[-1]:.2f}"
    )
    for name, score in scores.items():
        print(f"Brier {name:11} {score:.4f}")
    check = result_shares(games, grid, shares)
    print_shares(check, "2009-2017")
    if args.later is None:
        later_gap = "none"
        print("no later games given (--later): the check on games after 2017 was not run")
    else:
        later = read_games(args.later)
        # Only the later games are checked; the earlier ones are the record they start from.
        check_later = result_shares(games + later, grid, shares, first=len(games))
        print_shares(check_later, f"after 2017 ({args.later.name})")
        later_gap = f"{check_later.worst_gap:.1f}"
    share_fields = (
        " ".join(
            f"share_{r.replace('-', '_')}_sim={s * 100:.1f} "
            f"share_{r.replace('-', '_')}_real={a * 100:.1f}"
            for r, s, a in zip(RESULTS, check.simulated, check.real, strict=True)
        )
        + f" share_worst_gap_pts={check.worst_gap:.1f} later_share_worst_gap_pts={later_gap}"
    )
    if args.shares_only:
        print(
            f"RESULT games={len(games)} brier_elo={scores['elo']:.4f} "
            f"brier_simulation={scores['simulation']:.4f} "
            f"worst_calibration_gap_pts="
            f"{worst_gap(predicted['simulation'], observed):.1f} {share_fields}"
        )
        return
    mine = predicted["simulation"]
    print("\nsimulation's calibration, player A as listed: tenth, games, predicted, observed")
    worst_listed = _print_calibration(mine, observed)
    print("\n... for every player of every game (each game from both sides)")
    worst = _print_calibration(mine + [1 - p for p in mine], observed + [1 - y for y in observed])
    ties = sum(g.score_a == 0.5 for g in games) / len(games)
    noise = perfect_forecaster_gaps(mine, ties)
    print(
        f"\na perfectly calibrated forecaster of these games ({ties:.0%} ties) would show a worst "
        f"gap of {np.median(noise):.1f} points (median of {len(noise)} draws; 90 % under "
        f"{np.percentile(noise, 90):.1f}): the table's own noise at this size"
    )
    print("\neach spread of the day over the whole record (a fit on all of it, after the fact):")
    for form, score in sorted(fit.brier_by_form.items()):
        mark = "  <- the 20s' own measure" if form == spread.form else ""
        mark += "  <- the app's (belief.RECORD_SPREAD)" if form == RECORD_SPREAD.form else ""
        print(
            f"  \u00b1{form:.2f}: Brier {score:.4f}, worst gap "
            f"{worst_gap(forms[form], observed):.1f} points{mark}"
        )
    print(
        f"the whole record chooses \u00b1{fit.whole_record:.2f}; the app's previews use "
        f"\u00b1{RECORD_SPREAD.form:.2f}"
    )
    rating = rating_report(games, grid, observed, predicted["simulation"], args)
    print(
        "RESULT "
        f"games={len(games)} brier_rating={rating['rating']:.4f} "
        f"brier_elo={scores['elo']:.4f} brier_logistic20s={rating['logistic20s']:.4f} "
        f"brier_simulation={scores['simulation']:.4f} "
        f"brier_simulation_with_rating={rating['simulation_with_rating']:.4f} "
        f"brier_simulation_rating_pooled={rating['pooled']:.4f} "
        f"brier_coin={scores['coin']:.4f} "
        f"rating_worst_gap={rating['worst_gap']:.1f} "
        f"rating_worst_gap_as_listed={rating['worst_gap_listed']:.1f} "
        f"chosen={rating['chosen']} "
        + " ".join(f"brier_{name}={score:.4f}" for name, score in rating["candidates"].items())
        + f" replay_s={rating['replay_s']:.1f} replay_cpu_s={rating['replay_cpu_s']:.1f} "
        f"replay_games={args.speed_games} "
        f"sharper_than_elo={int(scores['simulation'] <= scores['elo'])} "
        f"worst_calibration_gap_pts={worst:.1f} worst_gap_as_listed_pts={worst_listed:.1f} "
        f"perfect_forecaster_worst_gap_pts={np.median(noise):.1f} "
        f"form_measured={spread.form:.2f} form_fitted={fit.whole_record:.2f} "
        f"form_app={RECORD_SPREAD.form:.2f} {share_fields}"
    )


def rating_report(
    games: Sequence[RealGame],
    grid,
    observed: Sequence[float],
    simulated: Sequence[float],
    args: argparse.Namespace,
) -> dict:
    """The rating's candidates, the 20s logistic and the simulation fed with the rating, each
    walked forward; prints their figures and the chosen rating's calibration."""
    import rating_backtest as rb

    from scoring.engine.rating import Params, replay_speed
    from simulation.players.belief import RATING_SLOPE, RATING_WEIGHT

    print("\n--- the rating ---")
    briers: dict[str, float] = {}
    fits: dict[str, rb.Fitted] = {}
    for name, candidates in rb.candidate_grids().items():
        fit = rb.fit_forward(candidates, lambda p: rb.rating_predictions(games, p), observed)
        fits[name] = fit
        briers[name] = brier(fit.predicted, observed)
        best = min(fit.by_setting, key=fit.by_setting.__getitem__)
        print(
            f"Brier {name:22} {briers[name]:.4f} walking forward over {len(candidates)} "
            f"settings (the best of them over the whole record, after the fact: "
            f"{fit.by_setting[best]:.4f})"
        )
    for sigma, gamma in TTT_SETTINGS:
        name = f"ttt_sigma{sigma:g}_gamma{gamma:g}"
        p = rb.ttt_predictions(games, sigma, gamma, args.ttt_block)
        briers[name] = brier(p, observed)
        print(
            f"Brier {name:22} {briers[name]:.4f} (TrueSkill Through Time, refitted on all "
            f"the games before each block of {args.ttt_block})"
        )
    chosen = min(fits, key=briers.__getitem__)
    mine = fits[chosen].predicted
    print(f"chosen: {chosen}; its settings at the end of the walk: {fits[chosen].settings[-1]}")
    if fits[chosen].settings[-1] != Params():
        print("  (the app's Params() differ from these: update scoring/engine/rating.py)")
    spread = spread_of(games)
    logistic = rb.fit_forward(
        rb.STEEPNESS,
        lambda k: rb.logistic_predictions(games, k, spread, PRIOR_TWENTIES, per_four),
        observed,
    )
    briers_logistic = brier(logistic.predicted, observed)
    print(
        f"Brier 20s logistic            {briers_logistic:.4f} (steepness walked forward; "
        f"{logistic.settings[-1]} at the end)"
    )
    app_spread = replace(spread, form=RECORD_SPREAD.form)
    # The rating it listens to: the chosen model with its first settings (openskill's
    # defaults), not the app's, which were fitted on this whole record.
    untuned = rb.candidate_grids()[chosen][0]
    settings = [(w, s) for w in rb.WEIGHTS for s in rb.SLOPES if w or s == rb.SLOPES[0]]
    with_rating = rb.fit_forward(
        settings,
        lambda ws: rb.simulation_with_rating(
            games,
            grid,
            app_spread,
            untuned,
            ws[0],
            ws[1],
            PRIOR_TWENTIES,
            per_four,
            expected_score,
        ),
        observed,
    )
    brier_with = brier(with_rating.predicted, observed)
    print(
        f"Brier simulation with rating  {brier_with:.4f} (each player's 20s level moved "
        f"towards their rating's, belief.rated_belief; weight and slope walked forward, "
        f"{with_rating.settings[-1]} at the end; the app uses "
        f"({RATING_WEIGHT}, {RATING_SLOPE}); weight 0 alone: "
        f"{with_rating.by_setting[(0.0, rb.SLOPES[0])]:.4f})"
    )
    pooled = rb.fit_forward(rb.POOL_WEIGHTS, lambda w: rb.mixed(simulated, mine, w), observed)
    brier_pooled = brier(pooled.predicted, observed)
    print(
        f"Brier simulation pooled with the rating's chance {brier_pooled:.4f} "
        f"(log-odds, the rating's share walked forward: {pooled.settings[-1]} at the end)"
    )
    print(f"\nthe rating's ({chosen}) calibration, player A as listed")
    listed = _print_calibration(mine, observed)
    print("\n... for every player of every game (each game from both sides)")
    both = _print_calibration(mine + [1 - p for p in mine], observed + [1 - y for y in observed])
    ties = sum(g.score_a == 0.5 for g in games) / len(games)
    noise = perfect_forecaster_gaps(mine, ties)
    print(
        f"a perfectly calibrated forecaster would show {np.median(noise):.1f} points "
        f"(90 % under {np.percentile(noise, 90):.1f})"
    )
    seconds, cpu = replay_speed(args.speed_games, args.speed_players)
    print(
        f"\nreplay of {args.speed_games} synthetic games between {args.speed_players} players: "
        f"{seconds:.1f} s ({cpu:.1f} s of this process's processor time)"
    )
    return {
        "rating": briers[chosen],
        "logistic20s": briers_logistic,
        "simulation_with_rating": brier_with,
        "pooled": brier_pooled,
        "worst_gap": both,
        "worst_gap_listed": listed,
        "chosen": chosen,
        "candidates": briers,
        "replay_s": seconds,
        "replay_cpu_s": cpu,
    }


def _print_calibration(predicted: Sequence[float], observed: Sequence[float]) -> float:
    """Print the table; returns its :func:`widest` gap."""
    rows = calibration(predicted, observed)
    for t, n, mean_p, mean_y in rows:
        gap = abs(mean_p - mean_y) * 100
        mark = "" if n >= ENOUGH else "  (too few games to judge)"
        span = f"{t / 10:.1f}-{(t + 1) / 10:.1f}"
        print(f"  {span} {n:5} {mean_p:8.3f} {mean_y:9.3f}  {gap:4.1f} pts{mark}")
    return widest(rows)


if __name__ == "__main__":
    main()
