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
    """A player's average from one event to the next: the level they bring on the day."""


RECORD_SPREAD = Spread(game=3.03, field=2.32, form=1.19)
"""The spreads measured on the real competitive singles games of 2009-2017 (646 games;
``bench/backtest.py`` measures and prints them: ``spread_of``)."""


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
