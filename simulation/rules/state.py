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
from tournaments.translation import _

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
                _("seat %(seat)s is not occupied: occupied seats are %(occupied)s")
                % {"seat": seat, "occupied": sorted(self.seats)}
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
        raise ValueError(
            _("%(where)s must be a finite number, not %(value)r") % {"where": where, "value": value}
        )
    return float(value)


def parse_seats(raw: object) -> dict[int, int]:
    """A seat -> side map from JSON (keys may be the strings "0"-"3"), validated."""
    if raw is None:
        return dict(SINGLES)
    if not isinstance(raw, Mapping):
        raise ValueError(
            _("seats must be an object mapping seat to side, not %(raw)r") % {"raw": raw}
        )
    seats: dict[int, int] = {}
    for key, side in raw.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise ValueError(
                _("unknown seat %(seat)r: seats are 0 (south), 1 (west), 2 (north), 3 (east)")
                % {"seat": key}
            ) from None
        if str(seat) != str(key).strip():
            raise ValueError(_("unknown seat %(seat)r: seats are 0, 1, 2, 3") % {"seat": key})
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
        raise ValueError(
            _("state must be an object with 'discs' and 'seats', not %(raw)r") % {"raw": raw}
        )
    unknown = set(raw) - {"discs", "seats"}
    if unknown:
        raise ValueError(
            _("state has unknown keys %(unknown)s: expected 'discs' and 'seats'")
            % {"unknown": sorted(unknown)}
        )
    seats = parse_seats(raw.get("seats"))
    sides = sorted(set(seats.values()))
    raw_discs = raw.get("discs", [])
    if not isinstance(raw_discs, list):
        raise ValueError(_("state discs must be a list, not %(raw)r") % {"raw": raw_discs})
    discs: list[Disc] = []
    seen: set[str] = set()
    for index, item in enumerate(raw_discs):
        where = _("state disc %(index)s") % {"index": index}
        if not isinstance(item, Mapping):
            raise ValueError(
                _("%(where)s must be an object with id, side, x and y, not %(item)r")
                % {"where": where, "item": item}
            )
        disc_id = item.get("id")
        if not isinstance(disc_id, str) or not disc_id:
            raise ValueError(
                _("%(where)s needs a non-empty string id, not %(id)r")
                % {"where": where, "id": disc_id}
            )
        where = _("disc %(disc)r") % {"disc": disc_id}
        if disc_id in seen:
            raise ValueError(
                _("%(where)s appears twice in the state: ids must be unique") % {"where": where}
            )
        seen.add(disc_id)
        side = item.get("side")
        if isinstance(side, bool) or side not in sides:
            raise ValueError(
                _("%(where)s has side %(side)r: the sides seated are %(sides)s")
                % {"where": where, "side": side, "sides": sides}
            )
        x = _number(f"{where} x", item.get("x"))
        y = _number(f"{where} y", item.get("y"))
        leaner = item.get("leaner", False)
        if not isinstance(leaner, bool):
            raise ValueError(
                _("%(where)s leaner must be true or false, not %(leaner)r")
                % {"where": where, "leaner": leaner}
            )
        disc = Disc(id=disc_id, side=int(side), x=x, y=y, leaner=leaner)
        if leaner and disc.distance > geometry.hole_radius:
            raise ValueError(
                _(
                    "%(where)s is marked a leaner but its centre is %(distance).4f m from the "
                    "centre, outside the 20 hole (radius %(hole)s m)"
                )
                % {"where": where, "distance": disc.distance, "hole": geometry.hole_radius}
            )
        if not leaner and disc.distance < geometry.hole_support_radius:
            raise ValueError(
                _(
                    "%(where)s at (%(x)s, %(y)s) lies over the 20 hole and would drop in: a flat "
                    "disc in play has its centre at least %(support).6f m from the centre (mark a "
                    "disc tilted in the hole as a leaner)"
                )
                % {"where": where, "x": x, "y": y, "support": geometry.hole_support_radius}
            )
        if geometry.touches_shooting_line_or_beyond(x, y):
            limit = geometry.shooting_line_radius - geometry.half_line - geometry.disc_radius
            raise ValueError(
                _(
                    "%(where)s at (%(x)s, %(y)s) touches or is beyond the shooting line, so it is "
                    "out of play (NCA 8c): a disc in play has its centre less than %(limit).6f m "
                    "from the centre"
                )
                % {"where": where, "x": x, "y": y, "limit": limit}
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
                raise ValueError(
                    _("discs %(a)r and %(b)r lie on top of each other") % {"a": a.id, "b": b.id}
                )
