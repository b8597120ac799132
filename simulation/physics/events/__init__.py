"""One small compiled module per kind of event: when it happens next, and what it does.

Each module offers a ``next_*`` function (the earliest time of its event for one disc or pair,
``inf`` when none) and, where the event changes velocities, a ``resolve_*`` function. All are
numba-compiled and called from the single compiled loop in ``simulation.physics.engine``.
"""
