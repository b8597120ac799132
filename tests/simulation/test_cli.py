"""``python -m simulation shot|round FILE|-``: JSON in and out; bad input: a message, exit 2."""

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

SHOT_INPUT = {
    "state": {"discs": [{"id": "b1", "side": 1, "x": 0.0, "y": 0.05}], "seats": {"0": 0, "2": 1}},
    "shot": {"seat": 0, "position": 0.0, "angle": 0.0, "speed": 1.6, "id": "a1"},
    "rules": "nca",
    "seed": None,
}


def run(argv: list[str], text: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_shot_from_standard_input():
    code, out, err = run(["shot", "-"], json.dumps(SHOT_INPUT))
    assert code == 0, err
    outcome = json.loads(out)
    assert outcome["valid"] is True
    assert outcome["removed"] == [{"id": "b1", "reason": "ditch"}]
    assert outcome["touched"] == [["a1", "b1"]]


def test_shot_from_a_file(tmp_path):
    path = tmp_path / "shot.json"
    path.write_text(json.dumps({"shot": {"seat": 0, "position": 0, "angle": 0, "speed": 0.6}}))
    code, out, _ = run(["shot", str(path), "--indent", "2"])
    assert code == 0
    assert json.loads(out)["foul"] == "not-to-the-15"
    assert out.startswith("{\n  ")


def test_round():
    data = {
        "shots": [
            {"seat": 0, "position": 0.0, "angle": 0.0, "speed": TO_THE_20},
            {"seat": 2, "position": 0.0, "angle": 0.0, "speed": 0.795},
        ],
        "discs_per_player": 1,
        "rules": "wcc",
    }
    code, out, err = run(["round", "-"], json.dumps(data))
    assert code == 0, err
    result = json.loads(out)
    assert result["rules"] == "wcc"
    assert result["twenties"] == [1, 0]
    assert result["score"] == [20, 10] and result["points"] == [2, 0]


@pytest.mark.parametrize(
    ("argv", "text", "message"),
    [
        (["shot", "-"], "{not json", "standard input is not valid JSON"),
        (["shot", "-"], "[]", "must be a JSON object"),
        (["shot", "-"], '{"shot": {}, "board": {}}', "unknown keys ['board']"),
        (["shot", "-"], '{"state": {}}', "missing ['shot']"),
        (
            ["shot", "-"],
            '{"shot": {"seat": 0, "position": 60, "angle": 0, "speed": 1}}',
            "off seat 0's (south) quadrant",
        ),
        (
            ["shot", "-"],
            '{"shot": {"seat": 0, "position": 0, "angle": 0, "speed": -1}}',
            "speed must be 0 m/s or more",
        ),
        (
            ["shot", "-"],
            '{"shot": {"seat": 0, "position": 0, "angle": 0, "speed": 1}, "rules": "house"}',
            "unknown rules 'house'",
        ),
        (
            ["round", "-"],
            '{"shots": [{"seat": 2, "position": 0, "angle": 0, "speed": 1}]}',
            "shot 1: it is seat 0's turn, not seat 2's",
        ),
        (["round", "no/such/file.json"], "", "cannot read no/such/file.json"),
    ],
)
def test_bad_input_gives_a_message_and_exit_2(argv, text, message):
    code, out, err = run(argv, text)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.startswith(f"python -m simulation {argv[0]}: error: ")


def test_unknown_subcommand_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", "-"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_python_dash_m_simulation():
    done = subprocess.run(
        [sys.executable, "-m", "simulation", "shot", "-"],
        input=json.dumps(SHOT_INPUT),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["valid"] is True
    bad = subprocess.run(
        [sys.executable, "-m", "simulation", "shot", "-"],
        input='{"shot": {"seat": 9, "position": 0, "angle": 0, "speed": 1}}',
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert "unknown seat 9" in bad.stderr
