"""Scenarios for rules that complete the simulation, one clause each.

The foul and damage scenarios are constructed facts of a shot (no physics); the seating, disc
count and timing scenarios use the rules' own bookkeeping; only a few tests shoot real shots, and
those few, so the file stays quick.
"""

from __future__ import annotations

import pytest

from scoring.engine import three_player_points
from simulation.api import run_round
from simulation.game import play_game
from simulation.rules.facts import Contact, DiscFacts, EndStatus, ShotFacts
from simulation.rules.geometry import BoardGeometry
from simulation.rules.round import RoundKeeper
from simulation.rules.ruling import Ruling, judge_shot
from simulation.rules.seats import (
    DOUBLES,
    SINGLES,
    THREE_ALONE,
    TWO_V_ONE,
    check_seating,
    default_discs_per_player,
    hammer_seat,
    round_first_seat,
    round_first_turn,
    seating_kind,
    turn_cycle,
    turn_order,
)
from simulation.rules.state import BoardState, Disc
from simulation.rules.tally import board_scores, round_points
from simulation.rules.timing import GameClock, equalising_shot_due
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


# 3. The family two-player game deals 12 discs each.


def test_family_two_player_game_is_12_discs_each():
    """Family rulebook, Two-Player Game: "Each player receives 12 disks"; Four-Player Game: "each
    partner receiving 6 disks". NCA 4a keeps 8 in singles, NCA 5a 6 in doubles."""
    family, nca = get_rules("family"), get_rules("nca")
    assert default_discs_per_player(SINGLES, family) == 12
    assert default_discs_per_player(DOUBLES, family) == 6
    assert default_discs_per_player(SINGLES, nca) == 8
    assert default_discs_per_player(SINGLES) == 8
    assert len(RoundKeeper.start(SINGLES, rules=family).order) == 24
    assert run_round([], rules="family")["discs_per_player"] == 12
    assert run_round([], rules="nca")["discs_per_player"] == 8
    assert run_round([], rules="family", discs_per_player=8)["discs_per_player"] == 8


# 4. The three-player games.


def test_two_versus_one_alternates_the_sides_and_the_lone_player_shoots_12():
    """Family rulebook, Three-Player Game, Option One: "Two players divide one set of disks, 6
    each, and play as partners on opposite quadrants. The third player receives 12 disks, shooting
    one disk every other turn, always shooting from a single quadrant." The start moves one turn
    clockwise each round (Four-Player Game: "'First Player' rotates clockwise")."""
    assert seating_kind(TWO_V_ONE) == "two-v-one"
    assert turn_cycle(TWO_V_ONE) == (0, 1, 2, 1)
    order = turn_order(TWO_V_ONE, 0, default_discs_per_player(TWO_V_ONE, get_rules("family")))
    assert [TWO_V_ONE[seat] for seat in order] == [0, 1] * 12
    assert order.count(1) == 12 and order.count(0) == 6 and order.count(2) == 6
    turns = [round_first_turn(TWO_V_ONE, 0, r) for r in range(4)]
    firsts = [turn_cycle(TWO_V_ONE)[t] for t in turns]
    assert firsts == [0, 1, 2, 1]
    assert [hammer_seat(TWO_V_ONE, f, t) for f, t in zip(firsts, turns, strict=True)] == [
        1,
        0,
        1,
        2,
    ]
    assert turn_order(TWO_V_ONE, 1, 1, first_turn=3) == [1, 0, 1, 2]
    with pytest.raises(ValueError, match="opposite quadrants"):
        check_seating({0: 0, 1: 0, 2: 1})


def test_three_alone_take_turns_clockwise_with_12_discs_each():
    """Option Two: "Using a third set of 12 disks purchased separately, each player plays alone";
    turns go clockwise (NCA 2a(i)) and the first player moves on each round."""
    assert seating_kind(THREE_ALONE) == "three-alone"
    discs = default_discs_per_player(THREE_ALONE, get_rules("family"))
    assert discs == 12
    order = turn_order(THREE_ALONE, 0, discs)
    assert order == [0, 1, 2] * 12
    assert [round_first_seat(THREE_ALONE, 0, r) for r in range(4)] == [0, 1, 2, 0]
    assert hammer_seat(THREE_ALONE, 1) == 0
    with pytest.raises(ValueError, match="sides are 0, 1 and 2"):
        check_seating({0: 0, 1: 1, 2: 3})


def test_no_disc_of_another_player_is_friendly_when_three_play_alone():
    """Option Two: "no opponent's disk is considered friendly": a shot that strikes only the third
    player's disc is valid (NCA 3a(i) needs an opposing disc struck, any of them)."""
    c1, b1 = Disc("c1", 2, 0.0, IN_10), Disc("b1", 1, 0.1, -IN_5)
    ruling = judge(
        board(c1, b1, seats=dict(THREE_ALONE)),
        [shot(0.0, 0.05), moved(c1, 0.0, 0.2)],
        [Contact(0.3, "shot", "c1")],
        "family",
    )
    assert ruling.valid


@pytest.mark.parametrize(
    ("score", "points"),
    [((60, 40, 20), (2, 1, 0)), ((50, 50, 20), (1, 1, 0)), ((60, 30, 30), (2, 0, 0))],
)
def test_three_alone_score_by_the_match_play_rule(score, points):
    """Option Two: "The player with the highest score gets 2 points, while the second highest gets
    1 point ... If two players tie for first, they each receive 1 point while the third player
    receives 0 points. Should the second highest score be a tie, both players receive 0 points." —
    the scoring engine's three-player points."""
    assert round_points(score, 36) == points == three_player_points(score)
    assert round_points((0, 0, 0), 0) == (0, 0, 0)


def test_board_scores_count_three_sides():
    """NCA 2a(iii): the board counted "along with the 20's", for each of the three players."""
    discs = [Disc("a1", 0, 0.0, IN_15), Disc("c1", 2, 0.0, IN_10)]
    assert board_scores(discs, (0, 1, 2)) == (15, 20, 50)


CHEAP = {"angle_sd": 1.0, "speed_sd": 0.04, "shots": 6, "repertoire": "basic"}


def test_play_game_three_players_alone():
    """Option Two, played: sides 0, 1, 2 at seats 0-2, scored by the engine's ``three-player``
    system (2-1-0 by rank, here to 2 points to keep the game short)."""
    game = play_game([CHEAP] * 3, rules="family", seed=5, discs_per_player=1, target=2)
    assert game["seats"] == {"0": 0, "1": 1, "2": 2}
    assert game["three_player"] == "alone" and game["scoring"] == "three-player"
    assert len(game["points"]) == 3 and max(game["points"]) >= 2
    for number, r in enumerate(game["rounds"]):
        assert [s["seat"] for s in r["shots"]] == turn_order(THREE_ALONE, r["first"], 1)
        assert r["first"] == number % 3
        assert tuple(r["points"]) == round_points(r["score"], len(r["shots"]))
    with pytest.raises(ValueError, match="played by 2 sides"):
        play_game([CHEAP] * 3, seed=5, discs_per_player=1, scoring="nca")


def test_play_game_two_versus_one():
    """Option One, played: the lone player at seat 1 shoots every other turn; "Score the same as a
    two- or four-player/partnership game" (2-1-0 per round, NCA 2a(iv))."""
    game = play_game([CHEAP] * 3, seed=6, rounds=2, discs_per_player=1, three_player="two-v-one")
    assert game["seats"] == {"0": 0, "1": 1, "2": 0}
    assert len(game["points"]) == 2
    seats = [[s["seat"] for s in r["shots"]] for r in game["rounds"]]
    assert seats == [[0, 1, 2, 1], [1, 2, 1, 0]]
    assert [r["hammer"] for r in game["rounds"]] == [1, 0]


# 5. Timed play.


def test_the_clock_sounds_the_buzzer_before_a_late_shot():
    """WCC: "If some discs have not been shot when the ending buzzer sounds they will remain non
    played"; a shot released after the limit is not taken."""
    clock = GameClock.of_minutes(0.5)
    assert [clock.release(10.0) for _ in range(4)] == [True, True, True, False]
    assert clock.expired and clock.elapsed == 30.0
    assert GameClock.of_minutes(None).release(1e9)
    assert equalising_shot_due([2, 1], 1) and not equalising_shot_due([2, 2], 0)
    assert equalising_shot_due([3, 2, 2], 2)
    with pytest.raises(ValueError, match="positive number of minutes"):
        GameClock.of_minutes(0)


def straight(seat: int) -> dict[str, float]:
    return {"seat": seat, "position": 0.0, "angle": 0.0, "speed": 0.5}


def test_a_timed_round_ends_with_the_equalising_shot():
    """NCA 8b: "If time runs out in a timed match, one additional shot will be allowed, if
    necessary, to equalize the number of shots"; WCC: "The round will be scored by the discs on
    the board at that time". Three shots fit in 30 s; the fourth is north's equalising shot."""
    shots = [straight(0), straight(2), straight(0), straight(2), straight(0)]
    result = run_round(shots, time_limit=0.5, shot_seconds=10.0)
    assert [r["seat"] for r in result["shots"]] == [0, 2, 0, 2]
    assert result["not_played"] == 1 and result["rounds_cut_short"] == 1
    assert result["time"] == {"limit_minutes": 0.5, "elapsed_seconds": 40.0, "expired": True}
    assert not result["complete"]


def test_a_round_without_a_shot_before_the_buzzer_is_0_0():
    """WCC Tournament Scoring Information: "For any round where no discs are shot before time
    expires, both teams will record a zero for that round." """
    result = run_round([straight(0), straight(2)], time_limit=0.1, shot_seconds=10.0)
    assert result["shots"] == [] and result["points"] == [0, 0]
    assert result["not_played"] == 2 and result["rounds_cut_short"] == 1


def test_a_timed_game_counts_the_rounds_the_buzzer_cut_short():
    """NCA 8b and the WCC timing rule over a game: the round in play is finished with the
    equalising shot, the rounds not begun record 0-0, and the record says how many rounds time cut
    short. Timing changes nothing before the buzzer."""
    kwargs = {"seed": 7, "rounds": 3, "discs_per_player": 2}
    timed = play_game([CHEAP, CHEAP], time_limit=1.0, shot_seconds=10.0, **kwargs)
    assert timed["time"]["expired"] and timed["time"]["limit_minutes"] == 1.0
    rounds = timed["rounds"]
    assert len(rounds) == 3
    assert timed["rounds_cut_short"] == sum(r["cut_short"] for r in rounds) >= 2
    cut = next(r for r in rounds if r["cut_short"])
    sides = [timed["seats"][str(s["seat"])] for s in cut["shots"]]
    assert sides.count(0) == sides.count(1)
    for r in rounds[rounds.index(cut) + 1 :]:
        assert r["shots"] == [] and r["points"] == [0, 0] and r["unshot"] == 4
    untimed = play_game([CHEAP, CHEAP], **kwargs)
    assert "time" not in untimed and "rounds_cut_short" not in untimed
    assert [s["shot"] for s in untimed["rounds"][0]["shots"]] == [
        s["shot"] for s in rounds[0]["shots"]
    ]
