"""Choosing among candidate shots: noisy executions, simulated in batches, successive halving.

Each candidate is executed several times under the player's own noise and every outcome is valued
(:mod:`evaluate`); the candidate with the best mean wins. Simulating every candidate many times
would waste most of the work on shots that are plainly worse, so the samples go where the decision
is close: successive halving runs the candidates in stages, each stage one batch of physics for all
survivors, keeping the best third for the next stage with more samples each, and adding jittered
neighbours of the leaders after the first stage (a small local search around them; not of the open
20, a fixed technique whose rate the skill profiles are calibrated on). Within a stage all
candidates share the same noise draws (common random numbers), so they are compared under the same
luck. Optionally the search stops as soon as the leader is clearly ahead (``Budget.stop_z``).

The budget adapts to the board: an empty board needs only the open 20 and its speed; a crowded one
gets more candidates and more samples.

A decision is one compiled call (:mod:`search_kernel`): the candidates, the noisy executions, the
physics, the values and the halving all in numba, about 7 times faster than the same search in
numpy (competitive self-play, ``bench/dryrun.py``; the physics is now most of the time), which is
kept as :mod:`reference` (the readable statement of the method, and the baseline the benchmark
measures against). The two make the same decisions (without the optional early stop), drawing
the same numbers from the player's generator: seeded games are played shot for shot alike, up to
round-off in the last bits.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

import numpy as np

from simulation.physics import DEFAULT_PARAMS, PhysicsParams
from simulation.physics.api import DEFAULT_MAX_EVENTS
from simulation.physics.geometry import peg_positions
from simulation.physics.nbtypes import entry_point
from simulation.players.candidate_kernel import board_arrays, breadth_array, situation_arrays
from simulation.players.candidates import Breadth
from simulation.players.evaluate import DEFAULT_WEIGHTS, Weights, evaluation_arrays
from simulation.players.profiles import DEFAULT_SHOTS, SkillProfile
from simulation.players.search_kernel import choose_kernel
from simulation.players.situation import FIGURES, Situation


@dataclass(frozen=True)
class Budget:
    """How many physics shots one decision may spend, and how the halving proceeds."""

    shots: int = DEFAULT_SHOTS
    """Physics shots per decision with discs on the board (a player's own: :func:`budget_for`)."""
    empty_board_shots: int = 36
    """Physics shots per decision on an empty board (the open 20: only its speed to pick)."""
    eta: int = 3
    """Each stage keeps the best 1/eta of the candidates."""
    leaders: int = 2
    """Candidates whose jittered neighbours join after the first stage."""
    neighbours: int = 2
    """Jittered neighbours per leader."""
    breadth: Breadth = field(default_factory=Breadth)
    stop_z: float = 0.0
    """Stop the halving early once every other candidate still in the race is this many standard
    errors behind the leader (0: run every stage, as :mod:`reference` does). The later stages
    sharpen a close race; when the race is not close they only confirm the leader. Off by
    default: at 3 (``checks`` 2) it chose as every stage does in 1,594 of 1,600 seeded decisions
    at all levels, but saved only 5 % of the shots there (12 to 15 % in competitive and best v
    novice games) and a few per cent of the time, and an early stop on 3 samples can trust a
    lucky streak (an open 20 made three times out of three): not worth a change of play that
    the calibrated weights would have to be refitted for."""
    checks: int = 2
    """How many times per stage the race is checked for a clear leader (the stage's draws come
    in as many parts, the same draws as in one)."""


DEFAULT_BUDGET = Budget()

BASIC_BREADTH = Breadth(targets=2, starts_per_target=1, roll_targets=0, hides=0)
"""What a player of the basic repertoire considers (see :mod:`profiles`)."""


@functools.lru_cache(maxsize=256)
def budget_for(profile: SkillProfile, base: Budget = DEFAULT_BUDGET) -> Budget:
    """The budget of a player of this profile: its shots per decision and its repertoire
    (cached: asked for at every decision, and ``dataclasses.replace`` is slow next to one)."""
    if profile.repertoire == "basic":
        return replace(base, shots=profile.shots, neighbours=0, breadth=BASIC_BREADTH)
    return replace(base, shots=profile.shots)


@dataclass(frozen=True)
class Choice:
    """The chosen nominal shot, what it was for, and what the choice cost."""

    position: float
    angle: float
    speed: float
    kind: int
    target: int
    value: float
    samples: int
    shots_simulated: int
    candidates: int


def choose(
    sit: Situation,
    profile: SkillProfile,
    rng: np.random.Generator,
    budget: Budget = DEFAULT_BUDGET,
    weights: Weights = DEFAULT_WEIGHTS,
    uniform: bool = False,
    params: PhysicsParams = DEFAULT_PARAMS,
) -> Choice:
    """The best candidate by successive halving (or, with ``uniform``, by the naive baseline:
    every candidate gets as many samples as halving gives its finalists, in one stage; see
    :func:`schedule`). One compiled call (:func:`search_kernel.choose_kernel`)."""
    total = budget.empty_board_shots if sit.n_discs == 0 else budget.shots
    out = _CHOOSE(
        *situation_arrays(sit),
        breadth_array(budget.breadth),
        _BOARD,
        total,
        budget.eta,
        budget.leaders,
        budget.neighbours,
        uniform,
        budget.stop_z,
        budget.checks,
        rng,
        (float(profile.angle_sd), float(profile.speed_sd), FIGURES.shooting_r),
        _physics(params),
        evaluation_arrays(sit, weights),
    )
    position, angle, speed, kind, target, value, samples, shots, candidates = out
    return Choice(position, angle, speed, kind, target, value, samples, shots, candidates)


_BOARD = board_arrays(FIGURES)
_CHOOSE = entry_point(choose_kernel)


@functools.lru_cache(maxsize=8)
def _physics(params: PhysicsParams) -> tuple[np.ndarray, np.ndarray, int]:
    """Packed parameters, peg centres and the event cap the compiled physics reads."""
    return params.to_array(), peg_positions(params), DEFAULT_MAX_EVENTS


def schedule(n: int, total: int, eta: int) -> list[int]:
    """Samples per candidate at each halving stage for ``n`` candidates and ``total`` shots.

    Each stage spends about ``total / stages`` shots on the candidates still in the race, and
    keeps the best ``1/eta`` of them. The naive baseline gives every candidate the sum: as many
    samples as a finalist of the halving gets.
    """
    stages = max(1, math.ceil(math.log(max(n, 2), eta)))
    per_stage = max(1, total // stages)
    plan = []
    alive = n
    for _ in range(stages):
        plan.append(max(1, per_stage // alive))
        alive = max(1, math.ceil(alive / eta))
    return plan
