"""Which scoring region a disc on the board counts in.

NCA 6a: "The centre hole shall count 20, the region around it 15, the next region (outside the pegs)
10 and the outer region 5." NCA 6b: "A disc shall score the lowest value of any region of the board
that it is touching." NCA 6d: a disc touching a line "scores the lower value of the two regions
adjacent to the line". NCA 6e: touching is judged by the disc's bottom edge over any part of the
painted line, so the line's width counts. NCA 6c: only a disc completely in the hole and lying flat
scores 20; a leaner counts 15 (and stays in play). A disc touching the shooting line is out of play
(NCA 8c) and scores nothing; 20s are set aside as they are made (NCA 2a(ii)) and are counted from
there, not from the board.
"""

from __future__ import annotations

from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.state import Disc
from tournaments.translation import _

TWENTY = 20
FIFTEEN = 15
TEN = 10
FIVE = 5
OUT = 0


def region_value(distance: float, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> int:
    """The value of a flat disc whose centre lies ``distance`` from the board's centre.

    The lowest region the disc touches: 0 when it reaches the shooting line (out of play), 5 when
    it reaches the 10/5 line, 10 when it reaches the 15/10 line, otherwise 15.
    """
    if distance < 0:
        raise ValueError(
            _("a distance from the centre cannot be negative (%(distance)s)")
            % {"distance": distance}
        )
    if geometry.touches_or_beyond(distance, geometry.shooting_line_radius):
        return OUT
    if geometry.touches_or_beyond(distance, geometry.line_10_5_radius):
        return FIVE
    if geometry.touches_or_beyond(distance, geometry.line_15_10_radius):
        return TEN
    return FIFTEEN


def disc_value(disc: Disc, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> int:
    """What a disc in play scores where it lies: a leaner counts 15 (NCA 6c)."""
    if disc.leaner:
        return FIFTEEN
    return region_value(disc.distance, geometry)


def reaches_the_15(disc: Disc, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> bool:
    """Whether a disc touches the 15 line or lies within it (the no-hiding test, NCA 3a(ii))."""
    return disc.leaner or geometry.touches_or_within(disc.distance, geometry.line_15_10_radius)
