"""Whether a shot is valid (NCA 3a; the WCC "A Valid Shot"; family rules 5 and 6).

NCA 3a(i): "If any opposing discs are in play, at least one of the shooter's discs must strike an
opposing disc either directly, or by bumping one of his/her discs already in play into an opposing
disc." The WCC text says the same ("either directly or in combination"). So the contacts are
followed in time order from the shot disc, through the shooter's own discs only: the shot is valid
once a disc of that chain strikes an opposing disc. Partners' discs (doubles) are the shooter's own
colour.

NCA 3a(ii), the no hiding rule: "If there are no opposing discs in play, then the shooting disc or
at least one disc struck during the shot must end up touching or within the 15 line. (A 20 is
considered within the 15 line)". The disc must end up in play: one removed for touching the
shooting line or for leaving the surface does not count.

A disc that has left the playing surface is out of play from that moment (NCA 8c, 8f; WCC: "A disc
that at any time leaves the perimeter of the raised playing surface is deemed to be officially out
of bounds"): contacts it makes after bouncing back cannot make the shot valid, neither can the discs
it sets moving.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum

from simulation.rules.facts import Contact, DiscFacts


class Foul(StrEnum):
    """Why a shot was not valid."""

    NO_OPPONENT_HIT = "no-opponent-hit"
    """Opposing discs were in play and none was struck (NCA 3a(i))."""

    NOT_TO_THE_15 = "not-to-the-15"
    """No opposing disc was in play and nothing ended touching or inside the 15 line (NCA 3a ii)."""


def in_play_chain(
    shooter: str,
    contacts: Iterable[Contact],
    discs: Mapping[str, DiscFacts],
    through: Iterable[str] | None = None,
) -> tuple[set[str], set[str]]:
    """The discs the shot set moving through contacts made in play, and the discs they struck.

    Follows ``contacts`` in time order from ``shooter``. A contact made by a disc that had already
    left the playing surface is ignored. The chain passes on only through discs in ``through``
    (every disc when None). Returns ``(chain, struck)``: the discs of the chain, the shooter first
    among them, and every other disc they struck.
    """
    allowed = None if through is None else set(through)
    chain = {shooter}
    struck: set[str] = set()
    for contact in contacts:
        a, b = discs[contact.a], discs[contact.b]
        if a.out_of_play_at(contact.t) or b.out_of_play_at(contact.t):
            continue
        for mover, other in ((a.id, b.id), (b.id, a.id)):
            if mover in chain and other not in chain:
                struck.add(other)
                if allowed is None or other in allowed:
                    chain.add(other)
    return chain, struck


def opponent_hit(
    shooter: str, side: int, contacts: Iterable[Contact], discs: Mapping[str, DiscFacts]
) -> bool:
    """Whether the shot disc, directly or through the shooter's own discs, struck an opponent."""
    own = [d.id for d in discs.values() if d.side == side]
    _, struck = in_play_chain(shooter, contacts, discs, through=own)
    return any(discs[i].side != side for i in struck)


def judge_validity(
    shooter: str,
    side: int,
    opponents_in_play: bool,
    contacts: Iterable[Contact],
    discs: Mapping[str, DiscFacts],
    ends_in_the_15: Iterable[str],
) -> Foul | None:
    """The foul committed, or None when the shot is valid.

    ``opponents_in_play`` is judged before the shot. ``ends_in_the_15`` are the discs that ended
    the shot in play touching or inside the 15 line, or flat in the 20 hole and credited.
    """
    contacts = list(contacts)
    if opponents_in_play:
        return None if opponent_hit(shooter, side, contacts, discs) else Foul.NO_OPPONENT_HIT
    chain, _ = in_play_chain(shooter, contacts, discs)
    return None if chain & set(ends_in_the_15) else Foul.NOT_TO_THE_15
