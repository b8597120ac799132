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

import functools
from collections.abc import Iterable, Sequence

from scoring.engine import points_from_score, three_player_points
from scoring.engine.three import SIDES as THREE_SIDES
from scoring.engine.three import TIME_EXPIRED
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.regions import TWENTY, disc_value
from simulation.rules.state import Disc
from tournaments.translation import _


def board_scores(
    discs: Iterable[Disc],
    twenties: Sequence[int],
    geometry: BoardGeometry = DEFAULT_GEOMETRY,
) -> tuple[int, ...]:
    """Each side's total: its discs on the board by region plus 20 for each of its 20s.

    One total per entry of ``twenties``: two sides, or three in the three-player game alone.
    """
    totals = [TWENTY * count for count in twenties]
    for disc in discs:
        if not 0 <= disc.side < len(totals):
            sides = functools.reduce(
                lambda left, right: _("%(left)s and %(right)s") % {"left": left, "right": right},
                (str(side) for side in range(1, len(totals))),
                "0" if totals else "",
            )
            raise ValueError(
                _("disc %(disc)r has side %(side)s: sides are %(sides)s")
                % {"disc": disc.id, "side": disc.side, "sides": sides}
            )
        totals[disc.side] += disc_value(disc, geometry)
    return tuple(totals)


def round_points(score: Sequence[int], shots_taken: int) -> tuple[int, ...]:
    """The round points: 2-0, 1-1 or 0-2 from the totals; 0-0 when no disc was shot.

    Three players alone (family rulebook, Three-Player Game, Option Two) score by the Match-Play
    Rule, 2-1-0 by rank, with the scoring engine's :func:`scoring.engine.three_player_points`;
    0-0-0 when no disc was shot.
    """
    if len(score) == THREE_SIDES:
        if shots_taken == 0:
            return TIME_EXPIRED
        return three_player_points(score)
    if shots_taken == 0:
        return (0, 0)
    return points_from_score((score[0], score[1]))
