"""Named rule sets: where the rulebooks differ, one switch each.

The NCA competitive rules and the WCC tournament rules govern; the family rulebook (the one in the
box of a family board) is offered as a variant. They agree on almost everything. The switches here
are the places where their texts differ:

``no_hit_removal`` / ``no_hiding_removal`` — what an invalid shot takes off the board.
    NCA 3b: "the shooting disc and all of the other discs that were struck, including any 20's
    made". WCC: "the shooter's disc and all the other discs of the same colour that were struck,
    including any 20's". Family rule 6 (an opposing disc was on the board and none was hit): "the
    shooter's disk is removed from the board, along with all friendly disks it touched"; family
    rule 5 (no-hiding failed): "all disks contacted are removed to the ditch".

``line_strike_puts_out`` — when a disc that touched or crossed the shooting line and came back is
    still in play. NCA 8e (the spinning disc rule) requires that it "does not strike anything other
    than the playing surface while touching or across the outer boundary line"; the WCC text
    requires that it "returns under its own momentum", which a disc that struck something out
    there (or was struck) did not; the family rulebook removes only discs that come to rest
    touching the line (scoring 3) or leave the surface (rule 8).

``returning_damage`` — what happens to discs moved by a disc that left the surface and came back.
    NCA 8f and the WCC damage rule: the damage stays and 20s made count. Family rule 8: "all disks
    disturbed after the ricochet are replaced to their original positions".

``quadrant_overhang`` — how far past the quadrant line a shot may start, as the fraction of a disc
    radius its centre may pass the line. NCA 7d and WCC: the disc may overhang but must still touch
    the quadrant line (1.0). Family rule 2: "no more than halfway over" (0.0: the centre stays on
    the line or inside the quadrant).

``singles_discs`` / ``doubles_discs`` — the discs each player begins a round with. NCA 4a: singles
    players "each begin with 8 discs"; NCA 5a: doubles players "each begin with 6 discs". Family
    rulebook, Two-Player Game: "Each player receives 12 disks"; Four-Player Game: "each partner
    receiving 6 disks". A category may deal fewer (WCC cue singles: 6), so the simulation takes a
    number of discs as an option as well.

``returning_damage`` and the foul: under NCA 8f the damage stays whether the shot was valid or
    not (a disc struck only by the returning disc is not "struck" by the invalid shot, NCA 3b);
    the family variant keeps its own switch, ``ReturningDamage.REPLACE``, and puts those discs
    back (family rule 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from tournaments.translation import _, gettext_noop


class RemovalScope(StrEnum):
    """Which discs, besides the shooting disc, an invalid shot removes."""

    ALL_STRUCK = "all-struck"
    """Every disc struck during the shot, of either colour (NCA 3b)."""

    OWN_STRUCK = "own-struck"
    """Every disc of the shooter's colour struck during the shot (WCC)."""

    OWN_TOUCHED = "own-touched"
    """The shooter's own discs that the shooting disc itself touched (family rule 6)."""


class ReturningDamage(StrEnum):
    """What becomes of discs moved by a disc that left the surface and came back."""

    STAYS = "stays"
    """They stay where they ended; 20s they made count (NCA 8f, WCC damage rule)."""

    REPLACE = "replace"
    """They go back where they were before the shot (family rule 8)."""


@dataclass(frozen=True)
class RuleSet:
    """The switches of one named rule set; see the module docstring for the texts behind them."""

    name: str
    no_hit_removal: RemovalScope = RemovalScope.ALL_STRUCK
    no_hiding_removal: RemovalScope = RemovalScope.ALL_STRUCK
    line_strike_puts_out: bool = True
    returning_damage: ReturningDamage = ReturningDamage.STAYS
    quadrant_overhang: float = 1.0
    singles_discs: int = 8
    doubles_discs: int = 6
    description: str = ""

    def __post_init__(self) -> None:
        if not 0.0 <= self.quadrant_overhang <= 1.0:
            raise ValueError(
                _("quadrant_overhang must lie between 0 and 1 disc radius, not %(overhang)s")
                % {"overhang": self.quadrant_overhang}
            )


NCA = RuleSet(
    name="nca",
    description=gettext_noop("National Crokinole Association competitive rules (the default)."),
)

WCC = RuleSet(
    name="wcc",
    no_hit_removal=RemovalScope.OWN_STRUCK,
    no_hiding_removal=RemovalScope.OWN_STRUCK,
    description=gettext_noop("World Crokinole Championship tournament rules."),
)

FAMILY = RuleSet(
    name="family",
    no_hit_removal=RemovalScope.OWN_TOUCHED,
    no_hiding_removal=RemovalScope.ALL_STRUCK,
    line_strike_puts_out=False,
    returning_damage=ReturningDamage.REPLACE,
    quadrant_overhang=0.0,
    singles_discs=12,
    description=gettext_noop("The family rulebook that comes with a home board."),
)

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType({r.name: r for r in (NCA, WCC, FAMILY)})
"""Every named rule set, by name."""

DEFAULT_RULES = "nca"


def get_rules(rules: str | RuleSet = DEFAULT_RULES) -> RuleSet:
    """The rule set of that name (or the rule set itself when one is given).

    Raises ``ValueError`` naming the known rule sets when the name is unknown.
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str) and rules in RULE_SETS:
        return RULE_SETS[rules]
    known = ", ".join(repr(name) for name in RULE_SETS)
    raise ValueError(
        _("unknown rules %(rules)r: the known rule sets are %(known)s")
        % {"rules": rules, "known": known}
    )
