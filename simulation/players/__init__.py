"""AI players: shot selection under execution noise, and skill profiles. Pure: no Django.

A player reads the board (:mod:`situation`), lists the shots a strong player would consider
(:mod:`candidates`), simulates noisy executions of them in batches with the compiled physics and
values the outcomes under the rules (:mod:`evaluate`), spending its samples on the promising shots
by successive halving (:mod:`search`), then releases the chosen shot with its own error
(:mod:`noise`, :mod:`player`). Skill is the size of that error (:mod:`profiles`), calibrated on
real open-20 rates, with how readily each level clears the board fitted to real 20s per game
(:mod:`calibrate`); a player is estimable from their 20s per game (:mod:`estimate`).
Whole games: :func:`simulation.game.play_game`.
"""

from simulation.players.candidates import KINDS, OPEN_20_SPEED, Candidates, generate
from simulation.players.estimate import TWENTIES_PER_GAME, open_20_rate_of, profile_from_twenties
from simulation.players.evaluate import DEFAULT_WEIGHTS, Weights
from simulation.players.player import AIPlayer
from simulation.players.profiles import (
    LEVELS,
    OPEN_20_TARGETS,
    PROFILES,
    SkillProfile,
    get_profile,
)
from simulation.players.search import DEFAULT_BUDGET, Budget, Choice, choose
from simulation.players.situation import Situation, situation_from_state

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_WEIGHTS",
    "KINDS",
    "LEVELS",
    "OPEN_20_SPEED",
    "OPEN_20_TARGETS",
    "PROFILES",
    "TWENTIES_PER_GAME",
    "AIPlayer",
    "Budget",
    "Candidates",
    "Choice",
    "Situation",
    "SkillProfile",
    "Weights",
    "choose",
    "generate",
    "get_profile",
    "open_20_rate_of",
    "profile_from_twenties",
    "situation_from_state",
]
