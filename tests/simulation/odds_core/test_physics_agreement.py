"""The cut odds read from the stored table agree with the full physics within 2 points.

The small event of :func:`simulation.outcomes.physics_check.small_event` (8 players of distinct
levels described by their record, six games each played, the last round of 4 games left, cut 4):
each game left is played 500 times by ``play_game(events=False)`` (2,000 games, about two minutes
on one core), and 20,000 finishes are drawn from those and from the table. Standard errors: the
physics side at most about 1 point (the bootstrap gives 0.9 and 1.0 for the two entries on the
line, less for the others: the cut hinges mostly on their own game, 0.5 / sqrt(500) = 2.2 points
per game result, shared between the results they need), the table side at most 0.35 point
(0.5 / sqrt(20,000)). A gap of 2 points is then twice the larger error: the check has room for
noise and still fails a table whose games lean a few points off the physics.
"""

from __future__ import annotations

import pytest

from simulation.game import play_game
from simulation.outcomes.physics_check import compare, describe, physics_games, small_event
from simulation.outcomes.table import load_table

GAMES_PER_PAIRING = 500
MAX_GAP_POINTS = 2.0


@pytest.mark.slow
def test_the_cut_odds_agree_with_the_physics():
    event = small_event()
    games = physics_games(event, GAMES_PER_PAIRING, play_game, seed=0)
    agreement = compare(event, games, load_table("singles"), finishes=20_000, seed=0)
    report = "\n".join(describe(agreement))
    # The event is worth checking: the line runs between entries whose chances are open.
    assert sum(0.05 < p < 0.95 for p in agreement.physics) >= 2, report
    assert agreement.physics_se.max() < 0.015, report
    assert agreement.max_gap_points <= MAX_GAP_POINTS, report
