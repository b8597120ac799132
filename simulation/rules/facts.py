"""The facts of a shot: what happened on the board, as plain data the rules can judge.

The rules never move a disc themselves. They are handed, for every disc that was on the board and
for the shot disc, where it ended and a few things that happened to it on the way; and, for the
shot as a whole, every disc-disc contact in time order. Any source will do: the physics core, a
recorded game, a hand-built scenario in a test.

What each fact is for:

- ``status`` and the final centre: what it scores, whether it went into the ditch (NCA 8c/8d) or
  the 20 hole (NCA 2a(ii)), or is a leaner (NCA 6c).
- ``touched_line`` and ``struck_beyond_line``: the spinning disc rule (NCA 8e) — a disc that
  touched or crossed the shooting line and came back on its own is in play only if it struck
  nothing while out there. The shot disc touches the line where it starts; that does not count.
- ``left_surface_at`` / ``returned_at``: the damage rule (NCA 8f, WCC) — a disc that left the
  playing surface is out of play from that moment, even if it bounces back onto the board.
- ``contacts``: who struck whom and when, for the valid shot rule (NCA 3a), the removals of an
  invalid shot (NCA 3b) and the discs a returning disc disturbed (family rule 8).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from tournaments.translation import _


class EndStatus(StrEnum):
    """Where a disc is once everything has stopped."""

    SURFACE = "surface"
    """Lying flat on the playing surface."""

    DITCH = "ditch"
    """Off the playing surface (in the ditch)."""

    HOLE = "hole"
    """Flat in the 20 hole: a 20."""

    LEANER = "leaner"
    """In the 20 hole but not lying flat: it stays in play and counts 15 (NCA 6c)."""


@dataclass(frozen=True)
class DiscFacts:
    """One disc's part in a shot.

    ``start_x`` / ``start_y`` are where it lay before the shot (None for the shot disc, which was
    not on the board). ``x`` / ``y`` are where it ended (meaningless for a disc in the ditch).
    Times are seconds after the shot disc left the finger.
    """

    id: str
    side: int
    x: float
    y: float
    status: EndStatus = EndStatus.SURFACE
    start_x: float | None = None
    start_y: float | None = None
    start_leaner: bool = False
    touched_line: bool = False
    struck_beyond_line: bool = False
    left_surface_at: float | None = None
    returned_at: float | None = None

    @property
    def left_surface(self) -> bool:
        """Whether the disc went off the playing surface at some point of the shot."""
        return self.left_surface_at is not None

    def out_of_play_at(self, t: float) -> bool:
        """Whether the disc had already left the playing surface by time ``t``."""
        return self.left_surface_at is not None and self.left_surface_at <= t


@dataclass(frozen=True)
class Contact:
    """Two discs touching at time ``t`` (seconds after release)."""

    t: float
    a: str
    b: str


@dataclass(frozen=True)
class ShotFacts:
    """Everything the rules need to know about one shot.

    ``discs`` holds the shot disc (id ``shooter``) and the discs that were in play before the
    shot; one left out is taken to have lain still. ``contacts`` lists every disc-disc contact,
    in time order.
    """

    shooter: str
    discs: tuple[DiscFacts, ...]
    contacts: tuple[Contact, ...] = ()

    def __post_init__(self) -> None:
        ids = [d.id for d in self.discs]
        if len(set(ids)) != len(ids):
            raise ValueError(_("every disc in the facts of a shot needs its own id"))
        if self.shooter not in ids:
            raise ValueError(
                _("the shot disc %(disc)r is missing from the facts") % {"disc": self.shooter}
            )
        times = [c.t for c in self.contacts]
        if times != sorted(times):
            raise ValueError(_("contacts must be listed in time order"))

    def by_id(self) -> dict[str, DiscFacts]:
        """The discs' facts keyed by id."""
        return {d.id: d for d in self.discs}
