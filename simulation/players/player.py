"""An AI player: a skill profile, the shot-selection search, and the hand that releases the shot.

The player plans with its own noise (it knows how well it shoots), picks the nominal shot with
:func:`simulation.players.search.choose`, then releases it with a fresh error from the same noise.
Everything random comes from the generator handed in, so a seeded game replays exactly.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from simulation.players.candidates import KINDS
from simulation.players.evaluate import DEFAULT_WEIGHTS, Weights
from simulation.players.noise import execute
from simulation.players.profiles import MAX_ANGLE_SD, MAX_SPEED_SD, SkillProfile, get_profile
from simulation.players.reference import choose as reference_choose
from simulation.players.search import DEFAULT_BUDGET, Budget, Choice, budget_for, choose
from simulation.players.situation import Situation


@dataclass
class AIPlayer:
    """A simulated player of the given skill."""

    profile: SkillProfile
    budget: Budget = DEFAULT_BUDGET
    weights: Weights = DEFAULT_WEIGHTS
    uniform: bool = False
    """Use the naive baseline search (every candidate sampled alike); for benchmarks."""
    reference: bool = False
    """Decide with the numpy search of :mod:`reference` (the same decisions, several times
    slower); for benchmarks and checks."""
    decisions: int = field(default=0, init=False)
    shots_simulated: int = field(default=0, init=False)
    hand: SkillProfile = field(init=False)
    """The profile the player executes with in the round being played: ``profile`` in the
    round's form (:meth:`in_form`)."""

    def __post_init__(self) -> None:
        self.hand = self.profile

    @functools.cached_property
    def search_budget(self) -> Budget:
        """The search budget: the profile's shots and repertoire within the player's budget
        (found once: it is asked for at every decision, and looking it up in the cache hashed
        the profile and the budget, field by field, each time)."""
        return budget_for(self.profile, self.budget)

    @functools.cached_property
    def shot_weights(self) -> Weights:
        """The value function's weights, with the profile's own open-board value when it has one
        (the weight fitted per level to real 20s counts; found once, as the budget is)."""
        return _profile_weights(self.weights, self.profile.open_board)

    @classmethod
    def of(cls, spec: str | Mapping[str, Any] | SkillProfile, **options: Any) -> AIPlayer:
        """A player from a level name, a profile dict or a :class:`SkillProfile`."""
        return cls(get_profile(spec), **options)

    def in_form(self, form: float) -> None:
        """Play the next round in a form that multiplies this hand's errors by ``form`` (the
        round's shared form times the player's own: ``simulation.players.noise.round_forms``);
        the player reads the board knowing it."""
        self.hand = self.profile
        # A round in a form so bad (a draw far in the tail, once in a million rounds) that the
        # errors would pass what any player makes is played at the worst a player can be.
        form = min(
            form,
            MAX_ANGLE_SD / max(self.profile.angle_sd, 1e-12),
            MAX_SPEED_SD / max(self.profile.speed_sd, 1e-12),
        )
        if form != 1.0:
            self.hand = replace(
                self.profile,
                angle_sd=self.profile.angle_sd * form,
                speed_sd=self.profile.speed_sd * form,
            )

    def decide(self, sit: Situation, rng: np.random.Generator) -> Choice:
        """The shot this player means to play."""
        search = reference_choose if self.reference else choose
        choice = search(sit, self.hand, rng, self.search_budget, self.shot_weights, self.uniform)
        self.decisions += 1
        self.shots_simulated += choice.shots_simulated
        return choice

    def release(
        self, choice: Choice, seat: int, shot_id: str, rng: np.random.Generator
    ) -> dict[str, Any]:
        """The shot actually played: the chosen one with this player's execution error."""
        nominal = {
            "seat": seat,
            "position": choice.position,
            "angle": choice.angle,
            "speed": choice.speed,
            "id": shot_id,
        }
        return execute(nominal, self.hand, rng)


def aim_record(choice: Choice) -> dict[str, Any]:
    """What the player aimed at, for the game record: the nominal shot and its purpose."""
    return {
        "kind": KINDS[choice.kind],
        "position": choice.position,
        "angle": choice.angle,
        "speed": choice.speed,
        "expected": round(choice.value, 3),
    }


@functools.lru_cache(maxsize=256)
def _profile_weights(weights: Weights, open_board: float | None) -> Weights:
    """``weights`` with a profile's own open-board value (cached: asked for at every decision)."""
    if open_board is None:
        return weights
    return replace(weights, open_board=open_board)
