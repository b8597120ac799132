"""The numpy search, kept as the reference the compiled one (:mod:`search`) is measured against.

This is the search as it was before it was compiled, unchanged: candidates from the numpy
generator (:func:`candidates.generate`), one ``simulate_batch`` call per halving stage through the
physics' Python wrapper, the outcomes valued by :class:`evaluate.Evaluator`. It makes the same
decisions as :func:`search.choose` (the tests check it on seeded situations) at several times the
cost, and serves as the "old search" baseline of ``bench/dryrun.py`` and as the readable
statement of the method; a change of the method is made in both.
"""

from __future__ import annotations

import math

import numpy as np

from simulation.physics import DEFAULT_PARAMS, PhysicsParams, codes, simulate_batch
from simulation.players.candidates import OPEN_20, Candidates, generate, start_points
from simulation.players.evaluate import DEFAULT_WEIGHTS, Evaluator, Weights
from simulation.players.noise import draws, perturb
from simulation.players.profiles import SkillProfile
from simulation.players.search import DEFAULT_BUDGET, Budget, Choice, schedule
from simulation.players.situation import Situation
from simulation.rules.seats import seat_angle


class Simulator:
    """Runs noisy executions of candidate shots for one situation through the batch physics."""

    def __init__(
        self,
        sit: Situation,
        profile: SkillProfile,
        weights: Weights = DEFAULT_WEIGHTS,
        params: PhysicsParams = DEFAULT_PARAMS,
    ) -> None:
        self.sit = sit
        self.profile = profile
        self.params = params
        n = sit.n_discs
        self.state_pos = np.zeros((n + 1, 2))
        self.state_pos[:n] = sit.positions
        self.state_status = np.full(n + 1, codes.SURFACE, dtype=np.int8)
        self.state_status[:n][sit.leaners] = codes.LEANER
        self.evaluator = Evaluator(sit, weights)
        self.seat_angle = seat_angle(sit.seat)
        self.shots = 0

    def values(self, cands: Candidates, z: np.ndarray) -> np.ndarray:
        """Values (C, S) of each candidate executed with each pair of draws in ``z`` (S, 2)."""
        angle, speed = perturb(cands.angle[:, None], cands.speed[:, None], self.profile, z)
        c, s = angle.shape
        start = np.repeat(start_points(self.seat_angle, cands.position), s, axis=0)
        heading = np.radians(self.seat_angle + 180.0 + angle.ravel())
        speed = speed.ravel()
        vel = np.stack([speed * np.cos(heading), speed * np.sin(heading)], axis=-1)
        batch = simulate_batch(
            self.state_pos, self.state_status, self.sit.n_discs, start, vel, params=self.params
        )
        self.shots += c * s
        return self.evaluator(batch).value.reshape(c, s)


def _jitter(cands: Candidates, leaders: np.ndarray, count: int, rng: np.random.Generator):
    index = np.repeat(leaders, count)
    picked = cands.take(index)
    n = len(index)
    return Candidates(
        position=picked.position,
        angle=picked.angle + 0.6 * rng.standard_normal(n),
        speed=picked.speed * (1.0 + 0.05 * rng.standard_normal(n)),
        kind=picked.kind,
        target=picked.target,
    )


def choose(
    sit: Situation,
    profile: SkillProfile,
    rng: np.random.Generator,
    budget: Budget = DEFAULT_BUDGET,
    weights: Weights = DEFAULT_WEIGHTS,
    uniform: bool = False,
) -> Choice:
    """The best candidate by successive halving (or, with ``uniform``, by the naive baseline:
    every candidate gets as many samples as halving gives its finalists, in one stage; see
    :func:`search.schedule`)."""
    cands = generate(sit, budget.breadth)
    sim = Simulator(sit, profile, weights)
    total = budget.empty_board_shots if sit.n_discs == 0 else budget.shots
    n0 = len(cands)
    if n0 == 1:
        return _choice(cands, 0, 0.0, 0, 0, 1)
    plan = schedule(n0, total, budget.eta)
    if uniform:
        samples = sum(plan)
        sums = sim.values(cands, draws(rng, samples)).sum(axis=1)
        best = int(np.argmax(sums))
        return _choice(cands, best, sums[best] / samples, samples, sim.shots, n0)
    stages = len(plan)
    per_stage = max(1, total // stages)
    sums = np.zeros(n0)
    counts = np.zeros(n0, dtype=np.int64)
    alive = np.arange(n0)
    for stage in range(stages):
        samples = max(1, per_stage // len(alive))
        values = sim.values(cands.take(alive), draws(rng, samples))
        sums[alive] += values.sum(axis=1)
        counts[alive] += samples
        means = sums[alive] / counts[alive]
        if len(alive) == 1 or stage == stages - 1:
            break
        order = alive[np.argsort(-means, kind="stable")]
        keep = max(1, math.ceil(len(alive) / budget.eta))
        alive = order[:keep]
        leaders = order[: budget.leaders]
        leaders = leaders[cands.kind[leaders] != OPEN_20]
        if stage == 0 and budget.neighbours and len(leaders):
            extra = _jitter(cands, leaders, budget.neighbours, rng)
            first = len(cands)
            cands = Candidates.concat([cands, extra])
            sums = np.concatenate([sums, np.zeros(len(extra))])
            counts = np.concatenate([counts, np.zeros(len(extra), dtype=np.int64)])
            alive = np.concatenate([alive, np.arange(first, first + len(extra))])
    best = int(alive[np.argmax(means)])
    return _choice(cands, best, sums[best] / counts[best], int(counts[best]), sim.shots, n0)


def _choice(cands: Candidates, best: int, value: float, samples: int, shots: int, n: int) -> Choice:
    return Choice(
        position=float(cands.position[best]),
        angle=float(cands.angle[best]),
        speed=float(cands.speed[best]),
        kind=int(cands.kind[best]),
        target=int(cands.target[best]),
        value=float(value),
        samples=samples,
        shots_simulated=shots,
        candidates=n,
    )
