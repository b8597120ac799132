"""Where a shot may start and how the disc leaves the finger.

NCA 7d: "A disc must start from a flat, stationary position, and be touching some part of the outer
boundary line of the player's quadrant, or touching both the outer boundary line and a player's
quadrant dividing line." The WCC text agrees: "A disc may exceed the quadrant line of the contestant
but must remain touching the contestant's quadrant line." The family rulebook (rule 2) is stricter:
"A shot may be placed on the quadrant line itself, but no more than halfway over."

A shot names its start by ``position``: degrees around the board from the seat's centre line,
positive counterclockwise, with the disc's centre on the shooting line unless ``radius`` (the
centre's distance from the board's centre) says otherwise. The quadrant lines are the radial lines
45 degrees either side of the centre line. ``angle`` is the direction of travel measured from the
seat's centre line (for seat 0 the +y direction), positive counterclockwise; ``speed`` is in m/s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.seats import check_seat, seat_angle, seat_name
from simulation.rules.state import Disc
from simulation.rules.variants import RuleSet
from tournaments.translation import _

QUADRANT_HALF_WIDTH = 45.0
"""Each quadrant spans 45 degrees either side of its seat's centre line."""

_TOLERANCE = 1e-9
"""Round-off allowance (metres) when judging touching."""

DEFAULT_SHOT_ID = "shot"
"""The shot disc's id when the shot does not name one."""

SHOT_KEYS = ("seat", "position", "angle", "speed", "radius", "id")


@dataclass(frozen=True)
class ShotRequest:
    """A shot as asked for: seat, position and angle (degrees), speed (m/s), optional radius (m)."""

    seat: int
    position: float
    angle: float
    speed: float
    radius: float | None = None
    id: str = DEFAULT_SHOT_ID

    def to_json(self) -> dict[str, object]:
        """The shot in the interface's JSON form."""
        data: dict[str, object] = {
            "seat": self.seat,
            "position": self.position,
            "angle": self.angle,
            "speed": self.speed,
        }
        if self.radius is not None:
            data["radius"] = self.radius
        data["id"] = self.id
        return data


def parse_shot(raw: object) -> ShotRequest:
    """A :class:`ShotRequest` from its JSON form, with ``ValueError`` naming what is missing."""
    if not isinstance(raw, Mapping):
        raise ValueError(
            _("a shot must be an object with seat, position, angle and speed, not %(raw)r")
            % {"raw": raw}
        )
    unknown = sorted(set(raw) - set(SHOT_KEYS))
    if unknown:
        raise ValueError(
            _("shot has unknown keys %(unknown)s: the keys are %(keys)s")
            % {"unknown": unknown, "keys": list(SHOT_KEYS)}
        )
    missing = [key for key in ("seat", "position", "angle", "speed") if key not in raw]
    if missing:
        raise ValueError(
            _("shot is missing %(missing)s: it needs seat, position, angle and speed")
            % {"missing": missing}
        )
    shot_id = raw.get("id", DEFAULT_SHOT_ID)
    if not isinstance(shot_id, str) or not shot_id:
        raise ValueError(_("shot id must be a non-empty string, not %(id)r") % {"id": shot_id})
    radius = raw.get("radius")
    return ShotRequest(
        seat=check_seat(raw["seat"]),
        position=_finite_number("position", raw["position"]),
        angle=_finite_number("angle", raw["angle"]),
        speed=_finite_number("speed", raw["speed"]),
        radius=None if radius is None else _finite_number("radius", radius),
        id=shot_id,
    )


@dataclass(frozen=True)
class Placement:
    """A legal shot's start: the disc's centre (m) and its velocity at release (m/s)."""

    x: float
    y: float
    vx: float
    vy: float


def _finite_number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(
            _("shot %(name)s must be a number, not %(value)r") % {"name": name, "value": value}
        )
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(
            _("shot %(name)s must be a finite number, not %(value)r")
            % {"name": name, "value": value}
        )
    return number


def radius_range(geometry: BoardGeometry = DEFAULT_GEOMETRY) -> tuple[float, float]:
    """The distances from the board's centre at which a disc's centre still touches the line."""
    reach = geometry.disc_radius + geometry.half_line
    return geometry.shooting_line_radius - reach, geometry.shooting_line_radius + reach


def position_limit(
    radius: float, rules: RuleSet, geometry: BoardGeometry = DEFAULT_GEOMETRY
) -> float:
    """The largest ``|position|`` (degrees) allowed for a disc centred ``radius`` from the centre.

    Past 45 degrees the centre lies beyond the quadrant line, at a distance of
    ``radius * sin(|position| - 45)`` from it; the disc still touches the (painted) line while that
    distance is at most its radius plus half the line width (NCA 7d). The family rulebook's "no
    more than halfway over" lets the centre reach the line but not pass it.
    """
    reach = rules.quadrant_overhang * geometry.disc_radius + geometry.half_line
    return QUADRANT_HALF_WIDTH + math.degrees(math.asin(min(1.0, reach / radius)))


def place_shot(
    seat: object,
    position: object,
    angle: object,
    speed: object,
    rules: RuleSet,
    radius: object = None,
    discs: Iterable[Disc] = (),
    geometry: BoardGeometry = DEFAULT_GEOMETRY,
) -> Placement:
    """The start of a legal shot, or ``ValueError`` saying what is wrong and what is allowed."""
    seat = check_seat(seat)
    position = _finite_number("position", position)
    angle = _finite_number("angle", angle)
    speed = _finite_number("speed", speed)
    if speed < 0:
        raise ValueError(_("shot speed must be 0 m/s or more, not %(speed)s") % {"speed": speed})

    low, high = radius_range(geometry)
    if radius is None:
        centre_radius = geometry.shooting_line_radius
    else:
        centre_radius = _finite_number("radius", radius)
        if not low - _TOLERANCE <= centre_radius <= high + _TOLERANCE:
            raise ValueError(
                _(
                    "shot radius %(radius)s m does not keep the disc touching the shooting line "
                    "(NCA 7d): its centre must lie between %(low).6f and %(high).6f m from the "
                    "centre"
                )
                % {"radius": centre_radius, "low": low, "high": high}
            )

    limit = position_limit(centre_radius, rules, geometry)
    if abs(position) > limit + 1e-9:
        if rules.quadrant_overhang >= 1.0:
            message = _(
                "shot position %(position)s degrees is off seat %(seat)s's (%(seat_name)s) "
                "quadrant: the disc must touch the quadrant line (%(rules)s rules), so position "
                "must lie between %(low).3f and %(high).3f degrees"
            )
        else:
            message = _(
                "shot position %(position)s degrees is off seat %(seat)s's (%(seat_name)s) "
                "quadrant: the disc must stay at most halfway over the quadrant line (%(rules)s "
                "rules), so position must lie between %(low).3f and %(high).3f degrees"
            )
        raise ValueError(
            message
            % {
                "position": position,
                "seat": seat,
                "seat_name": seat_name(seat),
                "rules": rules.name,
                "low": -limit,
                "high": limit,
            }
        )

    theta = math.radians(seat_angle(seat) + position)
    x = centre_radius * math.cos(theta)
    y = centre_radius * math.sin(theta)
    heading = math.radians(seat_angle(seat) + 180.0 + angle)
    vx = speed * math.cos(heading)
    vy = speed * math.sin(heading)

    contact = 2 * geometry.disc_radius - 1e-6
    for disc in discs:
        if math.hypot(disc.x - x, disc.y - y) < contact:
            raise ValueError(
                _(
                    "the shot disc would start on top of disc %(disc)r at (%(x).4f, %(y).4f): "
                    "choose another position"
                )
                % {"disc": disc.id, "x": disc.x, "y": disc.y}
            )
    return Placement(x=x, y=y, vx=vx, vy=vy)
