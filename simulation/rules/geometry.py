"""The board's dimensions as the rules measure them.

Figures are those of an NCA / WCC tournament board (24 in shooting line, 26 in playing surface,
1 1/4 in discs), in metres. Every line has a width: NCA 6e judges "touching a line" by whether
the disc's bottom edge is over any part of the painted line, so a disc touches the line of radius
``R`` when its radial extent ``[d - r, d + r]`` meets the band ``[R - w/2, R + w/2]``.

The figures come from :mod:`simulation.board`, as the physics parameters' defaults do; the
simulation entry point builds a :class:`BoardGeometry` from the physics parameters in use so that
the rules and the physics always agree on where a line is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from simulation.board import (
    DISC_RADIUS,
    HOLE_RADIUS,
    LINE_10_5_RADIUS,
    LINE_15_10_RADIUS,
    LINE_WIDTH,
    PEG_RADIUS,
    SHOOTING_LINE_RADIUS,
    SURFACE_RADIUS,
)
from tournaments.translation import _


@dataclass(frozen=True)
class BoardGeometry:
    """Radii (metres) of the board's lines, the 20 hole and the discs, and the line width."""

    surface_radius: float = SURFACE_RADIUS
    shooting_line_radius: float = SHOOTING_LINE_RADIUS
    line_10_5_radius: float = LINE_10_5_RADIUS
    line_15_10_radius: float = LINE_15_10_RADIUS
    hole_radius: float = HOLE_RADIUS
    disc_radius: float = DISC_RADIUS
    line_width: float = LINE_WIDTH
    peg_radius: float = PEG_RADIUS

    def __post_init__(self) -> None:
        radii = (
            self.hole_radius,
            self.line_15_10_radius,
            self.line_10_5_radius,
            self.shooting_line_radius,
            self.surface_radius,
        )
        if any(not math.isfinite(v) or v <= 0 for v in (*radii, self.disc_radius)):
            raise ValueError(_("board radii must be positive finite numbers"))
        if list(radii) != sorted(radii):
            raise ValueError(_("board radii must grow from the 20 hole out to the surface edge"))
        if not 0 <= self.line_width < self.disc_radius:
            raise ValueError(_("the line width must be at least 0 and narrower than a disc"))

    @property
    def half_line(self) -> float:
        """Half the painted line width."""
        return self.line_width / 2

    @property
    def hole_support_radius(self) -> float:
        """How close to the hole's centre a flat disc's centre may lie before the disc drops in.

        Its centre of mass is unsupported within sqrt(R_hole² - r²) of the hole's centre.
        """
        return math.sqrt(max(self.hole_radius**2 - self.disc_radius**2, 0.0))

    def touches_or_beyond(self, distance: float, line_radius: float) -> bool:
        """Whether a disc centred ``distance`` from the centre reaches the line or passes it.

        True when the disc's outer edge is over any part of the painted line (NCA 6e) or the disc
        lies wholly outside it.
        """
        return distance + self.disc_radius >= line_radius - self.half_line

    def touches_or_within(self, distance: float, line_radius: float) -> bool:
        """Whether a disc centred ``distance`` from the centre touches the line or is inside it."""
        return distance - self.disc_radius <= line_radius + self.half_line

    def touches_shooting_line_or_beyond(self, x: float, y: float) -> bool:
        """Whether a disc at rest here is out of play for touching or passing the shooting line.

        NCA 8c: "If a disc touches or crosses the outer boundary line it is out-of-play".
        """
        return self.touches_or_beyond(math.hypot(x, y), self.shooting_line_radius)


DEFAULT_GEOMETRY = BoardGeometry()
"""The NCA / WCC tournament board with a 2 mm line."""
