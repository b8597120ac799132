"""`python -m scoring standings`: the public standings tool, run as a separate process."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

DESIGN_INPUT = """{
  "method": "preliminary",
  "games": [
    {"a": "ANNA", "b": "BEN",
     "rounds": [{"points": [2, 0], "twenties": [3, 1]},
                {"score": [45, 60], "twenties": [1, 2]}]},
    {"a": "CARL", "b": "DAN",
     "rounds": [{"points": [1, 1], "twenties": [2, 2]},
                {"points": [0, 0], "twenties": [0, 0]}]}
  ],
  "shootouts": []
}
"""

DESIGN_OUTPUT = """{"standings": [
   {"rank": 1, "entry": "ANNA", "games": 1, "points": 2, "twenties": 4, "tiebreak": "twenties"},
   {"rank": 2, "entry": "BEN",  "games": 1, "points": 2, "twenties": 3, "tiebreak": "twenties"},
   {"rank": 3, "entry": "CARL", "games": 1, "points": 1, "twenties": 2, "tiebreak": null},
   {"rank": 3, "entry": "DAN",  "games": 1, "points": 1, "twenties": 2, "tiebreak": null}
 ],
 "shootouts_required": [["CARL", "DAN"]]}
"""

ROW_KEYS = ["rank", "entry", "games", "points", "twenties", "tiebreak"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def standings(stdin: str) -> subprocess.CompletedProcess:
    return run("standings", "-", stdin=stdin)


def test_design_example_verbatim_from_stdin():
    """The design's example input gives exactly the design's example output."""
    done = standings(DESIGN_INPUT)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    output = json.loads(done.stdout)
    assert output == json.loads(DESIGN_OUTPUT)
    assert list(output) == ["standings", "shootouts_required"]
    assert all(list(row) == ROW_KEYS for row in output["standings"])


def test_design_example_with_the_shootout_from_a_file(tmp_path):
    """Design: with CARL 7 - DAN 5 in a shoot-out, CARL ranks 3 and DAN 4, both by shoot-out."""
    path = tmp_path / "stage.json"
    path.write_text(
        DESIGN_INPUT.replace(
            '"shootouts": []', '"shootouts": [{"twenties": {"CARL": 7, "DAN": 5}}]'
        )
    )
    done = run("standings", str(path))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    expected = json.loads(DESIGN_OUTPUT)
    expected["standings"][3]["rank"] = 4
    expected["standings"][2]["tiebreak"] = expected["standings"][3]["tiebreak"] = "shoot-out"
    expected["shootouts_required"] = []
    assert output == expected


def test_round_robin_method():
    """WCC round-robin Step 1: ANNA beat BEN, so head-to-head puts her first."""
    document = {
        "method": "round-robin",
        "games": [
            {"a": "BEN", "b": "ANNA", "rounds": [{"score": [60, 65], "twenties": [2, 0]}]},
            {"a": "BEN", "b": "CARL", "rounds": [{"points": [2, 0], "twenties": [0, 0]}]},
        ],
    }
    done = standings(json.dumps(document))
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["standings"]
    assert [(r["entry"], r["rank"], r["tiebreak"]) for r in rows[:2]] == [
        ("ANNA", 1, "head-to-head"),
        ("BEN", 2, "head-to-head"),
    ]


def test_bad_round_exits_2_naming_game_and_round():
    bad = DESIGN_INPUT.replace(
        '"points": [0, 0], "twenties": [0, 0]', '"points": [2, 2], "twenties": [0, 0]'
    )
    done = standings(bad)
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        "game 2 (CARL v DAN), round 2: the points (2 for CARL, 2 for DAN) are impossible"
        in done.stderr
    )


def test_bad_board_score_exits_2_naming_game_and_round():
    bad = DESIGN_INPUT.replace('"score": [45, 60]', '"score": [45, 62]')
    done = standings(bad)
    assert done.returncode == 2
    assert "game 1 (ANNA v BEN), round 2: the board scores (45 for ANNA, 62 for BEN)" in done.stderr


def test_shootout_for_a_group_not_tied_exits_2():
    bad = DESIGN_INPUT.replace(
        '"shootouts": []', '"shootouts": [{"twenties": {"ANNA": 7, "DAN": 5}}]'
    )
    done = standings(bad)
    assert done.returncode == 2
    assert "shoot-out 1 (ANNA, DAN) does not settle a tie" in done.stderr


def test_malformed_json_exits_2():
    done = standings(DESIGN_INPUT[:-10])
    assert done.returncode == 2
    assert "malformed JSON" in done.stderr and "line" in done.stderr


def test_duplicate_key_exits_2():
    done = standings('{"method": "preliminary", "method": "round-robin", "games": []}')
    assert done.returncode == 2
    assert "'method' is given twice" in done.stderr


def test_unknown_method_exits_2():
    done = standings(DESIGN_INPUT.replace('"preliminary"', '"monrad"'))
    assert done.returncode == 2
    assert "unknown method 'monrad'" in done.stderr


SWISS_GAMES = [
    {"a": "ANNA", "b": "BEN", "rounds": [{"points": [2, 0], "twenties": [0, 0]}]},
    {"a": "CARL", "b": "DAN", "rounds": [{"points": [2, 0], "twenties": [4, 0]}]},
    {"a": "ANNA", "b": "CARL", "rounds": [{"points": [1, 1], "twenties": [0, 0]}]},
    {"a": "BEN", "b": "DAN", "rounds": [{"points": [2, 0], "twenties": [0, 0]}]},
]


def test_swiss_method_ranks_by_buchholz():
    """ANNA and CARL are level on 3 points; ANNA's opponents have 5, CARL's 3 (his 20s would
    have put him first by the preliminary chain)."""
    done = standings(json.dumps({"method": "swiss", "games": SWISS_GAMES}))
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["standings"]
    assert [(r["entry"], r["rank"], r["tiebreak"]) for r in rows] == [
        ("ANNA", 1, "buchholz"),
        ("CARL", 2, "buchholz"),
        ("BEN", 3, None),
        ("DAN", 4, None),
    ]
    preliminary = standings(json.dumps({"method": "preliminary", "games": SWISS_GAMES}))
    assert json.loads(preliminary.stdout)["standings"][0]["entry"] == "CARL"


def test_missing_file_exits_2(tmp_path):
    done = run("standings", str(tmp_path / "nowhere.json"))
    assert done.returncode == 2
    assert "cannot read" in done.stderr


def test_help():
    done = run("standings", "--help")
    assert done.returncode == 0
    assert "FILE.json" in done.stdout and "standard input" in done.stdout
