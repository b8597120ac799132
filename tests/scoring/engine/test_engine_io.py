"""The standings tool's JSON input: parsed into engine objects; errors name the game and round."""

import copy
import json
import re

import pytest

from scoring.engine import (
    EngineInputError,
    Round,
    Shootout,
    compute_standings,
    format_standings,
    parse_standings_input,
    standings_to_dict,
)

DESIGN_INPUT = {
    "method": "preliminary",
    "games": [
        {
            "a": "ANNA",
            "b": "BEN",
            "rounds": [
                {"points": [2, 0], "twenties": [3, 1]},
                {"score": [45, 60], "twenties": [1, 2]},
            ],
        },
        {
            "a": "CARL",
            "b": "DAN",
            "rounds": [
                {"points": [1, 1], "twenties": [2, 2]},
                {"points": [0, 0], "twenties": [0, 0]},
            ],
        },
    ],
    "shootouts": [],
}


def design(**changes):
    data = copy.deepcopy(DESIGN_INPUT)
    data.update(changes)
    return data


def with_round(game: int, round_: int, value) -> dict:
    data = design()
    data["games"][game - 1]["rounds"][round_ - 1] = value
    return data


def test_parse_design_example():
    games, chain, shootouts = parse_standings_input(design())
    assert chain == ("twenties", "shoot-out")
    assert [(g.a, g.b) for g in games] == [("ANNA", "BEN"), ("CARL", "DAN")]
    assert games[0].rounds[1] == Round(points=(0, 2), twenties=(1, 2), score=(45, 60))
    assert games[1].rounds[1] == Round.time_expired()
    assert shootouts == []


def test_parse_round_robin_method_and_own_chain_and_shootouts():
    parsed = parse_standings_input(design(method="round-robin"))
    assert parsed.chain[0] == "head-to-head"
    data = design(shootouts=[{"twenties": {"CARL": 7, "DAN": 5}}])
    del data["method"]
    data["chain"] = ["twenties", "shoot-out"]
    parsed = parse_standings_input(data)
    assert parsed.chain == ("twenties", "shoot-out")
    assert parsed.shootouts == [Shootout({"CARL": 7, "DAN": 5})]


def test_design_example_output_dict_and_text():
    parsed = parse_standings_input(design())
    result = compute_standings(parsed.games, chain=parsed.chain, shootouts=parsed.shootouts)
    data = standings_to_dict(result)
    assert list(data) == ["standings", "shootouts_required"]
    assert list(data["standings"][0]) == [
        "rank",
        "entry",
        "games",
        "points",
        "twenties",
        "tiebreak",
    ]
    assert json.loads(format_standings(result)) == data
    lines = format_standings(result).splitlines()
    assert len(lines) == 7  # one row per line, as in the design
    assert [json.loads(line.strip().rstrip(","))["entry"] for line in lines[1:5]] == [
        "ANNA",
        "BEN",
        "CARL",
        "DAN",
    ]


def test_exact_message_for_impossible_points_names_game_and_round():
    """The issue's example message, word for word, each figure beside its entry's name."""
    data = design()
    data["games"][1]["rounds"].append({"points": [2, 2], "twenties": [0, 0]})
    with pytest.raises(EngineInputError) as caught:
        parse_standings_input(data)
    assert str(caught.value) == (
        "game 2 (CARL v DAN), round 3: the points (2 for CARL, 2 for DAN) are impossible; a "
        "round scores 2-0, 1-1, 0-2, or 0-0 when time expired"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "the input must be a JSON object"),
        ({"method": "preliminary"}, 'the input is missing "games"'),
        ({"games": []}, "missing 'method'"),
        ({"method": "monrad", "games": []}, "unknown method 'monrad'"),
        ({"method": "preliminary", "chain": ["twenties"], "games": []}, "not both"),
        ({"chain": ["wins"], "games": []}, "unknown tiebreak step 'wins'"),
        ({"method": "preliminary", "games": {}}, "'games' must be a JSON list"),
        ({"method": "preliminary", "games": [], "shootout": []}, 'unknown key "shootout"'),
        ({"method": "preliminary", "games": [], "discs": 0}, "'discs' \\(per side\\)"),
        (
            {"method": "preliminary", "games": [{"a": "ANNA", "rounds": []}]},
            'game 1 is missing "b"',
        ),
        ({"method": "preliminary", "games": [{"a": "A", "b": 7, "rounds": []}]}, "non-empty names"),
        ({"method": "preliminary", "games": [{"a": "A", "b": "B", "rounds": 4}]}, "rounds must be"),
        ({"method": "preliminary", "games": ["ANNA v BEN"]}, "game 1 must be a JSON object"),
    ],
)
def test_input_shape_errors(data, message):
    with pytest.raises(EngineInputError, match=message):
        parse_standings_input(data)


def test_a_game_of_an_entry_against_itself_names_the_game():
    data = design()
    data["games"][1]["b"] = "CARL"
    with pytest.raises(EngineInputError, match=r"^game 2 \(CARL v CARL\): an entry cannot play"):
        parse_standings_input(data)


@pytest.mark.parametrize(
    ("round_", "message"),
    [
        ({"points": [2, 0], "score": [60, 20], "twenties": [0, 0]}, "not both"),
        ({"twenties": [0, 0]}, "give either 'points' or 'score'"),
        ({"points": [2, 0]}, 'missing "twenties"'),
        ({"points": [2, 0], "twenties": [0, 0], "hammer": 1}, 'unknown key "hammer"'),
        (
            {"score": [42, 60], "twenties": [0, 0]},
            r"board scores \(42 for CARL, 60 for DAN\) are impossible",
        ),
        ({"score": [40, 60], "twenties": [3, 0]}, "3 20s alone make 60"),
        ({"points": [2, 0], "twenties": [-1, 0]}, "cannot be negative"),
        ({"points": [2, 0], "twenties": [1.5, 0]}, "pair of whole numbers"),
        ({"points": "2-0", "twenties": [0, 0]}, 'points "2-0" must be a pair'),
        ({"points": [0, 0], "twenties": [1, 0]}, "time expired"),
    ],
)
def test_round_errors_name_game_and_round(round_, message):
    with pytest.raises(EngineInputError) as caught:
        parse_standings_input(with_round(2, 2, round_))
    assert str(caught.value).startswith("game 2 (CARL v DAN), round 2")
    assert re.search(message, str(caught.value))


def test_without_discs_twenties_are_only_checked_non_negative():
    """The input has no disc count; 20s are then only checked to be non-negative whole numbers."""
    data = with_round(1, 1, {"points": [2, 0], "twenties": [11, 0]})
    assert parse_standings_input(data).games[0].rounds[0].twenties == (11, 0)
    data["discs"] = 8
    with pytest.raises(EngineInputError, match=r"game 1 \(ANNA v BEN\), round 1: .* only 8 discs"):
        parse_standings_input(data)
    data["discs"] = 12  # a doubles team
    parse_standings_input(data)


@pytest.mark.parametrize(
    ("shootouts", "message"),
    [
        ([{"twenties": {"CARL": 13, "DAN": 5}}], "shoot-out 1: CARL made 13 20s"),
        ([{"twenties": {"CARL": 7}}], "shoot-out 1: .*at least two"),
        ([{"twenties": {"CARL": 1, "DAN": 2}}, {"CARL": 1}], 'shoot-out 2: unknown key "CARL"'),
        ({"CARL": 1}, "'shootouts' must be a JSON list"),
    ],
)
def test_shootout_input_errors(shootouts, message):
    with pytest.raises(EngineInputError, match=message):
        parse_standings_input(design(shootouts=shootouts))
