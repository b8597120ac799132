"""The whole ruling on one shot: valid or not, what stays in play, the 20s, what was removed.

The order of judgement follows the rulebooks:

1. Under family rule 8, discs disturbed by a disc that came back onto the board are put back where
   they lay before the shot, and the contacts that disc set off are forgotten (see
   :mod:`removal`). "Original positions" is read as the positions before the shot, the only ones
   on record; the shot disc, which lay nowhere before, stays where it ended.
2. Each disc's own fate: into the ditch, out on the line, in the 20 hole, a leaner, or in play
   (NCA 8c-8f, 6c).
3. The valid shot rule (NCA 3a), judged on what the shot did in play.
4. An invalid shot removes the shooting disc and the discs it struck in play in the rule set's
   scope, 20s included (NCA 3b); discs struck only by a disc that had left the surface stay where
   they ended (NCA 8f, damage stays). Whatever the scope, the fouler's 20s made by the shot are
   removed with the discs they touched (family rulebook, scoring 2: "receiving a 0"). A disc that
   went out on its own keeps that reason.
5. 20s still standing are set aside and credited to the disc's owner, whoever knocked them in
   (NCA 2a(ii); family rule 7: "even if the owner is the shooter's opponent").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from simulation.rules.facts import Contact, DiscFacts, EndStatus, ShotFacts
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.regions import reaches_the_15
from simulation.rules.removal import (
    Reason,
    disturbed_by_returning,
    foul_scope,
    foul_twenties,
    out_of_play_reason,
)
from simulation.rules.state import BoardState, Disc
from simulation.rules.validity import Foul, judge_validity
from simulation.rules.variants import ReturningDamage, RuleSet
from tournaments.translation import _


@dataclass(frozen=True)
class Removal:
    """A disc taken out of play by the shot, and why."""

    id: str
    side: int
    reason: Reason


@dataclass(frozen=True)
class Twenty:
    """A disc that ended flat in the 20 hole and counts 20 for its side."""

    id: str
    side: int


@dataclass(frozen=True)
class Ruling:
    """The judgement on one shot."""

    valid: bool
    foul: Foul | None
    discs: tuple[Disc, ...]
    twenties: tuple[Twenty, ...]
    removed: tuple[Removal, ...]
    replaced: tuple[str, ...]
    touched: tuple[tuple[str, str], ...]

    def state_after(self, before: BoardState) -> BoardState:
        """The board for the next shot."""
        return BoardState(discs=self.discs, seats=dict(before.seats))


def _complete(facts: ShotFacts, state: BoardState) -> dict[str, DiscFacts]:
    """The facts keyed by id, with an unmoved entry for every state disc the facts leave out."""
    known = facts.by_id()
    complete: dict[str, DiscFacts] = {}
    for disc in state.discs:
        given = known.get(disc.id)
        if given is None:
            given = DiscFacts(
                id=disc.id,
                side=disc.side,
                x=disc.x,
                y=disc.y,
                status=EndStatus.LEANER if disc.leaner else EndStatus.SURFACE,
            )
        elif given.side != disc.side:
            raise ValueError(_("disc %(disc)r changed sides during the shot") % {"disc": disc.id})
        if (given.start_x, given.start_y, given.start_leaner) != (disc.x, disc.y, disc.leaner):
            given = replace(given, start_x=disc.x, start_y=disc.y, start_leaner=disc.leaner)
        complete[disc.id] = given
    for disc_id, given in known.items():
        if disc_id not in complete:
            if disc_id != facts.shooter:
                raise ValueError(
                    _("disc %(disc)r is in the facts but was not on the board") % {"disc": disc_id}
                )
            complete[disc_id] = given
    for contact in facts.contacts:
        for disc_id in (contact.a, contact.b):
            if disc_id not in complete:
                raise ValueError(
                    _("contact %(contact)s names disc %(disc)r, not on the board")
                    % {"contact": contact, "disc": disc_id}
                )
    return complete


def _unique_pairs(contacts: tuple[Contact, ...]) -> tuple[tuple[str, str], ...]:
    seen: set[frozenset[str]] = set()
    pairs: list[tuple[str, str]] = []
    for contact in contacts:
        key = frozenset((contact.a, contact.b))
        if key not in seen:
            seen.add(key)
            pairs.append((contact.a, contact.b))
    return tuple(pairs)


def judge_shot(
    state: BoardState,
    facts: ShotFacts,
    rules: RuleSet,
    geometry: BoardGeometry = DEFAULT_GEOMETRY,
) -> Ruling:
    """The ruling on a shot from ``state`` whose facts are ``facts``."""
    if any(d.id == facts.shooter for d in state.discs):
        raise ValueError(
            _("the shot disc's id %(disc)r is already on the board") % {"disc": facts.shooter}
        )
    discs = _complete(facts, state)
    side = discs[facts.shooter].side
    contacts = facts.contacts

    replaced: list[str] = []
    if rules.returning_damage is ReturningDamage.REPLACE:
        tainted = disturbed_by_returning(contacts, discs)
        for disc_id in tainted:
            disc = discs[disc_id]
            if disc.left_surface or disc.start_x is None or disc.start_y is None:
                continue
            discs[disc_id] = DiscFacts(
                id=disc.id,
                side=disc.side,
                x=disc.start_x,
                y=disc.start_y,
                status=EndStatus.LEANER if disc.start_leaner else EndStatus.SURFACE,
                start_x=disc.start_x,
                start_y=disc.start_y,
                start_leaner=disc.start_leaner,
            )
            replaced.append(disc_id)
        contacts = tuple(
            c for c in contacts if not any(c.t >= tainted.get(i, float("inf")) for i in (c.a, c.b))
        )

    reasons: dict[str, Reason | None] = {
        i: out_of_play_reason(d, rules, geometry) for i, d in discs.items()
    }
    # Each disc that may stay in play, as it would lie on the next board (made once).
    lying = {i: _as_disc(d) for i, d in discs.items() if reasons[i] is None}
    ends_in_15 = [
        i
        for i, d in discs.items()
        if reasons[i] is None
        and (
            d.status in (EndStatus.HOLE, EndStatus.LEANER)
            or (d.status is EndStatus.SURFACE and reaches_the_15(lying[i], geometry))
        )
    ]
    opponents_in_play = any(d.side != side for d in state.discs)
    foul = judge_validity(facts.shooter, side, opponents_in_play, contacts, discs, ends_in_15)
    if foul is not None:
        scope = rules.no_hit_removal if foul is Foul.NO_OPPONENT_HIT else rules.no_hiding_removal
        voided = foul_scope(facts.shooter, side, scope, contacts, discs)
        voided |= foul_twenties(facts.shooter, side, contacts, discs)
        for disc_id in voided:
            if reasons[disc_id] is None:
                reasons[disc_id] = Reason.FOUL

    in_play: list[Disc] = []
    twenties: list[Twenty] = []
    removed: list[Removal] = []
    order = [d.id for d in state.discs] + [facts.shooter]
    for disc_id in order:
        disc = discs[disc_id]
        reason = reasons[disc_id]
        if reason is not None:
            removed.append(Removal(id=disc_id, side=disc.side, reason=reason))
        elif disc.status is EndStatus.HOLE:
            twenties.append(Twenty(id=disc_id, side=disc.side))
        else:
            in_play.append(lying[disc_id])
    return Ruling(
        valid=foul is None,
        foul=foul,
        discs=tuple(in_play),
        twenties=tuple(twenties),
        removed=tuple(removed),
        replaced=tuple(replaced),
        touched=_unique_pairs(facts.contacts),
    )


def _as_disc(facts: DiscFacts) -> Disc:
    return Disc(
        id=facts.id,
        side=facts.side,
        x=facts.x,
        y=facts.y,
        leaner=facts.status is EndStatus.LEANER,
    )
