"""``python -m simulation round|game``: the rules of play as options (the clock, the scoring
system and its target, two versus one), each checked with a clear message and exit 2."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from simulation.cli import main

ROOT = Path(__file__).resolve().parents[2]
TO_THE_20 = math.sqrt(2 * 0.15 * 9.81 * 0.3048)

GAME = {"players": ["best", "novice"], "seed": 1, "discs_per_player": 3, "rounds": 2}
THREE = {"players": ["best", "novice", "best"], "seed": 2, "discs_per_player": 2}
ROUND = {
    "shots": [
        {"seat": 0, "position": 0.0, "angle": 0.0, "speed": TO_THE_20},
        {"seat": 2, "position": 0.0, "angle": 0.0, "speed": 0.795},
    ],
    "discs_per_player": 1,
}


def run(argv: list[str], data: object) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(json.dumps(data)), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_a_game_with_a_clock_is_cut_by_the_buzzer():
    code, out, err = run(["game", "-", "--time-limit", "1"], GAME)
    assert code == 0, err
    record = json.loads(out)
    assert record["time"]["limit_minutes"] == 1.0 and record["time"]["expired"]
    code, out, _ = run(["game", "-"], GAME)
    assert "time" not in json.loads(out)


def test_the_option_stands_in_for_the_json_key():
    code, out, err = run(["game", "-", "--time-limit", "2.5"], {**GAME, "time_limit": 30})
    assert code == 0, err
    assert json.loads(out)["time"]["limit_minutes"] == 2.5


def test_a_game_by_another_scoring_system():
    code, out, err = run(["game", "-", "--scoring", "first-to-N", "--target", "3"], GAME)
    assert code == 0, err
    record = json.loads(out)
    assert max(record["points"]) >= 3 and record["points"][0] != record["points"][1]
    code, out, err = run(["game", "-", "--scoring", "difference-to-100"], GAME)
    assert code == 0, err
    points = json.loads(out)["points"]
    assert max(points) >= 100
    # A round's points in a game to 100 are the difference of the board scores.
    assert all(min(r["points"]) == 0 for r in json.loads(out)["rounds"])


def test_a_game_two_versus_one():
    code, out, err = run(["game", "-", "--two-v-one"], THREE)
    assert code == 0, err
    record = json.loads(out)
    assert record["three_player"] == "two-v-one"
    assert record["seats"] == {"0": 0, "1": 1, "2": 0} and len(record["points"]) == 2


def test_a_round_two_versus_one_with_the_systems_points():
    data = {
        "shots": [
            {"seat": 0, "position": 0.0, "angle": 0.0, "speed": TO_THE_20},
            {"seat": 1, "position": 0.0, "angle": 0.0, "speed": 0.795},
        ],
        "discs_per_player": 1,
    }
    code, out, err = run(["round", "-", "--two-v-one", "--scoring", "difference-to-100"], data)
    assert code == 0, err
    result = json.loads(out)
    assert result["seats"] == {"0": 0, "1": 1, "2": 0}
    assert result["scoring"] == "difference-to-100"
    diff = result["score"][0] - result["score"][1]
    assert result["points"] == [max(diff, 0), max(-diff, 0)]


def test_a_round_by_the_clock_left():
    timed = {**ROUND, "shot_seconds": 10}
    code, out, err = run(["round", "-", "--time-limit", "0.5"], timed)
    assert code == 0, err
    result = json.loads(out)
    assert result["time"]["limit_minutes"] == 0.5
    assert result["time"]["expired"] is False and result["complete"]
    # 6 seconds left: the buzzer sounds before the first shot, and the round records 0-0.
    code, out, err = run(["round", "-", "--time-limit", "0.1"], timed)
    assert code == 0, err
    result = json.loads(out)
    assert result["time"]["expired"] and result["points"] == [0, 0]
    assert result["not_played"] == 2


@pytest.mark.parametrize(
    ("argv", "data", "message"),
    [
        (["game", "-", "--time-limit", "0"], GAME, "positive number of minutes, not '0'"),
        (["game", "-", "--time-limit", "soon"], GAME, "positive number of minutes"),
        (["round", "-", "--time-limit", "-5"], ROUND, "positive number of minutes"),
        (["game", "-", "--scoring", "bowls"], GAME, "unknown scoring system 'bowls'"),
        (["game", "-", "--scoring", "first-to-N"], GAME, "first-to-N needs its target N"),
        (["game", "-", "--target", "5"], GAME, "an NCA game has rounds, not a target"),
        (["game", "-", "--scoring", "first-to-N", "--target", "0"], GAME, "at least 1"),
        (["game", "-", "--two-v-one"], GAME, "a game of three players"),
        (["game", "-", "--scoring", "three-player"], GAME, "played by 3 sides"),
        (["round", "-", "--scoring", "three-player"], ROUND, "played by 3 sides"),
        (
            ["round", "-", "--two-v-one"],
            {**ROUND, "seats": {"0": 0, "2": 1}},
            "--two-v-one seats the partners",
        ),
        (["game", "-"], {**GAME, "time_limit": "long"}, "time_limit must be a number"),
    ],
)
def test_bad_rules_of_play_exit_2_with_a_message(argv, data, message, capsys):
    try:
        code, out, err = run(argv, data)
    except SystemExit as exit_:  # argparse refuses an option's value before any input is read
        code, out, err = exit_.code, "", capsys.readouterr().err
    assert code == 2
    assert out == ""
    assert message in err


def test_the_command_line_itself():
    completed = subprocess.run(
        [sys.executable, "-m", "simulation", "game", "-", "--two-v-one", "--time-limit", "x"],
        input=json.dumps(THREE),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert completed.returncode == 2
    assert "--time-limit" in completed.stderr and "positive number of minutes" in completed.stderr
    completed = subprocess.run(
        [sys.executable, "-m", "simulation", "game", "-", "--two-v-one", "--time-limit", "3"],
        input=json.dumps(THREE),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    record = json.loads(completed.stdout)
    assert record["three_player"] == "two-v-one" and record["time"]["limit_minutes"] == 3
