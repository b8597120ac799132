"""``play_game``: a whole game by AI players, its record, its rotation, its reproducibility, and
skill showing in the results; and the ``game`` subcommand of the command line."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import GameRules
from simulation.cli import main
from simulation.game import play_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def singles():
    return play_game(["best", "novice"], seed=1)


@pytest.fixture(scope="module")
def doubles():
    return play_game(["top", "competitive", "recreational", "best"], seed=2)


def check_record(game, seats, discs):
    assert set(game) >= {"seats", "points", "twenties", "rounds"}
    assert game["seats"] == seats
    assert sum(game["points"]) == 2 * len(game["rounds"])
    for side in (0, 1):
        assert game["points"][side] == sum(r["points"][side] for r in game["rounds"])
        assert game["twenties"][side] == sum(r["twenties"][side] for r in game["rounds"])
    occupied = sorted(int(s) for s in seats)
    for r in game["rounds"]:
        assert set(r) >= {"first", "hammer", "score", "points", "twenties", "shots"}
        assert sorted(r["points"]) in ([0, 2], [1, 1])
        assert r["points"][0] == 2 * (r["score"][0] > r["score"][1]) + (
            r["score"][0] == r["score"][1]
        )
        assert len(r["shots"]) == discs * len(seats)
        assert r["shots"][0]["seat"] == r["first"]
        assert r["shots"][-1]["seat"] == r["hammer"]
        for k, shot in enumerate(r["shots"]):
            position = occupied.index(r["first"])
            assert shot["seat"] == occupied[(position + k) % len(occupied)]
            assert set(shot) >= {"seat", "shot", "outcome"}
            assert shot["shot"]["seat"] == shot["seat"]
            outcome = shot["outcome"]
            assert set(outcome) == {
                "valid",
                "foul",
                "discs",
                "twenties",
                "removed",
                "events",
                "touched",
            }
            assert outcome["events"][0]["kind"] == "release"
        for side in (0, 1):
            assert 0 <= r["twenties"][side] <= discs * len(seats) // 2
            assert r["score"][side] >= 20 * r["twenties"][side]
        made = [0, 0]
        for shot in r["shots"]:
            for twenty in shot["outcome"]["twenties"]:
                made[twenty["side"]] += 1
        assert made == r["twenties"]


def test_singles_record(singles):
    check_record(singles, {"0": 0, "2": 1}, 8)
    assert len(singles["rounds"]) == 4
    assert [r["first"] for r in singles["rounds"]] == [0, 2, 0, 2]
    assert [r["hammer"] for r in singles["rounds"]] == [2, 0, 2, 0]


def test_doubles_record(doubles):
    check_record(doubles, {"0": 0, "1": 1, "2": 0, "3": 1}, 6)
    assert [r["first"] for r in doubles["rounds"]] == [0, 1, 2, 3]
    assert [r["hammer"] for r in doubles["rounds"]] == [3, 0, 1, 2]


def test_ids_follow_the_sides_and_replay_the_board(singles):
    from simulation.api import simulate_shot

    r = singles["rounds"][0]
    ids = [s["shot"]["id"] for s in r["shots"]]
    assert ids[:4] == ["a1", "b1", "a2", "b2"]
    state = {"discs": [], "seats": singles["seats"]}
    for shot in r["shots"][:6]:
        again = simulate_shot(state, shot["shot"])
        assert again == shot["outcome"]
        state = {"discs": again["discs"], "seats": singles["seats"]}


def test_same_seed_same_game(singles):
    assert play_game(["best", "novice"], seed=1) == singles
    other = play_game(["best", "novice"], seed=3)
    assert other["rounds"][0]["shots"] != singles["rounds"][0]["shots"]


SEEDED_GAMES_SHA256 = "4a21e951fd6df8462753dff82dd5dacf77c7e248ad8c8e47d4ab5c71db096ef5"
"""The digest of the records below, events included, as this code plays them. Pinned again when
each player's own round form came into play (``noise.ROUND_OWN_FORM_SD``) with its refit."""


def test_a_seed_gives_the_same_games_on_any_machine(singles, doubles):
    """The design (design.md): the same seed gives the same result on any machine whose C
    library computes the same maths (glibc on processors with FMA, as servers of the last decade
    have). Pinned here, so that a machine that computes the games otherwise fails instead of
    replaying other games quietly (as numpy's own exponential, which processors with AVX-512
    get, can: ``simulation.players.noise.round_form``). A deliberate change of play (physics,
    players, profiles, a refit) pins the new digest and says so."""
    import hashlib

    timed = play_game(["competitive", {"twenties_per_game": 5.5}], seed=4, time_limit=30)
    text = json.dumps([singles, doubles, timed], sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert digest == SEEDED_GAMES_SHA256, (
        "these seeded games are not the ones this code played where the digest was pinned: "
        "either play changed (pin the new digest, then run manage.py tabulate_outcomes) or this "
        "machine's C library computes the maths differently (glibc with FMA plays the pinned games)"
    )


def test_a_game_without_events_is_the_same_game(singles):
    """``events=False`` (a preview's games) plays the same game, shot for shot, and only leaves
    the physics events out of the outcomes."""
    lean = play_game(["best", "novice"], seed=1, events=False)

    def without_events(record):
        for r in record["rounds"]:
            for shot in r["shots"]:
                shot["outcome"] = {k: v for k, v in shot["outcome"].items() if k != "events"}
        return record

    assert all("events" not in s["outcome"] for r in lean["rounds"] for s in r["shots"])
    assert lean == without_events(json.loads(json.dumps(singles)))


def test_a_player_with_a_spread_plays_each_game_at_a_level_drawn_from_it():
    """A player described by their record with a spread plays the game at a level drawn from
    it, seeded: the same seed gives the same level and game; another seed another level; no
    spread plays the mean itself."""
    uncertain = {"twenties_per_game": 6.0, "spread": 2.0}
    levels = []
    for seed in range(6):
        record = play_game([uncertain, "competitive"], seed=seed, rounds=1, events=False)
        levels.append(record["players"][0]["name"])
        again = play_game([uncertain, "competitive"], seed=seed, rounds=1, events=False)
        assert again == record
    assert len(set(levels)) == 6  # six draws, six levels
    sure = play_game([{"twenties_per_game": 6.0, "spread": 0}, "competitive"], seed=1, rounds=1)
    plain = play_game([{"twenties_per_game": 6.0}, "competitive"], seed=1, rounds=1)
    assert sure == plain
    with pytest.raises(ValueError, match="player 1: spread must be a number"):
        play_game([{"twenties_per_game": 6.0, "spread": "wide"}, "competitive"], seed=1)
    with pytest.raises(ValueError, match="player 2: spread must be a number"):
        play_game(["competitive", {"twenties_per_game": 6.0, "spread": -1}], seed=1)
    with pytest.raises(ValueError, match="player 1: 20s per game must be a number"):
        play_game([{"twenties_per_game": "many", "spread": 1.0}, "competitive"], seed=1)


def test_fewer_discs_for_cue_categories():
    game = play_game(["competitive", "competitive"], seed=4, rounds=1, discs_per_player=5)
    check_record(game, {"0": 0, "2": 1}, 5)
    assert game["discs_per_player"] == 5


def test_playoff_adds_deciding_rounds_only_when_tied():
    """WCC: a tied championship game plays another round, and another while that is tied."""
    tied = played = 0
    for seed in range(40):
        game = play_game(
            ["novice", "novice"], seed=seed, rounds=2, playoff=True, discs_per_player=2
        )
        first_two = [sum(r["points"][side] for r in game["rounds"][:2]) for side in (0, 1)]
        if first_two[0] == first_two[1]:
            tied += 1
            assert len(game["rounds"]) >= 3
            assert game["rounds"][2]["first"] == 0
            assert game["points"][0] != game["points"][1]
        else:
            played += 1
            assert len(game["rounds"]) == 2
        if tied and played:
            break
    assert tied and played


def test_no_playoff_round_without_playoff():
    for seed in range(40):
        game = play_game(["novice", "novice"], seed=seed, rounds=2, discs_per_player=2)
        assert len(game["rounds"]) == 2


@pytest.mark.slow
def test_best_beats_novice_in_more_than_95_percent_of_games():
    wins = 0
    games = 100
    for seed in range(games):
        players = ["best", "novice"] if seed % 2 == 0 else ["novice", "best"]
        game = play_game(players, seed=seed)
        best = 0 if seed % 2 == 0 else 1
        wins += game["points"][best] > game["points"][1 - best]
    assert wins / games > 0.95, wins


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ["best"]}, "1 players"),
        ({"players": "best"}, "list of skill profiles"),
        ({"players": ["best", "wizard"]}, "player 2: unknown skill profile"),
        ({"players": ["best", "best"], "rules": "street"}, "unknown rules"),
        ({"players": ["best", "best"], "seed": -1}, "seed"),
        ({"players": ["best", "best"], "rounds": 0}, "rounds"),
        ({"players": ["best", "best"], "playoff": "yes"}, "playoff"),
        ({"players": ["best", "best"], "discs_per_player": 0}, "discs_per_player"),
        ({"players": ["best", "best"], "first_seat": 1}, "first_seat"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        play_game(**kwargs)


def run(argv, text=""):
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_game_from_standard_input():
    data = {"players": ["best", "novice"], "rules": "nca", "seed": 1, "rounds": 4, "playoff": False}
    code, out, err = run(["game", "-"], json.dumps(data))
    assert code == 0, err
    assert json.loads(out) == json.loads(json.dumps(play_game(["best", "novice"], seed=1)))


def test_cli_game_from_a_file(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"players": ["top", "top"], "seed": 5, "rounds": 1}))
    code, out, _ = run(["game", str(path)])
    assert code == 0
    assert len(json.loads(out)["rounds"]) == 1


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"players": ["best", "novice"], "colour": 1}', "unknown keys"),
        ('{"rules": "nca"}', "missing"),
        ('{"players": ["best", "ace"]}', "unknown skill profile"),
    ],
)
def test_cli_game_bad_input(text, message):
    code, out, err = run(["game", "-"], text)
    assert code == 2
    assert out == ""
    assert message in err and err.startswith("python -m simulation game: error:")


def test_cli_game_subprocess_and_lazy_package():
    data = json.dumps({"players": ["best", "novice"], "seed": 2, "rounds": 1})
    done = subprocess.run(
        [sys.executable, "-m", "simulation", "game", "-"],
        input=data,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["rounds"]) == 1
    probe = (
        "import sys, simulation; assert 'play_game' in simulation.__all__; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'numba')]; "
        "assert not bad, bad; from simulation import play_game; print(play_game.__name__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "play_game"


@pytest.mark.parametrize(
    ("scoring", "target"), [("difference-to-100", 100), ("match-play-to-8", 8), ("first-to-N", 6)]
)
def test_a_game_is_played_until_its_scoring_system_ends_it(scoring, target):
    """Family rulebook Scoring 5-6 and the Match-Play Rule: play to the target, the winner alone
    at or past it; under difference-to-100 each round adds the difference of the board scores."""
    record = play_game(
        ["competitive", "competitive"],
        seed=5,
        scoring=scoring,
        target=target if scoring == "first-to-N" else None,
    )
    points = record["points"]
    assert max(points) >= target and points[0] != points[1]
    system = GameRules(
        system=scoring, target=target if scoring == "first-to-N" else None
    ).scoring_system()
    for number, round_ in enumerate(record["rounds"], 1):
        a, b = round_["score"]
        if scoring == "difference-to-100":
            assert round_["points"] == ([a - b, 0] if a >= b else [0, b - a])
        else:
            assert round_["points"] == ([2, 0] if a > b else [0, 2] if a < b else [1, 1])
        if number < len(record["rounds"]):
            # Not over before the end, as the scoring engine judges it (first-to-N goes on by
            # pairs of rounds once both sides reach N - 1).
            played = [tuple(r["points"]) for r in record["rounds"][:number]]
            assert not system.tally(played).over, played
    assert system.tally([tuple(r["points"]) for r in record["rounds"]]).over


def test_a_game_of_an_unknown_or_three_sided_system_is_refused():
    with pytest.raises(ValueError, match="unknown scoring system"):
        play_game(["novice", "novice"], seed=1, scoring="to-the-moon")
    with pytest.raises(ValueError, match="three-player is played by 3 sides"):
        play_game(["novice", "novice"], seed=1, scoring="three-player")
