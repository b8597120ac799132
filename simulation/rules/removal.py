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
other discs" set by the rule set (see :mod:`simulation.rules.variants`). Only discs struck by the
shot in play count as struck (NCA 8f, below), and the fouler never keeps a 20 made by the foul
(family rulebook, scoring 2: the centre-hole shot is removed "receiving a 0").

Discs disturbed by a disc that came back onto the board: under NCA 8f and the WCC damage rule "the
altered position of any discs struck shall remain and any 20's made shall count" — on a valid shot
and on an invalid one alike: only the returning disc itself goes; under family rule 8 "all disks
disturbed after the ricochet are replaced to their original positions" (the family variant's own
switch, ``ReturningDamage.REPLACE``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

from simulation.rules.facts import Contact, DiscFacts, EndStatus
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.validity import in_play_chain
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

    "Struck" means struck by the shot in play: the discs the shot disc set moving, directly or
    through other discs, by contacts made while every disc in them was still on the playing
    surface. A disc struck by a disc that had left the surface and came back is the damage of NCA
    8f ("the altered position of any discs struck shall remain"; WCC: "Any discs on the playing
    surface that were moved by the re-entering disc will remain in their new position"), not a
    disc struck by the invalid shot: it stays, and so do the discs it set moving in turn. (Under
    family rule 8 those discs have already been put back, see :func:`disturbed_by_returning`.)
    """
    contacts = list(contacts)
    chain, struck = in_play_chain(shooter, contacts, discs)
    removed = {shooter}
    touched_by_shooter = {
        other
        for contact in contacts
        if not (
            discs[contact.a].out_of_play_at(contact.t) or discs[contact.b].out_of_play_at(contact.t)
        )
        for mover, other in ((contact.a, contact.b), (contact.b, contact.a))
        if mover == shooter
    }
    for disc_id in (chain | struck) - {shooter}:
        if _in_scope(scope, discs[disc_id].side == side, disc_id in touched_by_shooter):
            removed.add(disc_id)
    return removed


def foul_twenties(
    shooter: str,
    side: int,
    contacts: Iterable[Contact],
    discs: Mapping[str, DiscFacts],
) -> set[str]:
    """The fouler's 20s made by an invalid shot, and the discs each of them touched in play.

    Family rulebook, scoring 2: "If the shooter should have encountered an opposing disk and did
    not do so, the center hole shot is removed to the ditch, receiving a 0, along with any disks it
    touched." The centre-hole shot is read as any disc of the shooter's colour that the shot, in
    play, sent flat into the 20 hole: whichever of the fouler's discs dropped, the fouler gets no
    20 for it. NCA 3b ("including any 20's made") and the WCC ("including any 20's") say the same,
    and their removal scopes already cover these discs; the family scope (rule 6: only the friendly
    discs the shooting disc itself touched) does not, hence this rule.
    """
    contacts = list(contacts)
    chain, struck = in_play_chain(shooter, contacts, discs)
    holed = {
        disc_id
        for disc_id in chain | struck
        if discs[disc_id].side == side and discs[disc_id].status is EndStatus.HOLE
    }
    removed = set(holed)
    for contact in contacts:
        if discs[contact.a].out_of_play_at(contact.t) or discs[contact.b].out_of_play_at(contact.t):
            continue
        if contact.a in holed:
            removed.add(contact.b)
        if contact.b in holed:
            removed.add(contact.a)
    return removed


def _in_scope(scope: RemovalScope, own: bool, touched_by_shooter: bool) -> bool:
    if scope is RemovalScope.ALL_STRUCK:
        return True
    if scope is RemovalScope.OWN_STRUCK:
        return own
    return own and touched_by_shooter
