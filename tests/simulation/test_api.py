"""``simulate_shot`` and ``run_round`` with the real physics: one scenario per rule clause.

Each scenario is a board, a shot and the ruling the rulebooks give. Where a scenario needs a
particular physical outcome (a disc stopping on the line, a leaner), the test finds the shot speed
that produces it, so the scenarios do not depend on the exact calibration of the physics.
"""

import json
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from simulation.api import run_round, simulate_shot
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry

ROOT = Path(__file__).resolve().parents[2]
G = DEFAULT_GEOMETRY
TOUCH = G.shooting_line_radius - G.half_line - G.disc_radius


def straight(seat: int = 0, speed: float = 1.0, **extra) -> dict:
    return {"seat": seat, "position": 0.0, "angle": 0.0, "speed": speed, **extra}


def disc(disc_id: str, side: int, x: float, y: float) -> dict:
    return {"id": disc_id, "side": side, "x": x, "y": y}


def board(*discs: dict, seats: dict | None = None) -> dict:
    return {"discs": list(discs), "seats": seats or {"0": 0, "2": 1}}


def removed(outcome: dict) -> dict[str, str]:
    return {r["id"]: r["reason"] for r in outcome["removed"]}


def in_play(outcome: dict) -> dict[str, dict]:
    return {d["id"]: d for d in outcome["discs"]}


def find_speed(
    predicate: Callable[[float], bool], low: float, high: float, steps: int = 200
) -> float:
    """The first speed on a fine grid over [low, high] for which ``predicate`` holds."""
    for k in range(steps + 1):
        speed = low + (high - low) * k / steps
        if predicate(speed):
            return speed
    raise AssertionError(f"no speed in [{low}, {high}] gives the wanted outcome")


def test_the_rules_measure_the_board_the_physics_simulates():
    from simulation.physics import DEFAULT_PARAMS as P

    assert (
        BoardGeometry(
            surface_radius=P.surface_radius,
            shooting_line_radius=P.shooting_line_radius,
            line_10_5_radius=P.ten_five_radius,
            line_15_10_radius=P.peg_circle_radius,
            hole_radius=P.hole_radius,
            disc_radius=P.disc_radius,
            line_width=P.line_width,
            peg_radius=P.peg_radius,
        )
        == DEFAULT_GEOMETRY
    )


def test_a_shot_without_events_is_ruled_on_alike():
    """``events=False`` gives the same ruling and board, without the event record."""
    state = {"discs": [{"id": "b1", "side": 1, "x": 0.03, "y": 0.12}], "seats": {"0": 0, "2": 1}}
    shot = {"seat": 0, "position": 2.0, "angle": -1.0, "speed": 1.6, "id": "a1"}
    full = simulate_shot(state, shot)
    lean = simulate_shot(state, shot, events=False)
    assert len(full["events"]) > 2  # the release, and what the shot did
    assert "events" not in lean
    assert lean == {k: v for k, v in full.items() if k != "events"}


def test_opening_shot_into_the_20_is_valid_and_credited():
    """NCA 3a(ii): a 20 "is considered within the 15 line"; NCA 2a(ii): it is set aside for its
    owner. A disc stopping dead centre drops in."""
    speed = math.sqrt(2 * 0.15 * 9.81 * G.shooting_line_radius)
    outcome = simulate_shot(board(), straight(speed=speed, id="a1"))
    assert outcome["valid"] and outcome["foul"] is None
    assert outcome["twenties"] == [{"id": "a1", "side": 0}]
    assert outcome["discs"] == [] and outcome["removed"] == []


def test_missing_the_opponent_is_a_foul_that_removes_the_shooting_disc():
    """NCA 3a(i), 3b: an opposing disc is in play and the shot strikes nothing."""
    b1 = disc("b1", 1, 0.15, 0.1)
    outcome = simulate_shot(board(b1), straight(speed=0.6))
    assert not outcome["valid"]
    assert outcome["foul"] == "no-opponent-hit"
    assert removed(outcome) == {"shot": "foul"}
    assert outcome["discs"] == [b1]
    assert outcome["touched"] == []


RICOCHET_SHOT = {"seat": 0, "position": 12.0, "angle": 0.0, "speed": 3.4}
"""Flies off the far side, bounces off the rail and comes back across the board."""

RICOCHET_TARGET = disc("b1", 1, 0.0084, 0.1158)
"""An opposing disc on the way back, clear of the way out."""


@pytest.mark.parametrize("rules", ["nca", "wcc", "family"])
def test_a_disc_back_from_the_rail_cannot_make_the_shot_valid(rules):
    """NCA 8f / WCC damage rule: a disc that left the surface is out of play, so the opposing disc
    it strikes on the way back does not make the shot valid (NCA 3a(i))."""
    outcome = simulate_shot(board(RICOCHET_TARGET), RICOCHET_SHOT, rules)
    kinds = [e["kind"] for e in outcome["events"]]
    assert kinds.index("rail") < kinds.index("return") < kinds.index("disc-disc")
    assert outcome["touched"] == [["shot", "b1"]]
    assert outcome["foul"] == "no-opponent-hit"
    assert removed(outcome)["shot"] == "ditch"


@pytest.mark.parametrize("rules", ["nca", "wcc"])
def test_the_damage_of_a_returning_fouling_disc_stays(rules):
    """NCA 3b removes "the shooting disc and all of the other discs that were struck" (WCC: "of the
    same colour"), but a disc struck only by a disc back from the rail is the damage of NCA 8f:
    "the altered position of any discs struck shall remain" (WCC: "will remain in their new
    position"). The opposing disc stays where it was knocked."""
    outcome = simulate_shot(board(RICOCHET_TARGET), RICOCHET_SHOT, rules)
    assert removed(outcome) == {"shot": "ditch"}
    moved = in_play(outcome)["b1"]
    assert math.hypot(moved["x"] - 0.0084, moved["y"] - 0.1158) > 0.02


def test_the_family_rules_put_back_what_a_returning_disc_disturbed():
    """Family rule 8: "all disks disturbed after the ricochet are replaced to their original
    positions"."""
    family = simulate_shot(board(RICOCHET_TARGET), RICOCHET_SHOT, "family")
    assert removed(family) == {"shot": "ditch"}
    assert family["discs"] == [RICOCHET_TARGET]


def test_combination_shot_through_an_own_disc_is_valid():
    """NCA 3a(i): "by bumping one of his/her discs already in play into an opposing disc"."""
    outcome = simulate_shot(
        board(disc("a1", 0, 0.0, -0.15), disc("b1", 1, 0.0, 0.1)), straight(speed=1.5)
    )
    assert outcome["touched"] == [["shot", "a1"], ["a1", "b1"]]
    assert outcome["valid"]
    assert {"a1", "shot"} <= set(in_play(outcome))


def test_no_hiding_rule_fails_short_of_the_15():
    """NCA 3a(ii): with no opposing disc in play the shot must reach the 15 line."""
    outcome = simulate_shot(board(), straight(speed=0.6))
    assert outcome["foul"] == "not-to-the-15"
    assert removed(outcome) == {"shot": "foul"}


def test_no_hiding_rule_passes_touching_the_15_line():
    """NCA 3a(ii): "touching or within the 15 line"; this disc stops 9 cm from the centre."""
    outcome = simulate_shot(board(), straight(speed=0.795))
    assert outcome["valid"]
    (shot,) = outcome["discs"]
    assert math.hypot(shot["x"], shot["y"]) - G.disc_radius < G.line_15_10_radius


def test_a_disc_coming_to_rest_touching_the_shooting_line_is_removed():
    """NCA 8c; WCC: "A disc that stops on the playing surface and is touching the outer line is
    deemed out of play". Singles from the west and east seats: west drives b1 along y = -0.2."""
    b1 = disc("b1", 1, 0.0, -0.2)
    state = board(b1, seats={"1": 0, "3": 1})
    shot = {"seat": 1, "position": math.degrees(math.asin(0.2 / G.shooting_line_radius))}

    def outcome_at(speed: float) -> dict:
        return simulate_shot(state, {**shot, "angle": 0.0, "speed": speed})

    def b1_stops_on_the_line(speed: float) -> bool:
        where = [d for e in outcome_at(speed)["events"] for d in e["discs"] if d["id"] == "b1"]
        return bool(where) and TOUCH + 0.002 <= math.hypot(where[-1]["x"], where[-1]["y"]) < (
            G.shooting_line_radius
        )

    outcome = outcome_at(find_speed(b1_stops_on_the_line, 1.0, 2.0))
    assert outcome["valid"]
    assert removed(outcome) == {"b1": "line"}
    assert set(in_play(outcome)) == {"shot"}


def test_a_disc_knocked_into_the_ditch_is_removed():
    """NCA 8c/8d; WCC: a disc that leaves the playing surface is out of bounds."""
    outcome = simulate_shot(board(disc("b1", 1, 0.0, 0.05)), straight(speed=1.6))
    assert outcome["valid"]
    assert removed(outcome) == {"b1": "ditch"}
    assert [e["kind"] for e in outcome["events"]][-1] == "ditch"


DAMAGE_BOARD = board(disc("b1", 1, 0.0634, -0.1), disc("a1", 0, 0.0062, 0.1061))
DAMAGE_SHOT = {"seat": 0, "position": 12.0, "angle": 0.0, "speed": 3.6}
"""The shot drives b1 off the far side; b1 bounces back off the rail and runs into a1."""


def test_damage_stays_under_nca():
    """NCA 8f: the returning disc is out of play, "but the altered position of any discs struck
    shall remain and any 20's made shall count"."""
    outcome = simulate_shot(DAMAGE_BOARD, DAMAGE_SHOT, "nca")
    assert outcome["valid"]
    assert outcome["touched"] == [["shot", "b1"], ["b1", "a1"]]
    assert removed(outcome)["b1"] == "ditch"
    a1 = in_play(outcome).get("a1")
    assert a1 is None or (a1["x"], a1["y"]) != (0.0062, 0.1061)
    credited = [t["id"] for t in outcome["twenties"]]
    assert a1 is not None or "a1" in credited or removed(outcome).get("a1") in ("ditch", "line")


def test_family_replaces_what_a_returning_disc_disturbed():
    """Family rule 8: "all disks disturbed after the ricochet are replaced to their original
    positions"."""
    outcome = simulate_shot(DAMAGE_BOARD, DAMAGE_SHOT, "family")
    assert outcome["valid"]
    assert removed(outcome)["b1"] == "ditch"
    assert in_play(outcome)["a1"] == disc("a1", 0, 0.0062, 0.1061)
    assert outcome["twenties"] == []


def test_a_20_knocked_in_by_the_opponent_is_credited_to_its_owner():
    """NCA 2a(ii); family rule 7: "even if the owner is the shooter's opponent"."""
    outcome = simulate_shot(board(disc("a1", 0, 0.0, 0.03)), straight(seat=2, speed=1.0, id="b1"))
    assert outcome["valid"]
    assert outcome["twenties"] == [{"id": "a1", "side": 0}]
    assert set(in_play(outcome)) == {"b1"}


def test_a_leaner_stays_in_play_and_scores_15():
    """NCA 6c: a disc not lying flat in the hole is no 20; it stays in play and counts 15."""

    def leans(speed: float) -> bool:
        found = simulate_shot(board(), straight(speed=speed))["discs"]
        return bool(found) and found[0].get("leaner", False)

    speed = find_speed(leans, 1.0, 2.0, steps=400)
    outcome = simulate_shot(board(), straight(speed=speed, id="a1"))
    assert outcome["valid"] and outcome["twenties"] == []
    (leaner,) = outcome["discs"]
    assert leaner["leaner"] is True
    assert math.hypot(leaner["x"], leaner["y"]) < G.hole_radius
    after = simulate_shot({"discs": outcome["discs"]}, straight(seat=2, speed=0.4))
    assert after["foul"] == "no-opponent-hit"  # the leaner is an opposing disc in play
    assert in_play(after)["a1"] == leaner
    shots = [straight(speed=speed), straight(seat=2, speed=0.6)]
    result = run_round(shots, discs_per_player=1)
    assert result["score"] == [15, 0]
    assert result["points"] == [2, 0]
    assert result["state"]["discs"][0]["leaner"] is True


@pytest.mark.parametrize(
    ("shot", "message"),
    [
        (
            {**straight(), "position": 50.0},
            r"off seat 0's \(south\) quadrant.*-48\.17\d and 48\.17",
        ),
        ({**straight(), "radius": 0.25}, "does not keep the disc touching the shooting line"),
        ({**straight(), "speed": -1.0}, "speed must be 0 m/s or more"),
        ({**straight(), "seat": 7}, "unknown seat 7"),
        ({**straight(), "seat": 1}, r"seat 1 is not in play: the occupied seats are \[0, 2\]"),
        ({"seat": 0, "position": 0.0, "angle": 0.0}, r"missing \['speed'\]"),
        ({**straight(), "spin": 3.0}, "unknown keys"),
        ({**straight(), "id": "b1"}, "already on the board"),
    ],
)
def test_illegal_shots_are_refused_with_what_is_wrong(shot, message):
    """NCA 7d: a shot starts touching the shooting line inside the shooter's quadrant."""
    with pytest.raises(ValueError, match=message):
        simulate_shot(board(disc("b1", 1, 0.0, 0.1)), shot)


def test_family_rules_refuse_a_shot_more_than_halfway_over_the_quadrant_line():
    """Family rule 2: "no more than halfway over" — NCA 7d allows it while the disc touches."""
    shot = {**straight(speed=0.5), "position": 47.0}
    simulate_shot(board(), shot, "nca")
    with pytest.raises(ValueError, match="halfway over"):
        simulate_shot(board(), shot, "family")


def test_unknown_rules_and_bad_seeds_are_refused():
    with pytest.raises(ValueError, match="known rule sets are 'nca', 'wcc', 'family'"):
        simulate_shot(board(), straight(), "pub")
    with pytest.raises(ValueError, match="seed"):
        simulate_shot(board(), straight(), seed="x")


def test_the_same_input_gives_the_same_outcome_and_it_is_plain_json():
    state = board(disc("a1", 0, -0.05, -0.12), disc("b1", 1, 0.03, 0.08))
    shot = {"seat": 0, "position": -6.0, "angle": 2.5, "speed": 2.2, "id": "a2"}
    first = simulate_shot(state, shot, seed=7)
    second = simulate_shot(json.loads(json.dumps(state)), dict(shot), seed=7)
    assert first == second
    assert json.loads(json.dumps(first, allow_nan=False)) == first
    assert set(first) == {"valid", "foul", "discs", "twenties", "removed", "events", "touched"}


def test_events_replay_the_shot_exactly():
    """Every event carries the positions and velocities after it: moving each disc on from one
    event in closed form lands it where the next event says it is."""
    from simulation.physics import DEFAULT_PARAMS, advance

    outcome = simulate_shot(
        board(disc("a1", 0, -0.05, -0.12), disc("b1", 1, 0.03, 0.08)),
        {"seat": 0, "position": -6.0, "angle": 2.5, "speed": 2.2},
    )
    events = outcome["events"]
    assert events[0]["kind"] == "release" and events[0]["t"] == 0.0
    assert events[0]["deceleration"] == pytest.approx(DEFAULT_PARAMS.decel)
    known: dict[str, dict] = {}
    compared = 0
    for event in events:
        for state in event["discs"]:
            before = known.get(state["id"])
            if before is not None and before["status"] == state["status"] == "surface":
                (p,), _, _ = advance(
                    [[before["x"], before["y"]]],
                    [[before["vx"], before["vy"]]],
                    [0.0],
                    [0],
                    event["t"] - before["t"],
                )
                assert p[0] == pytest.approx(state["x"], abs=1e-9)
                assert p[1] == pytest.approx(state["y"], abs=1e-9)
                compared += 1
            known[state["id"]] = {**state, "t": event["t"]}
    assert compared >= 3


def test_run_round_checks_the_turn_order():
    """NCA 2a(i), 4a: singles players alternate, clockwise from the first shooter."""
    with pytest.raises(ValueError, match="shot 2: it is seat 2's turn, not seat 0's"):
        run_round([straight(speed=0.8), straight(speed=0.8)])


def test_run_round_checks_the_discs_left():
    """NCA 4a / category setting: each player shoots their discs once."""
    shots = [straight(speed=0.8), straight(seat=2, speed=0.8)] * 2
    with pytest.raises(ValueError, match="shot 3: seat 0 has no discs left"):
        run_round(shots, discs_per_player=1)


def test_run_round_scores_a_round():
    """NCA 2a(ii)-(iv): 20s set aside, the board counted with them, 2-1-0 points."""
    to_20 = math.sqrt(2 * 0.15 * 9.81 * G.shooting_line_radius)
    shots = [
        straight(speed=to_20),  # a1: a 20 on the open board
        straight(seat=2, speed=0.795),  # b1: no opposing disc in play, reaches the 15 line
        {"seat": 0, "position": 25.0, "angle": 0.0, "speed": 0.5},  # a2: misses b1, a foul
        {"seat": 2, "position": -30.0, "angle": 0.0, "speed": 0.5},  # b2: short of the 15
    ]
    result = run_round(shots, discs_per_player=2)
    assert result["first"] == 0 and result["hammer"] == 2 and result["complete"]
    assert [s["shot"]["id"] for s in result["shots"]] == ["a1", "b1", "a2", "b2"]
    assert result["twenties"] == [1, 0]
    assert result["set_aside"] == [{"id": "a1", "side": 0}]
    assert [s["outcome"]["foul"] for s in result["shots"]] == [
        None,
        None,
        "no-opponent-hit",
        "not-to-the-15",  # a1 went to the 20 and a2 was removed: no opposing disc in play
    ]
    assert result["score"] == [20, 10]
    assert result["points"] == [2, 0]
    assert [d["id"] for d in result["state"]["discs"]] == ["b1"]


def test_run_round_in_doubles_goes_clockwise_from_the_first_seat():
    """NCA 5a/5b: doubles, 6 discs each by default, clockwise from the first shooter."""
    seats = {"0": 0, "1": 1, "2": 0, "3": 1}
    shots = [
        straight(seat=3, speed=0.795),
        straight(seat=0, speed=0.4),
    ]
    result = run_round(shots, seats=seats, first_seat=3)
    assert result["discs_per_player"] == 6
    assert result["hammer"] == 2
    assert not result["complete"]
    assert [s["shot"]["id"] for s in result["shots"]] == ["b1", "a1"]
    with pytest.raises(ValueError, match="shot 1: it is seat 3's turn, not seat 0's"):
        run_round([straight(seat=0, speed=0.5)], seats=seats, first_seat=3)


def test_a_round_with_no_shot_is_0_0():
    """WCC: "For any round where no discs are shot before time expires, both teams will record a
    zero for that round"."""
    result = run_round([])
    assert result["points"] == [0, 0] and result["score"] == [0, 0]


def test_importing_the_package_loads_neither_django_nor_the_physics():
    code = (
        "import sys, simulation; from simulation import api; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'numba') "
        "or m.startswith('simulation.physics')]; print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_play_shot_rules_as_simulate_shot_and_leaves_the_board_its_outcome_names() -> None:
    """A game holds its board parsed between shots (``play_shot``): the outcome is the one
    ``simulate_shot`` gives on the same board's JSON, and the next board is the outcome's discs."""
    from simulation.api import play_shot
    from simulation.rules.state import parse_state
    from simulation.rules.variants import get_rules

    state = board(
        disc("b1", 1, 0.0, 0.09),
        disc("a1", 0, 0.05, -0.12),
        {"id": "a2", "side": 0, "x": 0.0, "y": 0.0, "leaner": True},
    )
    shot = straight(speed=1.3, id="a3")
    for rules in ("nca", "family"):
        outcome, after = play_shot(parse_state(state), shot, get_rules(rules), events=False)
        assert outcome == simulate_shot(state, shot, rules=rules, events=False)
        assert after == parse_state({"discs": outcome["discs"], "seats": state["seats"]})
        assert outcome["removed"] or outcome["twenties"] or len(after.discs) == 4
