"""Counting a round: the board totals with the 20s, and the 2-1-0 round points.

NCA 2a(iii): "At the end of the round, the score on the board shall be counted along with the 20's".
Each disc in play counts the region it lies in (NCA 6, see :mod:`simulation.rules.regions`); each
20 set aside counts 20 for its owner. NCA 2a(iv): "The player or team with the higher score shall
receive 2 points. If the round is tied, each player or team shall receive 1 point." The WCC adds
that "For any round where no discs are shot before time expires, both teams will record a zero".

The points themselves come from the scoring engine (:func:`scoring.engine.points_from_score`), so
that a simulated round and a scorecard are judged by the same code.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.engine import points_from_score
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.regions import TWENTY, disc_value
from simulation.rules.state import Disc

SIDES = (0, 1)


def board_scores(
    discs: Iterable[Disc],
    twenties: tuple[int, int],
    geometry: BoardGeometry = DEFAULT_GEOMETRY,
) -> tuple[int, int]:
    """Each side's total: its discs on the board by region plus 20 for each of its 20s."""
    totals = [TWENTY * twenties[0], TWENTY * twenties[1]]
    for disc in discs:
        if disc.side not in SIDES:
            raise ValueError(f"disc {disc.id!r} has side {disc.side}: sides are 0 and 1")
        totals[disc.side] += disc_value(disc, geometry)
    return totals[0], totals[1]


def round_points(score: tuple[int, int], shots_taken: int) -> tuple[int, int]:
    """The round points: 2-0, 1-1 or 0-2 from the totals; 0-0 when no disc was shot."""
    if shots_taken == 0:
        return (0, 0)
    return points_from_score(score)
