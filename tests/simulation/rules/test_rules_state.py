"""Reading a board state from its JSON form."""

import pytest

from simulation.rules.state import BoardState, Disc, parse_seats, parse_state


def test_state_round_trips_through_json():
    raw = {
        "discs": [
            {"id": "b3", "side": 1, "x": 0.02, "y": 0.11},
            {"id": "a1", "side": 0, "x": 0.003, "y": 0.0, "leaner": True},
        ],
        "seats": {"0": 0, "2": 1},
    }
    state = parse_state(raw)
    assert state.discs[0] == Disc("b3", 1, 0.02, 0.11)
    assert state.discs[1].leaner
    assert state.to_json() == raw


def test_seats_default_to_singles_and_doubles_is_accepted():
    assert parse_state({}).seats == {0: 0, 2: 1}
    assert parse_seats({"0": 0, "1": 1, "2": 0, "3": 1}) == {0: 0, 1: 1, 2: 0, 3: 1}
    assert BoardState().side_of(2) == 1


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"discs": [{"id": "a1", "side": 0, "x": 0.0, "y": 0.3}]}, "out of play .NCA 8c."),
        ({"discs": [{"id": "a1", "side": 2, "x": 0.0, "y": 0.1}]}, "sides seated are .0, 1."),
        ({"discs": [{"id": "a1", "side": 0, "x": "0", "y": 0.1}]}, "x must be a finite number"),
        (
            {
                "discs": [
                    {"id": "a1", "side": 0, "x": 0.0, "y": 0.1},
                    {"id": "a1", "side": 1, "x": 0.0, "y": -0.1},
                ]
            },
            "appears twice",
        ),
        (
            {
                "discs": [
                    {"id": "a1", "side": 0, "x": 0.0, "y": 0.1},
                    {"id": "b1", "side": 1, "x": 0.01, "y": 0.1},
                ]
            },
            "on top of each other",
        ),
        ({"discs": [{"id": "a1", "side": 0, "x": 0.1, "y": 0.0, "leaner": True}]}, "leaner"),
        ({"seats": {"south": 0}}, "unknown seat 'south'"),
        ({"seats": {"0": 0, "1": 1}}, "opposite sides"),
        ({"disks": []}, "unknown keys"),
        ([], "state must be an object"),
    ],
)
def test_bad_states_are_refused_with_a_reason(raw, message):
    with pytest.raises(ValueError, match=message):
        parse_state(raw)
