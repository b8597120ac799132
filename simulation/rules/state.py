"""The board between shots: the discs in play and who sits where.

Only discs in play are on the board: NCA 8d puts every out-of-play disc in the ditch "before the
next player's turn", where it "must remain ... until the end of the round", and NCA 2a(ii) sets the
20s aside after each turn. A leaner (a disc tilted in the 20 hole, not lying flat) stays in play
(NCA 6c) and is marked as such.

The JSON form is the one the simulation interface documents::

    {"discs": [{"id": "b3", "side": 1, "x": 0.02, "y": 0.11}, ...], "seats": {"0": 0, "2": 1}}

with ``"leaner": true`` added on a leaner. ``seats`` defaults to singles.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.seats import SINGLES, check_seating

OVERLAP_TOLERANCE = 1e-6
"""How far (m) two discs at rest may seem to overlap through round-off before a state is refused."""


@dataclass(frozen=True)
class Disc:
    """A disc in play: its id, side (colour) and centre (m)."""

    id: str
    side: int
    x: float
    y: float
    leaner: bool = False

    @property
    def distance(self) -> float:
        """Distance of the disc's centre from the board's centre."""
        return math.hypot(self.x, self.y)

    def to_json(self) -> dict[str, Any]:
        """The disc in the interface's JSON form."""
        data: dict[str, Any] = {"id": self.id, "side": self.side, "x": self.x, "y": self.y}
        if self.leaner:
            data["leaner"] = True
        return data


@dataclass(frozen=True)
class BoardState:
    """The discs in play and the seat -> side map."""

    discs: tuple[Disc, ...] = ()
    seats: Mapping[int, int] = field(default_factory=lambda: dict(SINGLES))

    def side_of(self, seat: int) -> int:
        """The side (colour) that plays from ``seat``."""
        if seat not in self.seats:
            raise ValueError(
                f"seat {seat} is not occupied: occupied seats are {sorted(self.seats)}"
            )
        return self.seats[seat]

    def to_json(self) -> dict[str, Any]:
        """The state in the interface's JSON form."""
        return {
            "discs": [disc.to_json() for disc in self.discs],
            "seats": {str(seat): side for seat, side in sorted(self.seats.items())},
        }


def _number(where: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{where} must be a finite number, not {value!r}")
    return float(value)


def parse_seats(raw: object) -> dict[int, int]:
    """A seat -> side map from JSON (keys may be the strings "0"-"3"), validated."""
    if raw is None:
        return dict(SINGLES)
    if not isinstance(raw, Mapping):
        raise ValueError(f"seats must be an object mapping seat to side, not {raw!r}")
    seats: dict[int, int] = {}
    for key, side in raw.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise ValueError(
                f"unknown seat {key!r}: seats are 0 (south), 1 (west), 2 (north), 3 (east)"
            ) from None
        if str(seat) != str(key).strip():
            raise ValueError(f"unknown seat {key!r}: seats are 0, 1, 2, 3")
        seats[seat] = side
    return check_seating(seats)


def parse_state(raw: object, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> BoardState:
    """A :class:`BoardState` from its JSON form, checked: unique ids, known sides, discs in play.

    Refuses a disc that touches the shooting line (it would be out of play, NCA 8c), a disc off
    the board and two discs on top of each other.
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"state must be an object with 'discs' and 'seats', not {raw!r}")
    unknown = set(raw) - {"discs", "seats"}
    if unknown:
        raise ValueError(f"state has unknown keys {sorted(unknown)}: expected 'discs' and 'seats'")
    seats = parse_seats(raw.get("seats"))
    sides = sorted(set(seats.values()))
    raw_discs = raw.get("discs", [])
    if not isinstance(raw_discs, list):
        raise ValueError(f"state discs must be a list, not {raw_discs!r}")
    discs: list[Disc] = []
    seen: set[str] = set()
    for index, item in enumerate(raw_discs):
        where = f"state disc {index}"
        if not isinstance(item, Mapping):
            raise ValueError(f"{where} must be an object with id, side, x and y, not {item!r}")
        disc_id = item.get("id")
        if not isinstance(disc_id, str) or not disc_id:
            raise ValueError(f"{where} needs a non-empty string id, not {disc_id!r}")
        where = f"disc {disc_id!r}"
        if disc_id in seen:
            raise ValueError(f"{where} appears twice in the state: ids must be unique")
        seen.add(disc_id)
        side = item.get("side")
        if isinstance(side, bool) or side not in sides:
            raise ValueError(f"{where} has side {side!r}: the sides seated are {sides}")
        x = _number(f"{where} x", item.get("x"))
        y = _number(f"{where} y", item.get("y"))
        leaner = item.get("leaner", False)
        if not isinstance(leaner, bool):
            raise ValueError(f"{where} leaner must be true or false, not {leaner!r}")
        disc = Disc(id=disc_id, side=int(side), x=x, y=y, leaner=leaner)
        if leaner and disc.distance > geometry.hole_radius:
            raise ValueError(
                f"{where} is marked a leaner but its centre is {disc.distance:.4f} m from the "
                f"centre, outside the 20 hole (radius {geometry.hole_radius} m)"
            )
        if not leaner and disc.distance < geometry.hole_support_radius:
            raise ValueError(
                f"{where} at ({x}, {y}) lies over the 20 hole and would drop in: a flat disc in "
                f"play has its centre at least {geometry.hole_support_radius:.6f} m from the "
                "centre (mark a disc tilted in the hole as a leaner)"
            )
        if geometry.touches_shooting_line_or_beyond(x, y):
            limit = geometry.shooting_line_radius - geometry.half_line - geometry.disc_radius
            raise ValueError(
                f"{where} at ({x}, {y}) touches or is beyond the shooting line, so it is out of "
                f"play (NCA 8c): a disc in play has its centre less than {limit:.6f} m from the "
                "centre"
            )
        discs.append(disc)
    _check_no_overlap(discs, geometry)
    return BoardState(discs=tuple(discs), seats=seats)


def _check_no_overlap(discs: list[Disc], geometry: BoardGeometry) -> None:
    contact = 2 * geometry.disc_radius - OVERLAP_TOLERANCE
    flat = [d for d in discs if not d.leaner]
    for i, a in enumerate(flat):
        for b in flat[i + 1 :]:
            if math.hypot(a.x - b.x, a.y - b.y) < contact:
                raise ValueError(f"discs {a.id!r} and {b.id!r} lie on top of each other")
