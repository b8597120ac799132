"""What leaves play after a shot, and why.

Out of play on its own account (whatever the validity of the shot):

- ``ditch``: the disc left the playing surface. WCC: "A disc that at any time leaves the perimeter
  of the raised playing surface is deemed to be officially out of bounds". That holds for a disc
  that bounced back onto the board too: NCA 8f, the damage stays rule — "this disc is
  out-of-play" — and the WCC damage rule — "An out-of-bounds disc that re-enters the playing
  surface must be removed from play." Even a 20 it drops into does not count ("except for an
  out-of-play disc").
- ``line``: the disc came to rest touching or beyond the shooting line (NCA 8c; WCC: "A disc that
  stops on the playing surface and is touching the outer line is deemed out of play"). Under NCA
  8e, the spinning disc rule, a disc that touched or crossed the line and came back inside is still
  in play only if it "does not strike anything other than the playing surface while touching or
  across the outer boundary line" (and the WCC's "returns under its own momentum" asks the same);
  the family rulebook has no such rule (rule-set switch ``line_strike_puts_out``).

Out of play because the shot was not valid (``foul``): NCA 3b, "the shooting disc and all of the
other discs that were struck, including any 20's made, shall be removed" — with the scope of "the
other discs" set by the rule set (see :mod:`simulation.rules.variants`).

Discs disturbed by a disc that came back onto the board: under NCA 8f and the WCC damage rule "the
altered position of any discs struck shall remain and any 20's made shall count"; under family rule
8 "all disks disturbed after the ricochet are replaced to their original positions".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

from simulation.rules.facts import Contact, DiscFacts, EndStatus
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.variants import RemovalScope, RuleSet


class Reason(StrEnum):
    """Why a disc was removed from play."""

    FOUL = "foul"
    DITCH = "ditch"
    LINE = "line"


def out_of_play_reason(
    disc: DiscFacts, rules: RuleSet, geometry: BoardGeometry = DEFAULT_GEOMETRY
) -> Reason | None:
    """Why this disc is out of play on its own account after the shot, or None if it is not."""
    if disc.status is EndStatus.DITCH or disc.left_surface:
        return Reason.DITCH
    if disc.status is not EndStatus.SURFACE:
        return None
    if geometry.touches_shooting_line_or_beyond(disc.x, disc.y):
        return Reason.LINE
    if disc.touched_line and disc.struck_beyond_line and rules.line_strike_puts_out:
        return Reason.LINE
    return None


def disturbed_by_returning(
    contacts: Iterable[Contact], discs: Mapping[str, DiscFacts]
) -> dict[str, float]:
    """The discs set moving, directly or in turn, by a disc after it came back onto the board.

    Maps each such disc (the returning discs included) to the time it was first disturbed. Family
    rule 8: "all disks disturbed after the ricochet are replaced to their original positions".
    """
    tainted: dict[str, float] = {
        d.id: d.returned_at for d in discs.values() if d.returned_at is not None and d.left_surface
    }
    for contact in contacts:
        for source, other in ((contact.a, contact.b), (contact.b, contact.a)):
            since = tainted.get(source)
            if since is not None and contact.t >= since and other not in tainted:
                tainted[other] = contact.t
    return tainted


def foul_scope(
    shooter: str,
    side: int,
    scope: RemovalScope,
    contacts: Iterable[Contact],
    discs: Mapping[str, DiscFacts],
) -> set[str]:
    """The discs an invalid shot removes: the shooting disc and the struck discs in ``scope``.

    Every disc but the shooter that took part in a contact was struck (all others lay still).
    """
    removed = {shooter}
    for contact in contacts:
        pair = (contact.a, contact.b)
        for disc_id in pair:
            if disc_id == shooter:
                continue
            if _in_scope(scope, discs[disc_id].side == side, shooter in pair):
                removed.add(disc_id)
    return removed


def _in_scope(scope: RemovalScope, own: bool, touched_by_shooter: bool) -> bool:
    if scope is RemovalScope.ALL_STRUCK:
        return True
    if scope is RemovalScope.OWN_STRUCK:
        return own
    return own and touched_by_shooter
