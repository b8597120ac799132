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
the whole of it) is ±2.0: a day's level is more than its 20s.

The spread alone did not make the games end as real ones do: between the real games' players
so described, the simulated games' first 4 rounds ended 8-0 31.7 % of the time and 4-4 13.8 %
(the real games: 21.6 % and 24.1 %; ``bench/backtest.py``, 32 games per pair of levels), and a
smaller spread
mends little (at 1.0: 28.5 % and 14.6 %, Brier 0.1567 against 0.1546; at 0: 26.9 % and 15.1 %,
Brier 0.1602): rounds within a game go too much one player's way. A form of each player's own
per round (``simulation.players.noise.ROUND_OWN_FORM_SD``) is what moves them: in play at 0.5
with the levels refitted and this spread, the shares are all within 2.0 points of the real ones
and the Brier score (walking forward) 0.1564 against the 20s logistic's 0.1567 and Elo's 0.1732
(60 games per pair of levels). With it the results, walked forward, now prefer a smaller day's
spread (1.2, the 20s' own); that refit is not made here."""


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


#: How far a player's 20s level listens to their rating (0: not at all; 1: the rating alone
#: once it is sure) and how many 20s per 4-round game one rating point (openskill's units,
#: ``scoring.engine.rating``) is worth. ``bench/backtest.py`` walks both forward through the
#: real games of 2009-2017 and ends at these; the simulation's predictions sharpen from a Brier
#: score of 0.1547 (the 20s alone, the same spreads) to 0.1519 (pooling the simulation's chance
#: with the rating's afterwards gave 0.1533). Fitted on singles; doubles use them as they are.
RATING_WEIGHT = 0.5
RATING_SLOPE = 0.4
#: The rating's spread before any game (``scoring.engine.rating.SIGMA``): a rating this unsure
#: says nothing.
RATING_PRIOR_SIGMA = 25.0 / 3.0


def rated_belief(
    mean: float,
    sd: float,
    rating_offset: float,
    rating_sigma: float,
    prior: float,
    *,
    weight: float = RATING_WEIGHT,
    slope: float = RATING_SLOPE,
) -> tuple[float, float]:
    """The 20s belief ``(mean, sd)`` moved towards the level the person's rating stands for.

    The rating is read from results (won, drawn, lost, by how much), which say of a player's
    level what their 20s alone do not. ``rating_offset`` is the rating's mean less the
    starting one, and the level it stands for is ``prior + slope * rating_offset`` (the field's
    20s per game plus what the rating says of the player against it). The mean moves towards it
    by ``weight``, scaled by how sure the rating is (nothing for a rating as unsure as a new
    one, ``weight`` for a sure one); the spread stays the 20s belief's.
    """
    sureness = max(0.0, 1.0 - (rating_sigma / RATING_PRIOR_SIGMA) ** 2)
    share = weight * sureness
    level = prior + slope * rating_offset
    return (1.0 - share) * mean + share * level, sd
