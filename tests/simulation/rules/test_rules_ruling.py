"""Rulings on constructed facts of a shot: one scenario per rule clause.

These need no physics: each scenario states what happened on the board (where discs ended, who
touched whom and when) and checks the ruling the rulebooks give.
"""

import pytest

from simulation.rules.facts import Contact, DiscFacts, EndStatus, ShotFacts
from simulation.rules.geometry import BoardGeometry
from simulation.rules.ruling import Ruling, judge_shot
from simulation.rules.state import BoardState, Disc
from simulation.rules.validity import Foul
from simulation.rules.variants import get_rules

G = BoardGeometry()
IN_15 = 0.05  # wholly inside the 15 region
IN_10 = 0.15
IN_5 = 0.25
BEYOND = G.shooting_line_radius  # centred on the shooting line


def state(*discs: Disc) -> BoardState:
    return BoardState(discs=tuple(discs), seats={0: 0, 2: 1})


def shot(x: float = 0.0, y: float = IN_10, side: int = 0, **kw) -> DiscFacts:
    return DiscFacts(id="shot", side=side, x=x, y=y, **kw)


def moved(disc: Disc, x: float, y: float, **kw) -> DiscFacts:
    return DiscFacts(id=disc.id, side=disc.side, x=x, y=y, **kw)


def judge(before: BoardState, discs: list[DiscFacts], contacts=(), rules: str = "nca") -> Ruling:
    facts = ShotFacts(shooter="shot", discs=tuple(discs), contacts=tuple(contacts))
    return judge_shot(before, facts, get_rules(rules), G)


def reasons(ruling: Ruling) -> dict[str, str]:
    return {r.id: str(r.reason) for r in ruling.removed}


def ids(ruling: Ruling) -> set[str]:
    return {d.id for d in ruling.discs}


def test_opening_shot_into_the_20_is_valid_and_credited():
    """NCA 3a(ii): with no opposing disc in play a 20 "is considered within the 15 line"; NCA
    2a(ii): the 20 is set aside for its owner."""
    ruling = judge(state(), [shot(0.0, 0.0, status=EndStatus.HOLE)])
    assert ruling.valid and ruling.foul is None
    assert [(t.id, t.side) for t in ruling.twenties] == [("shot", 0)]
    assert ruling.discs == () and ruling.removed == ()


def test_missing_every_opposing_disc_is_a_foul_removing_the_shooter_and_what_it_struck():
    """NCA 3a(i) and 3b: opposing discs in play, none struck: the shooting disc and the discs it
    struck are removed; the opposing disc stays."""
    a1, b1 = Disc("a1", 0, 0.0, IN_10), Disc("b1", 1, 0.1, -IN_5)
    ruling = judge(
        state(a1, b1),
        [shot(0.0, IN_15), moved(a1, 0.0, IN_15 + 0.04)],
        [Contact(0.3, "shot", "a1")],
    )
    assert not ruling.valid
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert reasons(ruling) == {"shot": "foul", "a1": "foul"}
    assert ids(ruling) == {"b1"}


def test_a_20_made_on_an_invalid_shot_does_not_count():
    """NCA 3b: "including any 20's made"; family scoring 2: "the center hole shot is removed to the
    ditch, receiving a 0"."""
    b1 = Disc("b1", 1, 0.1, -IN_5)
    ruling = judge(state(b1), [shot(0.0, 0.0, status=EndStatus.HOLE)])
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert ruling.twenties == ()
    assert reasons(ruling) == {"shot": "foul"}


def ricochet_into_opponent(rules: str) -> Ruling:
    """The shot disc misses, leaves the surface, flies back and strikes b1 and then a1."""
    a1, b1 = Disc("a1", 0, -0.1, IN_10), Disc("b1", 1, 0.1, IN_10)
    return judge(
        state(a1, b1),
        [
            shot(0.0, 0.12, left_surface_at=0.5, returned_at=0.55, touched_line=True),
            moved(b1, 0.12, 0.13),
            moved(a1, -0.12, 0.16),
        ],
        [Contact(0.7, "shot", "b1"), Contact(0.8, "shot", "a1")],
        rules,
    )


def test_a_disc_back_from_the_ditch_cannot_make_the_shot_valid():
    """NCA 8f / WCC damage rule: a disc that left the surface is out of play; the opposing disc it
    strikes on its way back does not satisfy NCA 3a(i)."""
    ruling = ricochet_into_opponent("nca")
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert reasons(ruling)["shot"] == "ditch"


@pytest.mark.parametrize("rules", ["nca", "wcc"])
def test_discs_a_ricochet_strikes_stay_where_they_end_even_on_a_foul(rules):
    """NCA 3b removes "the shooting disc and all of the other discs that were struck" (WCC: those
    "of the same colour"), but the discs struck only by a disc back from off the surface are the
    damage of NCA 8f: "the altered position of any discs struck shall remain" (WCC damage rule:
    they "will remain in their new position")."""
    ruling = ricochet_into_opponent(rules)
    assert reasons(ruling) == {"shot": "ditch"}
    assert [(d.id, d.x, d.y) for d in ruling.discs] == [("a1", -0.12, 0.16), ("b1", 0.12, 0.13)]


def test_family_removes_only_the_friendly_discs_the_shooter_touched():
    """Family rule 6: "the shooter's disk is removed from the board, along with all friendly disks
    it touched" — a disc knocked on by that disc stays; NCA 3b removes it too."""
    a1, a2, b1 = Disc("a1", 0, 0.0, -IN_10), Disc("a2", 0, 0.0, IN_15), Disc("b1", 1, 0.2, 0.0)
    facts = [shot(0.0, -0.1), moved(a1, 0.0, 0.03), moved(a2, 0.0, IN_10)]
    contacts = [Contact(0.2, "shot", "a1"), Contact(0.4, "a1", "a2")]
    assert reasons(judge(state(a1, a2, b1), facts, contacts, "family")) == {
        "shot": "foul",
        "a1": "foul",
    }
    assert reasons(judge(state(a1, a2, b1), facts, contacts, "nca")) == {
        "shot": "foul",
        "a1": "foul",
        "a2": "foul",
    }


def test_combination_shot_through_an_own_disc_is_valid():
    """NCA 3a(i): "by bumping one of his/her discs already in play into an opposing disc"."""
    a1, b1 = Disc("a1", 0, 0.0, -IN_10), Disc("b1", 1, 0.0, IN_10)
    ruling = judge(
        state(a1, b1),
        [shot(0.0, -0.12), moved(a1, 0.0, 0.12), moved(b1, 0.0, 0.29, status=EndStatus.DITCH)],
        [Contact(0.2, "shot", "a1"), Contact(0.5, "a1", "b1")],
    )
    assert ruling.valid
    assert reasons(ruling) == {"b1": "ditch"}
    assert ids(ruling) == {"a1", "shot"}
    assert ruling.touched == (("shot", "a1"), ("a1", "b1"))


def test_the_chain_must_run_forward_in_time():
    """NCA 3a(i): the own disc must be bumped into the opposing disc, so a contact between them
    before the shooter reached the own disc proves nothing."""
    a1, b1 = Disc("a1", 0, 0.0, -IN_10), Disc("b1", 1, 0.0, IN_10)
    ruling = judge(
        state(a1, b1),
        [shot(0.0, -0.12), moved(a1, 0.0, -0.1)],
        [Contact(0.1, "a1", "b1"), Contact(0.2, "shot", "a1")],
    )
    assert ruling.foul is Foul.NO_OPPONENT_HIT


def test_a_chain_does_not_pass_through_an_opposing_disc_to_make_a_hit():
    """The shot is valid the moment the chain strikes an opponent; a further opposing disc struck
    by that opponent changes nothing, and a hit via own discs in doubles counts (same colour)."""
    a1, b1 = Disc("a1", 0, 0.0, -IN_10), Disc("b1", 1, 0.0, IN_10)
    seats = {0: 0, 1: 1, 2: 0, 3: 1}
    before = BoardState(discs=(a1, b1), seats=seats)
    facts = ShotFacts(
        shooter="shot",
        discs=(shot(0.0, -0.12), moved(a1, 0.0, 0.1)),
        contacts=(Contact(0.2, "shot", "a1"), Contact(0.4, "a1", "b1")),
    )
    assert judge_shot(before, facts, get_rules("nca"), G).valid


def test_no_hiding_rule_fails_when_nothing_reaches_the_15():
    """NCA 3a(ii): with no opposing disc in play, the shooting disc or a disc it struck must end
    touching or within the 15 line; NCA 3b removes both."""
    a1 = Disc("a1", 0, 0.0, -IN_10)
    ruling = judge(
        state(a1),
        [shot(0.0, -0.19), moved(a1, 0.0, 0.17)],
        [Contact(0.2, "shot", "a1")],
    )
    assert ruling.foul is Foul.NOT_TO_THE_15
    assert reasons(ruling) == {"shot": "foul", "a1": "foul"}


def test_no_hiding_rule_passes_when_the_shot_disc_touches_the_15_line():
    """NCA 3a(ii): "touching or within the 15 line" — touching is enough."""
    touching = G.line_15_10_radius + G.half_line + G.disc_radius - 1e-4
    ruling = judge(state(), [shot(0.0, touching)])
    assert ruling.valid
    assert ids(ruling) == {"shot"}


def test_no_hiding_rule_passes_when_a_struck_disc_ends_in_the_15():
    """NCA 3a(ii): "or at least one disc struck during the shot" — the bump and run."""
    a1 = Disc("a1", 0, 0.0, -IN_10)
    ruling = judge(
        state(a1),
        [shot(0.0, -0.19), moved(a1, 0.0, IN_15)],
        [Contact(0.2, "shot", "a1")],
    )
    assert ruling.valid


def test_no_hiding_rule_does_not_count_an_untouched_disc_in_the_15():
    """NCA 3a(ii): a disc already in the 15 that the shot never struck does not help."""
    a1 = Disc("a1", 0, 0.0, IN_15)
    ruling = judge(state(a1), [shot(0.2, -0.19)])
    assert ruling.foul is Foul.NOT_TO_THE_15
    assert ids(ruling) == {"a1"}


def test_a_disc_at_rest_touching_the_shooting_line_is_out():
    """NCA 8c: "If a disc touches or crosses the outer boundary line it is out-of-play"; WCC: "A
    disc that stops on the playing surface and is touching the outer line is deemed out of play"."""
    b1 = Disc("b1", 1, 0.0, IN_10)
    just_touching = G.shooting_line_radius - G.half_line - G.disc_radius + 1e-5
    ruling = judge(
        state(b1),
        [shot(0.0, -0.1), moved(b1, 0.0, just_touching, touched_line=True)],
        [Contact(0.2, "shot", "b1")],
    )
    assert ruling.valid
    assert reasons(ruling) == {"b1": "line"}


def test_a_disc_in_the_ditch_is_out():
    """NCA 8c/8d: an out-of-play disc goes in the ditch until the end of the round."""
    b1 = Disc("b1", 1, 0.0, IN_10)
    ruling = judge(
        state(b1),
        [shot(0.0, -0.1), moved(b1, 0.0, 0.34, status=EndStatus.DITCH, left_surface_at=0.6)],
        [Contact(0.2, "shot", "b1")],
    )
    assert reasons(ruling) == {"b1": "ditch"}


@pytest.mark.parametrize("rules", ["nca", "wcc", "family"])
def test_spinning_disc_that_comes_back_on_its_own_stays_in_play(rules):
    """NCA 8e: it touched the line, struck nothing out there and returned under its own momentum."""
    b1 = Disc("b1", 1, 0.0, IN_10)
    ruling = judge(
        state(b1),
        [shot(0.0, -0.1), moved(b1, 0.0, 0.27, touched_line=True)],
        [Contact(0.2, "shot", "b1")],
        rules,
    )
    assert "b1" in ids(ruling)


def test_spinning_disc_that_struck_something_out_there_is_out():
    """NCA 8e needs that it "does not strike anything other than the playing surface while touching
    or across the outer boundary line" (WCC: "returns under its own momentum"); the family rulebook
    removes only a disc that comes to rest touching the line or leaves the surface."""
    b1 = Disc("b1", 1, 0.0, IN_10)
    facts = [shot(0.0, -0.1), moved(b1, 0.0, 0.27, touched_line=True, struck_beyond_line=True)]
    contacts = [Contact(0.2, "shot", "b1")]
    assert reasons(judge(state(b1), facts, contacts, "nca")) == {"b1": "line"}
    assert reasons(judge(state(b1), facts, contacts, "wcc")) == {"b1": "line"}
    assert "b1" in ids(judge(state(b1), facts, contacts, "family"))


def damage_by_returning_disc(rules: str) -> Ruling:
    """The shot hits b1 (valid), flies off the board, bounces back off the rail, and knocks a1 into
    the 20 and a2 on towards the 10."""
    a1, a2, b1 = Disc("a1", 0, 0.0, IN_15), Disc("a2", 0, 0.12, 0.1), Disc("b1", 1, 0.2, 0.2)
    return judge(
        state(a1, a2, b1),
        [
            shot(-0.05, 0.05, left_surface_at=0.9, returned_at=1.0, touched_line=True),
            moved(b1, 0.3, 0.3, status=EndStatus.DITCH, left_surface_at=0.8),
            moved(a1, 0.0, 0.0, status=EndStatus.HOLE),
            moved(a2, 0.14, 0.12),
        ],
        [Contact(0.3, "shot", "b1"), Contact(1.3, "shot", "a1"), Contact(1.5, "a1", "a2")],
        rules,
    )


def test_damage_stays_and_its_20_counts():
    """NCA 8f: the returning disc is out of play, "but the altered position of any discs struck
    shall remain and any 20's made shall count"."""
    ruling = damage_by_returning_disc("nca")
    assert ruling.valid
    assert reasons(ruling) == {"shot": "ditch", "b1": "ditch"}
    assert [(t.id, t.side) for t in ruling.twenties] == [("a1", 0)]
    assert [(d.id, d.x, d.y) for d in ruling.discs] == [("a2", 0.14, 0.12)]
    assert ruling.replaced == ()


def test_family_puts_back_what_a_returning_disc_disturbed():
    """Family rule 8: "all disks disturbed after the ricochet are replaced to their original
    positions"."""
    ruling = damage_by_returning_disc("family")
    assert ruling.valid
    assert reasons(ruling) == {"shot": "ditch", "b1": "ditch"}
    assert ruling.twenties == ()
    assert [(d.id, d.x, d.y) for d in ruling.discs] == [("a1", 0.0, IN_15), ("a2", 0.12, 0.1)]
    assert set(ruling.replaced) == {"a1", "a2"}


def test_a_returning_disc_that_drops_into_the_20_does_not_score():
    """NCA 8f: 20s made by the damage count "(except for an out-of-play disc)"."""
    b1 = Disc("b1", 1, 0.0, IN_10)
    ruling = judge(
        state(b1),
        [
            shot(0.0, 0.0, status=EndStatus.HOLE, left_surface_at=0.7, returned_at=0.8),
            moved(b1, 0.0, 0.2),
        ],
        [Contact(0.2, "shot", "b1")],
    )
    assert ruling.valid
    assert ruling.twenties == ()
    assert reasons(ruling) == {"shot": "ditch"}


def test_a_20_knocked_in_by_the_opponent_is_credited_to_its_owner():
    """NCA 2a(ii); family rule 7: a disc that settles in the 20 hole counts for its owner, "even if
    the owner is the shooter's opponent"."""
    a1 = Disc("a1", 0, 0.0, 0.03)
    ruling = judge(
        state(a1),
        [shot(0.0, 0.01, side=1), moved(a1, 0.0, 0.0, status=EndStatus.HOLE)],
        [Contact(0.4, "shot", "a1")],
    )
    assert ruling.valid
    assert [(t.id, t.side) for t in ruling.twenties] == [("a1", 0)]


def test_a_leaner_stays_in_play_and_scores_15():
    """NCA 6c: only a disc lying flat in the hole is a 20; a leaner stays in play (counts 15)."""
    ruling = judge(state(), [shot(0.003, 0.0, status=EndStatus.LEANER)])
    assert ruling.valid  # in the hole: within the 15 line
    assert ruling.twenties == ()
    assert ruling.discs == (Disc("shot", 0, 0.003, 0.0, leaner=True),)
    after = ruling.state_after(state())
    assert after.discs[0].leaner


def test_a_leaner_is_an_opposing_disc_in_play():
    """NCA 3a(i): an opposing leaner is in play, so it must be struck."""
    b1 = Disc("b1", 1, 0.003, 0.0, leaner=True)
    ruling = judge(state(b1), [shot(0.0, 0.05)])
    assert ruling.foul is Foul.NO_OPPONENT_HIT
    assert ids(ruling) == {"b1"}


def test_facts_must_be_consistent():
    with pytest.raises(ValueError, match="time order"):
        ShotFacts(
            shooter="shot",
            discs=(shot(), DiscFacts("a1", 0, 0.0, 0.1)),
            contacts=(Contact(0.5, "shot", "a1"), Contact(0.1, "shot", "a1")),
        )
    with pytest.raises(ValueError, match="already on the board"):
        judge(state(Disc("shot", 0, 0.0, 0.1)), [shot()])
