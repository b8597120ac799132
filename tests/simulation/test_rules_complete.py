"""Scenarios for rules that complete the simulation, one clause each.

The foul and damage scenarios are constructed facts of a shot (no physics); the seating, disc
count and timing scenarios use the rules' own bookkeeping; only a few tests shoot real shots, and
those few, so the file stays quick.
"""

from __future__ import annotations

import pytest

from simulation.rules.facts import Contact, DiscFacts, EndStatus, ShotFacts
from simulation.rules.geometry import BoardGeometry
from simulation.rules.ruling import Ruling, judge_shot
from simulation.rules.state import BoardState, Disc
from simulation.rules.validity import Foul
from simulation.rules.variants import RULE_SETS, ReturningDamage, get_rules

G = BoardGeometry()
IN_15 = 0.05
IN_10 = 0.15
IN_5 = 0.25


def board(*discs: Disc, seats: dict[int, int] | None = None) -> BoardState:
    return BoardState(discs=tuple(discs), seats=seats or {0: 0, 2: 1})


def shot(x: float = 0.0, y: float = IN_10, side: int = 0, **kw: object) -> DiscFacts:
    return DiscFacts(id="shot", side=side, x=x, y=y, **kw)


def moved(disc: Disc, x: float, y: float, **kw: object) -> DiscFacts:
    return DiscFacts(id=disc.id, side=disc.side, x=x, y=y, **kw)


def judge(
    before: BoardState, discs: list[DiscFacts], contacts: list[Contact], rules: str
) -> Ruling:
    facts = ShotFacts(shooter="shot", discs=tuple(discs), contacts=tuple(contacts))
    return judge_shot(before, facts, get_rules(rules), G)


def reasons(ruling: Ruling) -> dict[str, str]:
    return {r.id: str(r.reason) for r in ruling.removed}


# 1. A 20 made on a foul shot is not credited to the fouler.


def twenty_by_combination_on_a_foul(rules: str) -> Ruling:
    """b1 lies far off; the shot misses it, bumps a1, which knocks a2 flat into the 20 hole."""
    a1, a2 = Disc("a1", 0, 0.0, 0.09), Disc("a2", 0, 0.0, 0.04)
    b1 = Disc("b1", 1, 0.1, -IN_5)
    return judge(
        board(a1, a2, b1),
        [shot(0.0, 0.12), moved(a1, 0.0, 0.06), moved(a2, 0.0, 0.0, status=EndStatus.HOLE)],
        [Contact(0.5, "shot", "a1"), Contact(0.7, "a1", "a2")],
        rules,
    )


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_a_20_made_on_a_foul_is_not_credited_to_the_fouler(rules):
    """Family rulebook, scoring 2: "If the shooter should have encountered an opposing disk and did
    not do so, the center hole shot is removed to the ditch, receiving a 0, along with any disks
    it touched." NCA 3b ("including any 20's made") and the WCC ("including any 20's") agree.

    Under the family rule 6 scope (only friendly discs the shooting disc itself touched) a 20 made
    by a disc the shooter bumped on was credited all the same; it no longer is, and a1, which the
    20 touched, goes with it."""
    ruling = twenty_by_combination_on_a_foul(rules)
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert ruling.twenties == ()
    assert reasons(ruling) == {"shot": "foul", "a1": "foul", "a2": "foul"}
    assert [d.id for d in ruling.discs] == ["b1"]


def test_a_foul_still_credits_nothing_to_a_disc_knocked_in_on_a_valid_shot():
    """Family rule 7 and scoring 2: a 20 knocked in by an opponent counts for its owner; only the
    fouler's 20s are voided, and only on a foul."""
    a1 = Disc("a1", 0, 0.0, 0.03)
    ruling = judge(
        board(a1),
        [shot(0.0, 0.01, side=1), moved(a1, 0.0, 0.0, status=EndStatus.HOLE)],
        [Contact(0.4, "shot", "a1")],
        "family",
    )
    assert ruling.valid
    assert [(t.id, t.side) for t in ruling.twenties] == [("a1", 0)]


# 2. NCA 8f: the damage a returning disc does stays, even on a foul.


def foul_then_damage(rules: str) -> Ruling:
    """The shot misses b1 and a1, flies off the board, bounces back off the rail and strikes b1
    on to the 5 region and b1 strikes b2."""
    b1, b2 = Disc("b1", 1, 0.1, IN_10), Disc("b2", 1, -0.2, 0.1)
    return judge(
        board(b1, b2),
        [
            shot(0.05, 0.05, left_surface_at=0.9, returned_at=1.0, touched_line=True),
            moved(b1, 0.15, 0.18),
            moved(b2, -0.22, 0.12),
        ],
        [Contact(1.3, "shot", "b1"), Contact(1.6, "b1", "b2")],
        rules,
    )


@pytest.mark.parametrize("rules", ["nca", "wcc"])
def test_discs_struck_by_a_returning_fouling_disc_stay_where_they_end(rules):
    """NCA 8f, the damage stays rule: a disc that "strikes the backboard ... then re-enters the
    playing surface ... is out-of-play, but the altered position of any discs struck shall remain"
    (WCC damage rule: "Any discs on the playing surface that were moved by the re-entering disc
    will remain in their new position"). The shot missed every opposing disc while in play, so it
    is a foul (NCA 3a(i)); but the discs it struck after it had left the surface are no discs
    "struck" by the shot under NCA 3b: only the fouling disc goes."""
    ruling = foul_then_damage(rules)
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert reasons(ruling) == {"shot": "ditch"}
    assert [(d.id, d.x, d.y) for d in ruling.discs] == [("b1", 0.15, 0.18), ("b2", -0.22, 0.12)]


def test_family_puts_the_damage_of_a_returning_fouling_disc_back():
    """Family rule 8, kept as the family variant's own switch: "all disks disturbed after the
    ricochet are replaced to their original positions"."""
    assert get_rules("family").returning_damage is ReturningDamage.REPLACE
    ruling = foul_then_damage("family")
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert reasons(ruling) == {"shot": "ditch"}
    assert [(d.id, d.x, d.y) for d in ruling.discs] == [("b1", 0.1, IN_10), ("b2", -0.2, 0.1)]
    assert set(ruling.replaced) == {"b1", "b2"}


def test_discs_struck_in_play_before_the_fouling_disc_left_are_still_removed():
    """NCA 3b: on a foul "the shooting disc and all of the other discs that were struck" go; the
    damage stays rule spares only what the disc struck after it came back."""
    a1, b1 = Disc("a1", 0, 0.0, IN_10), Disc("b1", 1, 0.15, 0.12)
    ruling = judge(
        board(a1, b1),
        [
            shot(0.05, 0.05, left_surface_at=0.9, returned_at=1.0, touched_line=True),
            moved(a1, 0.0, 0.2),
            moved(b1, 0.2, 0.15),
        ],
        [Contact(0.4, "shot", "a1"), Contact(1.3, "shot", "b1")],
        "nca",
    )
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert reasons(ruling) == {"shot": "ditch", "a1": "foul"}
    assert [(d.id, d.x, d.y) for d in ruling.discs] == [("b1", 0.2, 0.15)]
