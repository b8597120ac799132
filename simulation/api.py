"""The simulation's public entry points: one shot, or a scripted round, JSON-compatible in and out.

``simulate_shot`` places the shot (refusing an illegal one), runs the physics core on the board, and
has the rules judge what happened. ``run_round`` plays a list of shots as a round, checking whose
turn it is and the discs each player has left, and counts the board at the end.

Units: metres, seconds, m/s, degrees; origin at the board's centre, x to the right, y up, seen from
above. The physics core is imported on first use, so that importing this module (and a command
line that only reports bad input) stays quick.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from simulation.rules.facts import Contact, DiscFacts, EndStatus, ShotFacts
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.placement import Placement, ShotRequest, parse_shot, place_shot
from simulation.rules.round import RoundKeeper
from simulation.rules.ruling import Ruling, judge_shot
from simulation.rules.state import BoardState, parse_seats, parse_state
from simulation.rules.timing import GameClock, check_shot_seconds
from simulation.rules.variants import DEFAULT_RULES, RuleSet, get_rules
from tournaments.translation import _

if TYPE_CHECKING:
    from simulation.physics import PhysicsParams, ShotResult

__all__ = ["play_shot", "run_round", "simulate_shot"]

RELEASE = "release"
"""Kind of the first event of every shot: the disc leaves the finger."""


@lru_cache(maxsize=1)
def _physics() -> ModuleType:
    """The physics package, imported on first use: it loads the compiled physics."""
    import simulation.physics

    return simulation.physics


@lru_cache(maxsize=1)
def _physics_params() -> PhysicsParams:
    return _physics().DEFAULT_PARAMS


def _geometry() -> BoardGeometry:
    """The board the rules measure: the tournament board the physics core simulates by default.

    Taken from the rules' own figures so that checking input never has to load (and compile) the
    physics; a test keeps them equal to the physics defaults.
    """
    return DEFAULT_GEOMETRY


def _check_seed(seed: object) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(
            _("seed must be a whole number of at least 0 or null, not %(seed)r") % {"seed": seed}
        )
    return seed


@lru_cache(maxsize=1)
def _end_statuses() -> tuple[EndStatus, ...]:
    """Each physics status code's end status, indexed by the code: in the ditch, or still over
    it when the event cap cut the shot short, is off the surface."""
    codes = _physics().codes
    named = {
        codes.SURFACE: EndStatus.SURFACE,
        codes.CAPTURED: EndStatus.HOLE,
        codes.LEANER: EndStatus.LEANER,
    }
    return tuple(named.get(code, EndStatus.DITCH) for code in range(max(codes.STATUS_NAMES) + 1))


def _time(value: float) -> float | None:
    return None if math.isnan(value) else value


def _facts(ids: list[str], sides: list[int], result: ShotResult, board: BoardState) -> ShotFacts:
    """The facts of the shot, as the rules want them, from the physics result, each disc of the
    board with where it lay before the shot (the shot disc, last, lay nowhere). Each array is
    read once, as a Python list, and the flags are tested bit by bit in Python: a shot has a few
    dozen discs at most, and a numpy operation per flag cost more than all the discs' tests."""
    ends = _end_statuses()
    codes = _physics().codes
    touched_bit, beyond_bit = codes.F_TOUCHED_LINE, codes.F_STRUCK_BEYOND_LINE
    start = [(d.x, d.y, d.leaner) for d in board.discs]
    start.append((None, None, False))
    position = result.positions.tolist()
    status = result.status.tolist()
    flags = result.flags.tolist()
    left = result.left_surface_at.tolist()
    back = result.returned_at.tolist()
    discs = tuple(
        DiscFacts(
            id=ids[k],
            side=sides[k],
            x=position[k][0],
            y=position[k][1],
            status=ends[status[k]],
            touched_line=bool(flags[k] & touched_bit),
            struck_beyond_line=bool(flags[k] & beyond_bit),
            left_surface_at=_time(left[k]),
            returned_at=_time(back[k]),
            start_x=start[k][0],
            start_y=start[k][1],
            start_leaner=start[k][2],
        )
        for k in range(len(ids))
    )
    contacts: tuple[Contact, ...] = ()
    if result.contact_log:
        moved_by = result.moved_by.tolist()
        contacts = tuple(
            # The striker first: the disc that set the other moving, where the physics says so.
            Contact(t=t, a=ids[j], b=ids[i]) if moved_by[i] == j else Contact(t, ids[i], ids[j])
            for t, i, j in result.contact_log
        )
    return ShotFacts(shooter=ids[-1], discs=discs, contacts=contacts)


def _disc_state(disc_id: str, x: float, y: float, vx: float, vy: float, status: str) -> dict:
    return {"id": disc_id, "x": x, "y": y, "vx": vx, "vy": vy, "status": status}


def _events(ids: list[str], result: ShotResult, placement: Placement) -> list[dict[str, Any]]:
    """The event record as JSON: each event with the state, just after it, of every disc that
    moved since the previous record or took part in it (the rest lie where they were)."""
    import numpy as np

    codes = _physics().codes
    shooter = ids[-1]
    events: list[dict[str, Any]] = [
        {
            "t": 0.0,
            "kind": RELEASE,
            "ids": [shooter],
            "discs": [
                _disc_state(
                    shooter, placement.x, placement.y, placement.vx, placement.vy, "surface"
                )
            ],
            "deceleration": result.params.decel,
        }
    ]
    previous_pos = result.initial_positions
    previous_vel = result.initial_velocities
    previous_status = result.initial_status
    for event in result.events:
        involved = [event.disc]
        entry: dict[str, Any] = {"t": event.t, "kind": event.kind}
        if event.code in (codes.EV_DISC_DISC, codes.EV_DITCH_DISC) and event.other >= 0:
            involved.append(event.other)
        elif event.code == codes.EV_DISC_PEG:
            entry["peg"] = event.other
        entry["ids"] = [ids[k] for k in involved]
        # Which discs changed, for all discs at once (a comparison per disc cost more than the
        # physics of the shot).
        changed = (
            (event.status != previous_status)
            | (event.positions != previous_pos).any(axis=1)
            | (event.velocities != previous_vel).any(axis=1)
        )
        changed[involved] = True
        pos, vel, status = event.positions.tolist(), event.velocities.tolist(), event.status
        entry["discs"] = [
            _disc_state(
                ids[k],
                pos[k][0],
                pos[k][1],
                vel[k][0],
                vel[k][1],
                codes.STATUS_NAMES[int(status[k])],
            )
            for k in np.flatnonzero(changed).tolist()
        ]
        events.append(entry)
        previous_pos, previous_vel, previous_status = (
            event.positions,
            event.velocities,
            event.status,
        )
    return events


def _simulate(
    board: BoardState,
    request: ShotRequest,
    rules: RuleSet,
    geometry: BoardGeometry,
    events: bool = True,
) -> tuple[Ruling, list[dict[str, Any]] | None]:
    """Place, simulate and judge one shot: the ruling and the JSON event record (None without
    ``events``: the physics then keeps no record either)."""
    if request.seat not in board.seats:
        raise ValueError(
            _("seat %(seat)s is not in play: the occupied seats are %(occupied)s")
            % {"seat": request.seat, "occupied": sorted(board.seats)}
        )
    if any(disc.id == request.id for disc in board.discs):
        raise ValueError(
            _("shot id %(id)r is already on the board: give the shot its own id")
            % {"id": request.id}
        )
    placement = place_shot(
        request.seat,
        request.position,
        request.angle,
        request.speed,
        rules,
        radius=request.radius,
        discs=board.discs,
        geometry=geometry,
    )
    import numpy as np

    physics = _physics()
    codes = physics.codes
    discs = board.discs
    ids = [disc.id for disc in discs]
    ids.append(request.id)
    sides = [disc.side for disc in discs]
    sides.append(board.side_of(request.seat))
    # The board's discs were checked when it was parsed (or left by a ruling), the shot when it
    # was placed: the physics takes them as they are.
    spots = [(disc.x, disc.y) for disc in discs]
    spots.append((placement.x, placement.y))
    positions = np.array(spots, dtype=np.float64)
    velocities = np.zeros((len(ids), 2))
    velocities[-1] = (placement.vx, placement.vy)
    lying = [codes.LEANER if disc.leaner else codes.SURFACE for disc in discs]
    lying.append(codes.SURFACE)
    result = physics.simulate_checked(
        positions,
        velocities,
        np.zeros(len(ids)),
        np.array(lying, dtype=np.int8),
        _physics_params(),
        record_events=events,
    )
    ruling = judge_shot(board, _facts(ids, sides, result, board), rules, geometry)
    return ruling, _events(ids, result, placement) if events else None


def _outcome(ruling: Ruling, events: list[dict[str, Any]] | None) -> dict[str, Any]:
    outcome = {
        "valid": ruling.valid,
        "foul": None if ruling.foul is None else str(ruling.foul),
        "discs": [disc.to_json() for disc in ruling.discs],
        "twenties": [{"id": t.id, "side": t.side} for t in ruling.twenties],
        "removed": [{"id": r.id, "reason": str(r.reason)} for r in ruling.removed],
        "events": events,
        "touched": [list(pair) for pair in ruling.touched],
    }
    if events is None:
        del outcome["events"]
    return outcome


def simulate_shot(
    state: Mapping[str, Any] | None,
    shot: Mapping[str, Any],
    rules: str = DEFAULT_RULES,
    seed: int | None = None,
    *,
    events: bool = True,
) -> dict[str, Any]:
    """Simulate one shot from ``state`` and rule on it.

    ``state``: ``{"discs": [{"id", "side", "x", "y"}, ...], "seats": {"0": 0, "2": 1}}``.
    ``shot``: ``{"seat", "position", "angle", "speed", "radius"?, "id"?}`` (id default "shot").
    Returns ``{"valid", "foul", "discs", "twenties", "removed", "events", "touched"}``:

    - ``discs``: the discs in play after the shot, as in ``state`` (a leaner: ``"leaner": true``);
    - ``twenties``: ``{"id", "side"}`` of each disc that ended flat in the 20 hole and counts;
    - ``removed``: ``{"id", "reason"}``, the reason ``"ditch"`` (left the surface, even if it came
      back), ``"line"`` (at rest touching or beyond the shooting line, or back inside after
      striking something out there) or ``"foul"`` (taken off by an invalid shot);
    - ``events``: a ``"release"`` event (t = 0, with the board's ``deceleration`` in m/s²) and then
      every physics event (``"disc-disc"``, ``"disc-peg"`` with its ``"peg"``, ``"rail"``,
      ``"line"``, ``"edge"``, ``"return"``, ``"ditch"``, ``"hole"``, ``"leaner"``, ``"stop"``, ...)
      with ``"t"``, ``"ids"`` and, in ``"discs"``, the position, velocity and status just after it
      of every disc that moved since the previous event or took part in it;
    - ``touched``: each pair of discs that touched (the striker first where the physics knows it),
      in the order of first contact.

    Raises ``ValueError`` for an illegal shot or malformed input, saying what is wrong.

    With ``events=False`` the outcome has no ``events``: the same shot, ruled on alike, for
    callers that keep only the result (a preview's thousand games are never replayed), without
    the cost of recording every event, which is a good share of the whole shot's.

    The physics is deterministic: the same input gives the same outcome, whatever ``seed``
    (accepted, and checked, for the interface's sake).
    """
    rule_set = get_rules(rules)
    _check_seed(seed)
    board = parse_state(state, _geometry())
    return play_shot(board, shot, rule_set, events=bool(events))[0]


def play_shot(
    board: BoardState, shot: Mapping[str, Any], rules: RuleSet, *, events: bool = True
) -> tuple[dict[str, Any], BoardState]:
    """:func:`simulate_shot` from a board already parsed: the outcome, as ``simulate_shot``
    returns it, and the board for the next shot.

    For a game in play (``play_game``): its board is the one the previous ruling left, which
    needs no checking again, and reading it back from the outcome's JSON cost more than the
    rules' whole judgement of the shot.
    """
    ruling, record = _simulate(board, parse_shot(shot), rules, _geometry(), events=events)
    return _outcome(ruling, record), ruling.state_after(board)


DEFAULT_SHOT_SECONDS = 11.0
"""Seconds a scripted shot takes on the game clock when ``run_round`` is not told otherwise."""


def _shot_times(shot_seconds: object, count: int) -> list[float]:
    if isinstance(shot_seconds, Sequence) and not isinstance(shot_seconds, str | bytes):
        if len(shot_seconds) < count:
            raise ValueError(
                _("shot_seconds lists %(times)s times for %(shots)s shots: give one a shot")
                % {"times": len(shot_seconds), "shots": count}
            )
        return [check_shot_seconds(v, f"shot_seconds[{i}]") for i, v in enumerate(shot_seconds)]
    return [check_shot_seconds(shot_seconds)] * count


def run_round(
    shots: Sequence[Mapping[str, Any]],
    seats: Mapping[Any, int] | None = None,
    discs_per_player: int | None = None,
    rules: str = DEFAULT_RULES,
    first_seat: int | None = None,
    seed: int | None = None,
    *,
    first_turn: int | None = None,
    time_limit: float | None = None,
    shot_seconds: float | Sequence[float] = DEFAULT_SHOT_SECONDS,
) -> dict[str, Any]:
    """Play a scripted round: each shot in turn from an empty board, then count the board.

    ``shots``: shot dicts as for :func:`simulate_shot`, in the order they are shot; each must come
    from the seat whose turn it is (clockwise from ``first_seat``, default the lowest occupied
    seat) while that player has discs left (``discs_per_player``, default the rules' figure: 8 in
    NCA and WCC singles, 12 in the family rulebook's two-player game, 6 in doubles). A shot
    without an id gets its side's letter and number (a1, a2, ... for side 0; b1, ... for side 1;
    c1, ... for side 2). Fewer shots than a full round is a round cut short by time (NCA 8b).

    Three seats play the family rulebook's three-player games: two versus one (``{"0": 0, "1": 1,
    "2": 0}``: the partners opposite each other with ``discs_per_player`` discs each, default 6;
    the lone player shoots every other turn, twice as many) or three alone (``{"0": 0, "1": 1,
    "2": 2}``: 12 discs each by default, scored 2-1-0 by rank). ``first_turn`` picks which of the
    lone player's two turns of the clockwise cycle opens the round (see
    :func:`simulation.rules.seats.turn_order`).

    Timed play: ``time_limit`` is the time left on the game clock when the round begins, in
    minutes (None: untimed), and ``shot_seconds`` the time each shot takes (one figure, or one per
    shot). When a shot would be released after the limit the buzzer sounds: that shot and the
    rest are not played, except the equalising shot of a side that has had one shot fewer (NCA
    8b; WCC: "they will be allowed to take one last shot immediately after the buzzer"); the round
    is scored by the board as it stands, 0-0 if no disc was shot.

    Returns the seats, the first and last seat, every shot with its outcome, the board ``score``
    (20s included), the ``points`` (2-1-0; 0-0 when no disc was shot), the ``twenties`` per side,
    the 20 discs ``set_aside`` and the final ``state``; ``complete`` (every disc shot),
    ``rounds_cut_short`` (1 when the round ended with discs unshot, by the buzzer or a shorter
    script, else 0), ``not_played`` (scripted shots the buzzer stopped) and ``time``
    (``limit_minutes``, ``elapsed_seconds``, ``expired``). Raises ``ValueError`` naming the shot
    at fault.
    """
    rule_set = get_rules(rules)
    _check_seed(seed)
    if isinstance(shots, str | bytes) or not isinstance(shots, Sequence):
        raise ValueError(
            _("shots must be a list of shot objects, not %(shots)r") % {"shots": shots}
        )
    seating = parse_seats(seats)
    keeper = RoundKeeper.start(seating, discs_per_player, first_seat, rule_set, first_turn)
    clock = GameClock.of_minutes(time_limit)
    times = _shot_times(shot_seconds, len(shots))
    geometry = _geometry()
    records: list[dict[str, Any]] = []
    set_aside: list[dict[str, Any]] = []
    not_played = 0
    for number, raw in enumerate(shots, start=1):
        if not clock.release(times[number - 1]):
            if not (clock.expired and keeper.equalising_shot_due):
                not_played = len(shots) - number + 1
                break
            clock.equalise(times[number - 1])
        try:
            if not isinstance(raw, Mapping):
                raise ValueError(_("a shot must be an object, not %(raw)r") % {"raw": raw})
            request = parse_shot(raw)
            seat = keeper.check_turn(request.seat)
            if "id" not in raw:
                request = replace(request, id=keeper.default_id(seat))
            ruling, events = _simulate(keeper.state, request, rule_set, geometry)
        except ValueError as error:
            raise ValueError(
                _("shot %(number)s: %(error)s") % {"number": number, "error": error}
            ) from None
        keeper.record(seat, ruling)
        outcome = _outcome(ruling, events)
        set_aside.extend(outcome["twenties"])
        records.append({"seat": seat, "shot": request.to_json(), "outcome": outcome})
    score = keeper.scores(geometry)
    points = keeper.points(geometry)
    return {
        "rules": rule_set.name,
        "seats": {str(seat): side for seat, side in sorted(keeper.seats.items())},
        "discs_per_player": keeper.discs_per_player,
        "first": keeper.first_seat,
        "hammer": keeper.hammer,
        "complete": keeper.finished,
        "rounds_cut_short": 0 if keeper.finished else 1,
        "not_played": not_played,
        "time": clock.to_json(),
        "shots": records,
        "score": list(score),
        "points": list(points),
        "twenties": list(keeper.twenties),
        "set_aside": set_aside,
        "state": keeper.state.to_json(),
    }
