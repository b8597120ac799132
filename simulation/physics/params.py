"""Physical constants of the board and the discs, in one frozen parameter object.

Every number the engine uses lives here, with its source (``board.md``, the project's collected
facts about the board). Values that no public source gives are parameters with a default to be
calibrated, never constants buried in the compiled code. The compiled kernel cannot take a
dataclass, so :meth:`PhysicsParams.to_array` packs the fields, plus the derived quantities the hot
loop needs (deceleration, thresholds, fall times), into one float64 array addressed by the ``P_*``
index constants below.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from simulation import board
from tournaments.translation import _

# Indices into the packed parameter array (read by the compiled code as compile-time constants).
P_G = 0
P_MU_BOARD = 1
P_E_DISC = 2
P_MU_DISC = 3
P_E_PEG = 4
P_MU_PEG = 5
P_E_RAIL = 6
P_MU_RAIL = 7
P_DISC_R = 8
P_DISC_MASS = 9
P_PEG_R = 10
P_PEG_CIRCLE_R = 11
P_LINE_W = 12
P_SHOOT_R = 13
P_SURFACE_R = 14
P_DITCH_W = 15
P_HOLE_R = 16
P_HOLE_DEPTH = 17
P_LEANER_FRACTION = 18
P_DITCH_DROP = 19
P_SPIN_FACTOR = 20
# Derived quantities (computed once in ``to_array``).
P_DECEL = 21  # a = mu g, deceleration of a sliding disc
P_SPIN_DECEL = 22  # angular deceleration of a spinning disc on the board
P_TOUCH_R = 23  # centre distance at which a disc starts touching the shooting line
P_RHO = 24  # centre distance from the hole centre within which a disc is unsupported
P_T_DROP = 25  # unsupported time that drops a disc into the hole: sqrt(2 h_c / g)
P_T_LEAN = 26  # unsupported time that makes a disc catch the far rim: a leaner
P_T_FALL = 27  # time over the ditch after which a disc has fallen in: sqrt(2 drop / g)
P_RAIL_CONTACT_R = 28  # centre distance at which a disc in the ditch touches the rail
P_PEG_CONTACT_R = 29  # centre distance disc-peg at contact: r_disc + r_peg
P_PAIR_CONTACT_R = 30  # centre distance disc-disc at contact: 2 r_disc
N_PARAMS = 31


@dataclass(frozen=True)
class PhysicsParams:
    """Constants of one simulated board (SI units: metres, seconds, kilograms).

    Defaults and ranges come from ``board.md``; where it says no published value exists the field
    is marked *calibrate*. Geometry follows the NCA/WCC tournament board.
    """

    g: float = 9.81
    """Gravitational acceleration, m/s²."""
    mu_board: float = 0.15
    """Disc-board sliding friction (waxed board), board.md range 0.10-0.25; calibrate."""
    e_disc: float = 0.9
    """Disc-disc restitution (maple on maple), board.md range 0.8-0.95; calibrate."""
    mu_disc: float = 0.1
    """Disc-disc friction capping the tangential impulse, board.md range 0.05-0.3; calibrate."""
    e_peg: float = 0.7
    """Disc-peg restitution (rubber sleeve), board.md range 0.5-0.8; calibrate."""
    mu_peg: float = 0.2
    """Disc-peg friction, board.md range 0.1-0.5; calibrate."""
    e_rail: float = 0.75
    """Disc-rail restitution (hardwood rail). No published value; calibrate."""
    mu_rail: float = 0.2
    """Disc-rail friction. No published value; calibrate."""
    disc_radius: float = board.DISC_RADIUS
    """Disc radius: Ø 1 1/4 in (board.md)."""
    disc_mass: float = 0.0055
    """Disc mass ≈ volume x maple density (board.md; no published value). Equal discs make the
    motion independent of it; it sets the impulses reported in the event record."""
    peg_radius: float = board.PEG_RADIUS
    """Peg radius, ≈ Ø 3/8 in rubber sleeved (board.md; no official value)."""
    peg_circle_radius: float = board.LINE_15_10_RADIUS
    """The 15/10 line, r 4 in, on which the eight pegs stand (board.md)."""
    line_width: float = board.LINE_WIDTH
    """Painted line width, 1/16-1/8 in (board.md default 0.002)."""
    shooting_line_radius: float = board.SHOOTING_LINE_RADIUS
    """Shooting line (outer line of the 5 zone), r 12 in: NCA-sanctioned 24 in (board.md)."""
    ten_five_radius: float = board.LINE_10_5_RADIUS
    """The 10/5 line, r 8 in (board.md). Geometry only: scoring regions."""
    surface_radius: float = board.SURFACE_RADIUS
    """Edge of the playing surface, r 13 in: a disc whose centre passes it falls (board.md)."""
    ditch_width: float = 0.051
    """Ditch width ≥ 2 in (board.md); the rail's inner face is at surface_radius + ditch_width."""
    hole_radius: float = board.HOLE_RADIUS
    """The 20 hole, Ø 1 3/8 in (board.md)."""
    hole_capture_depth: float = 0.001
    """h_c: how far the unsupported leading edge must fall before the far rim for the disc to
    drop into the hole (board.md range 0.5-2 mm); calibrate."""
    leaner_fraction: float = 0.9
    """A disc that crosses the hole having fallen at least this fraction of h_c (but not all of
    it) catches its leading edge on the far rim and stops tilted: a leaner, 15 points. No
    published value; calibrate against the share of leaners in real play."""
    ditch_drop: float = 0.00475
    """How far a disc over the ditch may fall (free fall of its centre after it passes the
    surface edge) and still fly back onto the surface: half the 9.5 mm disc thickness. No
    published value; calibrate."""
    spin_friction_factor: float = 4.0 / 3.0
    """Spin decays at factor x mu_board x g / r (rad/s²). A flat disc of uniform pressure
    spinning in place feels the friction torque (2/3) mu m g r against inertia m r²/2, which
    gives 4/3. Spin does not bend the path (board.md)."""

    def __post_init__(self) -> None:
        """Reject values that would make the geometry or the kinematics meaningless."""
        positive = (
            "g",
            "mu_board",
            "disc_radius",
            "disc_mass",
            "peg_radius",
            "hole_radius",
            "hole_capture_depth",
            "ditch_drop",
            "ditch_width",
            "surface_radius",
            "shooting_line_radius",
        )
        for name in positive:
            if not getattr(self, name) > 0.0:
                raise ValueError(
                    _("%(name)s must be positive, got %(value)r")
                    % {"name": name, "value": getattr(self, name)}
                )
        for name in ("e_disc", "e_peg", "e_rail"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(
                    _("%(name)s must lie in [0, 1], got %(value)r")
                    % {"name": name, "value": getattr(self, name)}
                )
        for name in ("mu_disc", "mu_peg", "mu_rail", "line_width", "spin_friction_factor"):
            if getattr(self, name) < 0.0:
                raise ValueError(
                    _("%(name)s must not be negative, got %(value)r")
                    % {"name": name, "value": getattr(self, name)}
                )
        if not 0.0 < self.leaner_fraction <= 1.0:
            raise ValueError(_("leaner_fraction must lie in (0, 1]"))
        if self.hole_radius <= self.disc_radius:
            raise ValueError(_("the 20 hole must be wider than a disc"))
        if not self.peg_circle_radius < self.shooting_line_radius < self.surface_radius:
            raise ValueError(_("radii must satisfy pegs < shooting line < surface edge"))

    # Derived geometry -------------------------------------------------------------------------

    @property
    def decel(self) -> float:
        """Sliding deceleration a = mu g (board.md, Motion)."""
        return self.mu_board * self.g

    @property
    def spin_decel(self) -> float:
        """Angular deceleration of a disc's spin on the board, rad/s²."""
        return self.spin_friction_factor * self.mu_board * self.g / self.disc_radius

    @property
    def touch_radius(self) -> float:
        """Centre distance from which a flat disc touches the shooting line.

        The painted line is a band of width ``line_width`` centred on ``shooting_line_radius``; a
        disc touches it once its outer edge reaches the band's inner edge (NCA rule 6e: the bottom
        edge over any part of the line), i.e. when its centre is at least
        ``shooting_line_radius - line_width/2 - disc_radius`` from the board's centre.
        """
        return self.shooting_line_radius - 0.5 * self.line_width - self.disc_radius

    @property
    def hole_support_radius(self) -> float:
        """rho = sqrt(R_hole² - r²): a disc whose centre is closer than this to the hole's centre
        has its centre of mass over the hole, beyond the chord where disc and rim meet, and is
        unsupported (board.md, the 20 hole)."""
        return math.sqrt(self.hole_radius**2 - self.disc_radius**2)

    @property
    def rail_radius(self) -> float:
        """Inner face of the rail: surface edge plus ditch width (board.md)."""
        return self.surface_radius + self.ditch_width

    @property
    def drop_time(self) -> float:
        """Unsupported time in which the leading edge falls h_c: sqrt(2 h_c / g)."""
        return math.sqrt(2.0 * self.hole_capture_depth / self.g)

    @property
    def lean_time(self) -> float:
        """Unsupported time in which the leading edge falls leaner_fraction x h_c."""
        return math.sqrt(2.0 * self.leaner_fraction * self.hole_capture_depth / self.g)

    @property
    def fall_time(self) -> float:
        """Time over the ditch after which a disc has fallen ``ditch_drop``: sqrt(2 d / g)."""
        return math.sqrt(2.0 * self.ditch_drop / self.g)

    def capture_speed(self, chord: float) -> float:
        """Fastest speed at which a disc crossing the unsupported zone along ``chord`` drops in:
        L·sqrt(g / (2 h_c)) (board.md), about 1 m/s dead centre."""
        return chord / self.drop_time

    def to_dict(self) -> dict[str, float]:
        """The fields as a plain dict (for JSON and logs)."""
        return asdict(self)

    def to_array(self) -> np.ndarray:
        """Pack the fields and the derived quantities into the float64 array the kernel reads."""
        a = np.zeros(N_PARAMS, dtype=np.float64)
        a[P_G] = self.g
        a[P_MU_BOARD] = self.mu_board
        a[P_E_DISC] = self.e_disc
        a[P_MU_DISC] = self.mu_disc
        a[P_E_PEG] = self.e_peg
        a[P_MU_PEG] = self.mu_peg
        a[P_E_RAIL] = self.e_rail
        a[P_MU_RAIL] = self.mu_rail
        a[P_DISC_R] = self.disc_radius
        a[P_DISC_MASS] = self.disc_mass
        a[P_PEG_R] = self.peg_radius
        a[P_PEG_CIRCLE_R] = self.peg_circle_radius
        a[P_LINE_W] = self.line_width
        a[P_SHOOT_R] = self.shooting_line_radius
        a[P_SURFACE_R] = self.surface_radius
        a[P_DITCH_W] = self.ditch_width
        a[P_HOLE_R] = self.hole_radius
        a[P_HOLE_DEPTH] = self.hole_capture_depth
        a[P_LEANER_FRACTION] = self.leaner_fraction
        a[P_DITCH_DROP] = self.ditch_drop
        a[P_SPIN_FACTOR] = self.spin_friction_factor
        a[P_DECEL] = self.decel
        a[P_SPIN_DECEL] = self.spin_decel
        a[P_TOUCH_R] = self.touch_radius
        a[P_RHO] = self.hole_support_radius
        a[P_T_DROP] = self.drop_time
        a[P_T_LEAN] = self.lean_time
        a[P_T_FALL] = self.fall_time
        a[P_RAIL_CONTACT_R] = self.rail_radius - self.disc_radius
        a[P_PEG_CONTACT_R] = self.disc_radius + self.peg_radius
        a[P_PAIR_CONTACT_R] = 2.0 * self.disc_radius
        return a


DEFAULT_PARAMS = PhysicsParams()
