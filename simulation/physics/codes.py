"""Integer codes shared by the compiled kernel and the Python wrappers.

The kernel works on plain integer arrays; these module-level constants are read by numba as
compile-time constants, and the name tables translate them for people and for JSON.
"""

from __future__ import annotations

# Disc status ---------------------------------------------------------------------------------
SURFACE = 0
"""On the playing surface (moving or at rest): physically in play."""
DITCH = 1
"""Lying in the ditch: out of play; an obstacle only for discs flying over the ditch."""
CAPTURED = 2
"""Flat in the 20 hole: scores 20 and leaves play immediately (no obstacle afterwards)."""
LEANER = 3
"""Tilted in the 20 hole, resting on the rim: scores 15 and stays in play as a resting disc."""
ABSENT = 4
"""Unused slot: no disc."""
AIRBORNE = 5
"""Past the surface edge and falling, not yet in the ditch. Transient: a shot that finishes
normally never ends with it (only a shot cut off by the event cap can)."""

STATUS_NAMES: dict[int, str] = {
    SURFACE: "surface",
    DITCH: "ditch",
    CAPTURED: "captured-20",
    LEANER: "leaner",
    ABSENT: "absent",
    AIRBORNE: "airborne",
}

# Event kinds: the code is also the tie-break order of simultaneous events -------------------
EV_STOP = 0
EV_DISC_DISC = 1
EV_DISC_PEG = 2
EV_RAIL = 3
EV_DITCH_DISC = 4
EV_LINE = 5
EV_LINE_IN = 6
EV_EDGE = 7
EV_RETURN = 8
EV_DITCH = 9
EV_HOLE_ENTER = 10
EV_HOLE_EXIT = 11
EV_HOLE = 12
EV_LEANER = 13
N_EVENT_KINDS = 14

EVENT_NAMES: dict[int, str] = {
    EV_STOP: "stop",
    EV_DISC_DISC: "disc-disc",
    EV_DISC_PEG: "disc-peg",
    EV_RAIL: "rail",
    EV_DITCH_DISC: "ditch-disc",
    EV_LINE: "line",
    EV_LINE_IN: "line-in",
    EV_EDGE: "edge",
    EV_RETURN: "return",
    EV_DITCH: "ditch",
    EV_HOLE_ENTER: "hole-enter",
    EV_HOLE_EXIT: "hole-exit",
    EV_HOLE: "hole",
    EV_LEANER: "leaner",
}
"""stop: a disc comes to rest. disc-disc / disc-peg / rail / ditch-disc: an impulse (the other
index is a disc, a peg, none, a disc lying in the ditch). line: a disc starts touching the
shooting line (moving outward); line-in: it stops touching it (moving inward). edge: the centre
passes the surface edge, the disc now flies over the ditch; return: it flies back onto the
surface; ditch: it has fallen into the ditch. hole-enter / hole-exit: the centre enters or leaves
the unsupported zone over the 20 hole (riding over); hole: the disc drops flat into it; leaner:
it catches the far rim and stops tilted."""

# Per-disc flags (bit mask) -------------------------------------------------------------------
F_TOUCHED_LINE = 1
"""Touched or crossed the shooting line during the shot (crossed outward into it, or rests
touching it at the end). A disc that merely starts on the line (the shooter) does not count."""
F_STRUCK_BEYOND_LINE = 2
"""Struck anything but the playing surface while touching or beyond the shooting line, after
having touched it (NCA 8e, the spinning disc rule)."""
F_LEFT_SURFACE = 4
"""Its centre passed the edge of the playing surface."""
F_RETURNED = 8
"""Flew back over the edge onto the surface (NCA 8f, damage stays)."""
F_STRUCK_RAIL_OR_DITCH_DISC = 16
"""Struck the rail or a disc lying in the ditch."""
F_MOVED = 32
"""Moved at some time during the shot."""
F_HIT_PEG = 64
"""Struck a peg."""

FLAG_NAMES: dict[int, str] = {
    F_TOUCHED_LINE: "touched_line",
    F_STRUCK_BEYOND_LINE: "struck_beyond_line",
    F_LEFT_SURFACE: "left_surface",
    F_RETURNED: "returned_from_ditch",
    F_STRUCK_RAIL_OR_DITCH_DISC: "struck_rail_or_ditch_disc",
    F_MOVED: "moved",
    F_HIT_PEG: "hit_peg",
}
