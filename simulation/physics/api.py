"""Python entry points around the compiled engine: one shot with its event record, or a batch.

These wrappers only validate, allocate and translate codes to names; every event is computed in
compiled code (``engine``). Arrays in: positions (N, 2) in metres, velocities (N, 2) in m/s,
spins (N,) in rad/s (counterclockwise seen from above), statuses (N,) as ``codes`` (SURFACE,
DITCH, CAPTURED, LEANER, ABSENT; discs lying in the ditch are obstacles for discs flying over
it, so pass them with their positions).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from simulation.physics import codes
from simulation.physics.engine import simulate_kernel
from simulation.physics.geometry import peg_positions
from simulation.physics.params import DEFAULT_PARAMS, PhysicsParams
from tournaments.translation import _

DEFAULT_MAX_EVENTS = 1000
"""Cap on events per shot. A real shot has tens; the cap stops a pathological configuration
(e.g. a disc wedged between bodies with zero restitution) and is reported when hit."""


@functools.lru_cache(maxsize=32)
def _packed(params: PhysicsParams) -> tuple[np.ndarray, np.ndarray]:
    """Packed parameter array and peg centres for ``params`` (cached; never written to)."""
    return params.to_array(), peg_positions(params)


def _carray(a: ArrayLike, dtype: type, shape: tuple[int, ...]) -> np.ndarray:
    """A C-contiguous, writeable array of exactly this dtype and shape (what the compiled
    signatures accept), broadcasting where the input is smaller."""
    if a is None:
        return np.zeros(shape, dtype=dtype)
    arr = np.array(a, dtype=dtype)  # a fresh C-contiguous copy: what a full-size input needs
    if arr.shape == shape:
        return arr
    return np.require(np.broadcast_to(arr, shape), dtype=dtype, requirements=["C", "W", "A"])


@dataclass(frozen=True)
class Event:
    """One event and the state of every disc just after it.

    ``other`` is the second disc of a disc-disc event, the peg index of a disc-peg event, the
    struck disc of a ditch-disc event, and -1 otherwise. Between two events every disc moves in
    closed form (see :func:`advance`), so the records replay the shot exactly.
    """

    t: float
    code: int
    disc: int
    other: int
    positions: np.ndarray
    velocities: np.ndarray
    spins: np.ndarray
    status: np.ndarray

    @property
    def kind(self) -> str:
        """The event's name (``codes.EVENT_NAMES``)."""
        return codes.EVENT_NAMES[self.code]

    def state_at(
        self, t: float, params: PhysicsParams = DEFAULT_PARAMS
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Positions, velocities and spins of all discs at time ``t`` (at or after this event
        and before the next one), in closed form from this record."""
        return advance(self.positions, self.velocities, self.spins, self.status, t - self.t, params)

    def to_dict(self) -> dict[str, Any]:
        """JSON-compatible form."""
        return {
            "t": self.t,
            "kind": self.kind,
            "disc": self.disc,
            "other": self.other,
            "positions": self.positions.tolist(),
            "velocities": self.velocities.tolist(),
            "spins": self.spins.tolist(),
            "status": [codes.STATUS_NAMES[int(s)] for s in self.status],
        }


@dataclass(frozen=True)
class ShotResult:
    """Outcome of one simulated shot.

    Final state (``positions``, ``velocities``, ``spins``, ``status``) after the last event (all
    discs at rest unless ``hit_event_cap``); per-disc ``flags`` (bit mask of ``codes.F_*``, also
    as boolean arrays below); ``contacts``: unordered disc pairs (i < j) that touched, in the
    order of their first contact; ``contact_log``: every disc-disc collision as (t, i, j) in time
    order; ``moved_by[k]``: the disc whose impact set disc k moving from rest (-1 if none:
    untouched, or moving from the start); ``left_surface_at`` / ``returned_at``: per disc, when it
    first went over the surface edge and last flew back onto the surface (NaN if never);
    ``events``: the record (empty if not recorded).
    """

    positions: np.ndarray
    velocities: np.ndarray
    spins: np.ndarray
    status: np.ndarray
    flags: np.ndarray
    contacts: list[tuple[int, int]]
    contact_log: list[tuple[float, int, int]]
    moved_by: np.ndarray
    left_surface_at: np.ndarray
    returned_at: np.ndarray
    events: list[Event]
    hit_event_cap: bool
    n_events: int
    t_end: float
    initial_positions: np.ndarray
    initial_velocities: np.ndarray
    initial_spins: np.ndarray
    initial_status: np.ndarray
    params: PhysicsParams = field(default=DEFAULT_PARAMS)

    def _flag(self, bit: int) -> np.ndarray:
        return (self.flags & bit) != 0

    @property
    def touched_line(self) -> np.ndarray:
        """Touched or crossed the shooting line during the shot, or rests touching it."""
        return self._flag(codes.F_TOUCHED_LINE)

    @property
    def struck_beyond_line(self) -> np.ndarray:
        """Struck something while touching or beyond the shooting line (NCA 8e)."""
        return self._flag(codes.F_STRUCK_BEYOND_LINE)

    @property
    def left_surface(self) -> np.ndarray:
        """Went over the edge of the playing surface."""
        return self._flag(codes.F_LEFT_SURFACE)

    @property
    def returned_from_ditch(self) -> np.ndarray:
        """Flew back onto the surface after going over the edge (NCA 8f)."""
        return self._flag(codes.F_RETURNED)

    @property
    def struck_rail_or_ditch_disc(self) -> np.ndarray:
        """Struck the rail or a disc lying in the ditch."""
        return self._flag(codes.F_STRUCK_RAIL_OR_DITCH_DISC)

    @property
    def moved(self) -> np.ndarray:
        """Moved during the shot."""
        return self._flag(codes.F_MOVED)

    @property
    def hit_peg(self) -> np.ndarray:
        """Struck a peg."""
        return self._flag(codes.F_HIT_PEG)

    @property
    def status_names(self) -> list[str]:
        """Final statuses by name: surface, ditch, captured-20, leaner, absent."""
        return [codes.STATUS_NAMES[int(s)] for s in self.status]

    def state_at(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Positions, velocities, spins and statuses of all discs at time ``t`` (for replays).

        Starts from the last recorded event at or before ``t`` (or the initial state) and moves
        every disc on in closed form. Needs the event record.
        """
        if self.n_events and not self.events:
            raise ValueError(_("state_at needs a result simulated with record_events=True"))
        pos, vel, spin, stat, t0 = (
            self.initial_positions,
            self.initial_velocities,
            self.initial_spins,
            self.initial_status,
            0.0,
        )
        for ev in self.events:
            if ev.t > t:
                break
            pos, vel, spin, stat, t0 = ev.positions, ev.velocities, ev.spins, ev.status, ev.t
        p, v, w = advance(pos, vel, spin, stat, t - t0, self.params)
        return p, v, w, stat.copy()


@dataclass(frozen=True)
class BatchResult:
    """Outcome of B shots (see :func:`simulate_batch`); arrays indexed [shot, disc, ...].

    ``contacts[b, i, j]`` is the time discs i and j first touched in shot b (inf if they did not).
    ``left_surface_at`` / ``returned_at`` as in :class:`ShotResult`.
    """

    positions: np.ndarray
    velocities: np.ndarray
    spins: np.ndarray
    status: np.ndarray
    flags: np.ndarray
    contacts: np.ndarray
    moved_by: np.ndarray
    left_surface_at: np.ndarray
    returned_at: np.ndarray
    n_events: np.ndarray
    hit_event_cap: np.ndarray
    t_end: np.ndarray


def advance(
    positions: ArrayLike,
    velocities: ArrayLike,
    spins: ArrayLike,
    status: ArrayLike,
    dt: float,
    params: PhysicsParams = DEFAULT_PARAMS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Move every disc on by ``dt`` in closed form, assuming no event happens meanwhile.

    On the board: straight line, deceleration mu g until it stops (board.md, Motion); flying over
    the ditch: constant velocity; spin decays linearly to zero on the board. Used to replay a shot
    between its recorded events.
    """
    p = np.array(positions, dtype=np.float64).reshape(-1, 2)
    v = np.array(velocities, dtype=np.float64).reshape(-1, 2)
    w = np.array(spins, dtype=np.float64).reshape(-1)
    s = np.asarray(status).reshape(-1)
    dt = max(float(dt), 0.0)
    speed = np.hypot(v[:, 0], v[:, 1])
    flying = s == codes.AIRBORNE
    a = np.where(flying, 0.0, params.decel)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.where(a > 0.0, np.minimum(dt, speed / np.where(a > 0.0, a, 1.0)), dt)
        ux = np.where(speed > 0.0, v[:, 0] / np.where(speed > 0.0, speed, 1.0), 0.0)
        uy = np.where(speed > 0.0, v[:, 1] / np.where(speed > 0.0, speed, 1.0), 0.0)
    dist = speed * tau - 0.5 * a * tau * tau
    new_speed = np.maximum(speed - a * tau, 0.0)
    p_out = p + np.stack([ux * dist, uy * dist], axis=1)
    v_out = np.stack([ux * new_speed, uy * new_speed], axis=1)
    wa = np.where(flying, 0.0, params.spin_decel)
    mag = np.maximum(np.abs(w) - wa * dt, 0.0)
    w_out = np.sign(w) * mag
    return p_out, v_out, w_out


def _as_status(status: ArrayLike | None, n: int) -> np.ndarray:
    """Statuses as int8 codes; booleans mean alive (SURFACE) or not (ABSENT)."""
    if status is None:
        return np.full(n, codes.SURFACE, dtype=np.int8)
    arr = np.asarray(status).reshape(-1)
    if arr.shape != (n,):
        raise ValueError(
            _("expected %(expected)s statuses, got %(got)s") % {"expected": n, "got": arr.shape[0]}
        )
    if arr.dtype == np.bool_:
        return np.where(arr, codes.SURFACE, codes.ABSENT).astype(np.int8)
    if arr.dtype.kind not in "iu" and not np.array_equal(arr, np.round(arr)):
        raise ValueError(_("status codes must be integers"))
    if arr.size and (arr.min() < 0 or arr.max() >= len(_ALLOWED_STATUS)):
        bad = True
    else:
        # A table lookup, not np.isin: this runs for every batch an AI player's search sends.
        bad = not _ALLOWED_STATUS[arr.astype(np.intp)].all()
    if bad:
        raise ValueError(
            _("status codes must be among %(allowed)s") % {"allowed": _ALLOWED_STATUS_CODES}
        )
    return arr.astype(np.int8)


_ALLOWED_STATUS_CODES = (codes.SURFACE, codes.DITCH, codes.CAPTURED, codes.LEANER, codes.ABSENT)
_ALLOWED_STATUS = np.zeros(max(_ALLOWED_STATUS_CODES) + 1, dtype=np.bool_)
_ALLOWED_STATUS[list(_ALLOWED_STATUS_CODES)] = True


class _Raw(NamedTuple):
    """The kernel's output arrays for B shots, in the order of its parameters."""

    positions: np.ndarray
    velocities: np.ndarray
    spins: np.ndarray
    status: np.ndarray
    flags: np.ndarray
    contacts: np.ndarray
    moved_by: np.ndarray
    times: np.ndarray
    n_events: np.ndarray
    hit_cap: np.ndarray
    t_end: np.ndarray
    n_contacts: np.ndarray
    cl_t: np.ndarray
    cl_i: np.ndarray
    cl_j: np.ndarray
    ev_t: np.ndarray
    ev_kind: np.ndarray
    ev_i: np.ndarray
    ev_j: np.ndarray
    ev_pos: np.ndarray
    ev_vel: np.ndarray
    ev_spin: np.ndarray
    ev_status: np.ndarray


def _run(
    pos: np.ndarray,
    vel: np.ndarray,
    spin: np.ndarray,
    status: np.ndarray,
    params: PhysicsParams,
    max_events: int,
    record: bool,
) -> _Raw:
    """Allocate the outputs and call the compiled kernel on (B, N, ...) inputs."""
    if max_events < 1:
        raise ValueError(_("max_events must be at least 1"))
    nb, n = status.shape
    prm, pegs = _packed(params)
    m = max_events if record else 0
    c = max_events if nb else 0
    # Named once and passed with a star, in the kernel's order (the tuple's): a shot's two dozen
    # outputs named one by one, twice, cost as much again as the compiled shot itself.
    raw = _Raw(
        positions=np.empty((nb, n, 2)),
        velocities=np.empty((nb, n, 2)),
        spins=np.empty((nb, n)),
        status=np.empty((nb, n), dtype=np.int8),
        flags=np.empty((nb, n), dtype=np.int32),
        contacts=np.empty((nb, n, n)),
        moved_by=np.empty((nb, n), dtype=np.int32),
        times=np.empty((nb, n, 2)),
        n_events=np.empty(nb, dtype=np.int64),
        hit_cap=np.empty(nb, dtype=np.bool_),
        t_end=np.empty(nb),
        n_contacts=np.empty(nb, dtype=np.int64),
        cl_t=np.empty(c),
        cl_i=np.empty(c, dtype=np.int32),
        cl_j=np.empty(c, dtype=np.int32),
        ev_t=np.empty(m),
        ev_kind=np.empty(m, dtype=np.int32),
        ev_i=np.empty(m, dtype=np.int32),
        ev_j=np.empty(m, dtype=np.int32),
        ev_pos=np.empty((m, n, 2)),
        ev_vel=np.empty((m, n, 2)),
        ev_spin=np.empty((m, n)),
        ev_status=np.empty((m, n), dtype=np.int8),
    )
    simulate_kernel(pos, vel, spin, status, prm, pegs, max_events, record, *raw)
    return raw


def simulate(
    positions: ArrayLike,
    velocities: ArrayLike | None = None,
    spins: ArrayLike | None = None,
    status: ArrayLike | None = None,
    params: PhysicsParams = DEFAULT_PARAMS,
    *,
    record_events: bool = True,
    max_events: int = DEFAULT_MAX_EVENTS,
) -> ShotResult:
    """Simulate the discs from the given state until all rest (or ``max_events`` is reached).

    ``positions`` (N, 2); ``velocities`` (N, 2), default all at rest; ``spins`` (N,), default 0;
    ``status`` (N,) codes or booleans (alive), default all on the surface. Any number of discs
    may be moving at the start (a shot is the shooter's velocity). Raises ``ValueError`` for
    malformed input.
    """
    pos = np.require(
        np.asarray(positions, dtype=np.float64).reshape(-1, 2), requirements=["C", "W", "O"]
    )
    n = pos.shape[0]
    vel = _carray(velocities, np.float64, (n, 2))
    spin = _carray(spins, np.float64, (n,))
    stat = _as_status(status, n)
    if not (np.isfinite(pos).all() and np.isfinite(vel).all() and np.isfinite(spin).all()):
        raise ValueError(_("positions, velocities and spins must be finite"))
    return simulate_checked(
        pos, vel, spin, stat, params, record_events=record_events, max_events=max_events
    )


def simulate_checked(
    pos: np.ndarray,
    vel: np.ndarray,
    spin: np.ndarray,
    stat: np.ndarray,
    params: PhysicsParams = DEFAULT_PARAMS,
    *,
    record_events: bool = True,
    max_events: int = DEFAULT_MAX_EVENTS,
) -> ShotResult:
    """:func:`simulate` on a state already in the kernel's form, which is not checked again:
    C-contiguous float64 positions and velocities (N, 2) and spins (N,), all finite, and int8
    status codes (N,) among ``codes``'.

    For a caller that builds the state from a board it has checked itself (the rules' board of
    a game in play, ``simulation.api``): on a shot among six discs, converting and checking the
    input again made :func:`simulate` take two to three times as long as this (70-110 µs
    against 30).
    """
    raw = _run(pos[None], vel[None], spin[None], stat[None], params, max_events, record_events)
    n_ev = int(raw.n_events[0])
    events = []
    if record_events:
        events = [
            Event(
                t=float(raw.ev_t[k]),
                code=int(raw.ev_kind[k]),
                disc=int(raw.ev_i[k]),
                other=int(raw.ev_j[k]),
                positions=raw.ev_pos[k],
                velocities=raw.ev_vel[k],
                spins=raw.ev_spin[k],
                status=raw.ev_status[k],
            )
            for k in range(n_ev)
        ]
    # The log holds every contact (a contact is an event, and events stop at the log's size),
    # in the events' order: by time, then the pair (i < j). Its first sighting of each pair is
    # the list of pairs that touched, in the order of their first contact.
    n_log = min(int(raw.n_contacts[0]), max_events)
    contact_log: list[tuple[float, int, int]] = []
    contacts: list[tuple[int, int]] = []
    if n_log:  # most shots touch nothing
        log = (raw.cl_t[:n_log].tolist(), raw.cl_i[:n_log].tolist(), raw.cl_j[:n_log].tolist())
        contact_log = list(zip(*log, strict=True))
        contacts = list(dict.fromkeys((i, j) for _, i, j in contact_log))
    return ShotResult(
        positions=raw.positions[0],
        velocities=raw.velocities[0],
        spins=raw.spins[0],
        status=raw.status[0],
        flags=raw.flags[0],
        contacts=contacts,
        contact_log=contact_log,
        moved_by=raw.moved_by[0],
        left_surface_at=raw.times[0, :, 0].copy(),
        returned_at=raw.times[0, :, 1].copy(),
        events=events,
        hit_event_cap=bool(raw.hit_cap[0]),
        n_events=n_ev,
        t_end=float(raw.t_end[0]),
        initial_positions=pos,
        initial_velocities=vel.copy(),
        initial_spins=spin.copy(),
        initial_status=stat.copy(),
        params=params,
    )


def simulate_batch(
    states_pos: ArrayLike,
    states_status: ArrayLike,
    shooter_index: int | ArrayLike,
    shot_pos: ArrayLike,
    shot_vel: ArrayLike,
    shot_spin: ArrayLike | None = None,
    params: PhysicsParams = DEFAULT_PARAMS,
    *,
    max_events: int = DEFAULT_MAX_EVENTS,
) -> BatchResult:
    """Simulate B shots in one compiled call, without event records (for AI players).

    ``states_pos`` (B, N, 2) resting discs; ``states_status`` (B, N) codes or booleans (alive);
    ``shooter_index`` an int or (B,): the slot that receives the shot disc (its state entry is
    ignored); ``shot_pos`` (B, 2), ``shot_vel`` (B, 2), ``shot_spin`` (B,) (default 0). A single
    state (N, 2) / (N,) is broadcast to all B shots.
    """
    sv = np.asarray(shot_vel, dtype=np.float64).reshape(-1, 2)
    nb = sv.shape[0]
    sp = _carray(np.asarray(shot_pos, dtype=np.float64).reshape(-1, 2), np.float64, (nb, 2))
    pos = np.asarray(states_pos, dtype=np.float64)
    if pos.ndim != 3:
        pos = pos.reshape(1, -1, 2)
    n = pos.shape[1]
    if pos.shape[2:] != (2,) or pos.shape[0] not in (1, nb):
        raise ValueError(_("states_pos must have shape (B, N, 2) or (N, 2), B as in shot_vel"))
    pos = np.array(np.broadcast_to(pos, (nb, n, 2)), dtype=np.float64, order="C")
    st = np.asarray(states_status)
    if st.ndim == 1:
        st = st.reshape(1, -1)
    if st.shape[1:] != (n,) or st.shape[0] not in (1, nb):
        raise ValueError(_("states_status must have shape (B, N) or (N,)"))
    stat = np.array(
        np.broadcast_to(_as_status(st.reshape(-1), st.size).reshape(st.shape), (nb, n)),
        dtype=np.int8,
        order="C",
    )
    shooter = np.broadcast_to(np.asarray(shooter_index, dtype=np.int64).reshape(-1), (nb,))
    if ((shooter < 0) | (shooter >= n)).any():
        raise ValueError(_("shooter_index out of range"))
    spin_in = np.broadcast_to(
        np.asarray(0.0 if shot_spin is None else shot_spin, dtype=np.float64).reshape(-1), (nb,)
    )
    rows = np.arange(nb)
    pos[rows, shooter] = sp
    stat[rows, shooter] = codes.SURFACE
    vel = np.zeros((nb, n, 2))
    vel[rows, shooter] = sv
    spin = np.zeros((nb, n))
    spin[rows, shooter] = spin_in
    if not (np.isfinite(pos).all() and np.isfinite(vel).all() and np.isfinite(spin).all()):
        raise ValueError(_("positions, velocities and spins must be finite"))
    raw = _run(pos, vel, spin, stat, params, max_events, False)
    return BatchResult(
        positions=raw.positions,
        velocities=raw.velocities,
        spins=raw.spins,
        status=raw.status,
        flags=raw.flags,
        contacts=raw.contacts,
        moved_by=raw.moved_by,
        left_surface_at=raw.times[:, :, 0],
        returned_at=raw.times[:, :, 1],
        n_events=raw.n_events,
        hit_event_cap=raw.hit_cap,
        t_end=raw.t_end,
    )
