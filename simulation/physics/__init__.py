"""Pure, compiled crokinole physics: disc motion, collisions, the 20 hole, the ditch and rail.

No Django here. Event-driven and exact between events (board.md, Motion); the hot loop is
compiled with numba (``engine``), one module per kind of event (``events``). Public API:

* :func:`simulate` one shot from any state, with its event record -> :class:`ShotResult`;
* :func:`simulate_batch` many shots from many states in one call -> :class:`BatchResult`;
* :func:`advance` closed-form motion between events (replays);
* :class:`PhysicsParams` all physical constants; :mod:`.geometry` radii, pegs, regions;
* :mod:`.codes` status, event and flag codes with their names.
"""

# First, before anything compiled is defined: where numba keeps the compiled code (the module
# sets it when imported).
from simulation.physics import compiled_cache  # noqa: F401

# isort: split
from simulation.physics import codes, geometry
from simulation.physics.api import (
    DEFAULT_MAX_EVENTS,
    BatchResult,
    Event,
    ShotResult,
    advance,
    simulate,
    simulate_batch,
    simulate_checked,
)
from simulation.physics.params import DEFAULT_PARAMS, PhysicsParams

__all__ = [
    "DEFAULT_MAX_EVENTS",
    "DEFAULT_PARAMS",
    "BatchResult",
    "Event",
    "PhysicsParams",
    "ShotResult",
    "advance",
    "codes",
    "geometry",
    "simulate",
    "simulate_batch",
    "simulate_checked",
]
