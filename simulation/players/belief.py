"""What a player's record says of their level on the day: a normal belief, not a number.

A player's 20s per game in the games seen so far is their level plus luck: few games say little,
and even many games leave the level they bring on a given day unknown (players have good and bad
events). Describing a player by their plain average made every prediction too sure of itself:
the backtest on the real games of 2009-2017 (``bench/backtest.py``) predicted 3.7 % for games
the favourite lost one time in four. So a player is described by a normal belief over their 20s
per 4-round game: the mean is their average shrunk towards the field's, the more the fewer their
games (a normal prior and normal luck), and the spread is what the average does not know yet
plus how far the day's level may be from it. A preview or an auto-played match plays each game
at a level drawn from it (``play_game``'s ``{"twenties_per_game": x, "spread": s}``).

Pure: no Django, no physics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Spread:
    """How 20s per game vary (standard deviations, 20s per 4-round game)."""

    game: float
    """One player's games about their own average, within an event: the luck of a game."""
    field: float
    """Players' true averages about the field's: how different the players are."""
    form: float
    """How far the level a player brings on the day may be from their lasting average."""


RECORD_SPREAD = Spread(game=3.03, field=2.32, form=2.0)
"""The spreads of the real competitive singles games of 2009-2017 (646 games; ``bench/backtest.py``
measures and prints them). ``game`` and ``field`` are measured on the 20s counts (``spread_of``).
``form`` is fitted on the results: the 20s counts alone say a player's average moves by ±1.19
from one event to the next, but read with that the simulated games between described players
were too sure of the favourite (the backtest's worst tenth 8 to 10 points off); the spread that
best predicts the results (the lowest Brier score, walking forward through the record, and over
the whole of it) is ±2.0: a day's level is more than its 20s."""


def belief(
    mean: float, games: int, prior: float, spread: Spread = RECORD_SPREAD
) -> tuple[float, float]:
    """What ``games`` games averaging ``mean`` 20s per game say of the player's 20s per game on
    the day, for a player of a field averaging ``prior``: (mean, standard deviation).

    With no game it is the field's level with the field's whole spread (and the day's); every
    game pulls the mean towards the player's average and narrows the spread, down to the day's
    form, which no number of games removes.
    """
    precision = games / spread.game**2 + 1.0 / spread.field**2
    centre = (mean * games / spread.game**2 + prior / spread.field**2) / precision
    return centre, math.sqrt(1.0 / precision + spread.form**2)
