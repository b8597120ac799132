"""The tournament board's figures, in metres: the one place both the physics and the rules read.

NCA / WCC tournament board (board.md): a 24 in shooting line, a 26 in playing surface, 1 1/4 in
discs. Plain constants, importable without compiling the physics.
"""

SURFACE_RADIUS = 0.3302
"""Playing surface, 26 in across: a disc whose centre passes this edge falls into the ditch."""

SHOOTING_LINE_RADIUS = 0.3048
"""Shooting line (the outer line of the 5 region), 24 in across as NCA events require."""

LINE_10_5_RADIUS = 0.2032
"""The line between the 10 and the 5 regions, 16 in across."""

LINE_15_10_RADIUS = 0.1016
"""The line between the 15 and the 10 regions, 8 in across; the pegs stand on it."""

HOLE_RADIUS = 0.017463
"""The 20 hole, 1 3/8 in across."""

DISC_RADIUS = 0.015875
"""A disc, 1 1/4 in across."""

LINE_WIDTH = 0.002
"""Painted line width; boards vary from 1/16 to 1/8 in."""

PEG_RADIUS = 0.0048
"""Peg radius (rubber sleeved, about 3/8 in across; no official figure)."""
