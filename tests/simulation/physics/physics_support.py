"""Shared helpers for the physics tests (pure: no Django, no settings)."""

from __future__ import annotations

import numpy as np

from simulation.physics import Event, PhysicsParams, ShotResult, simulate

P = PhysicsParams()
R = P.disc_radius
D = 2.0 * R
A = P.decel


def kinds(result: ShotResult) -> list[str]:
    """Names of the shot's events, in order."""
    return [e.kind for e in result.events]


def first(result: ShotResult, kind: str) -> Event:
    """The first event of a kind (fails the test if there is none)."""
    for e in result.events:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind!r} event in {kinds(result)}")


def one(pos, vel=None, **kw) -> ShotResult:
    """Simulate from array-likes."""
    return simulate(
        np.asarray(pos, dtype=float), None if vel is None else np.asarray(vel, dtype=float), **kw
    )


def state_before(result: ShotResult, event: Event) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions, velocities and spins of all discs an instant before ``event`` (the previous
    record moved on in closed form to the event's time)."""
    prev = None
    for e in result.events:
        if e is event:
            break
        prev = e
    from simulation.physics import advance

    if prev is None:
        pos, vel, spin, stat, t0 = (
            result.initial_positions,
            result.initial_velocities,
            result.initial_spins,
            result.initial_status,
            0.0,
        )
    else:
        pos, vel, spin, stat, t0 = prev.positions, prev.velocities, prev.spins, prev.status, prev.t
    return advance(pos, vel, spin, stat, event.t - t0, result.params)
