"""Seats, turn order and the rotation of the first shooter (NCA 2a, 4a, 4b, 5a, 5b)."""

import pytest

from simulation.rules.seats import (
    DOUBLES,
    SINGLES,
    check_seating,
    default_discs_per_player,
    game_first_seat,
    hammer_seat,
    next_seat,
    round_first_seat,
    seat_angle,
    turn_order,
)


def test_seats_are_numbered_clockwise_from_south():
    """Design: 0 south, 1 west, 2 north, 3 east, clockwise seen from above."""
    assert seat_angle(0) == pytest.approx(-90)
    assert seat_angle(1) == pytest.approx(180) or seat_angle(1) == pytest.approx(-180)
    assert seat_angle(2) == pytest.approx(90)
    assert seat_angle(3) == pytest.approx(0)


def test_singles_players_alternate_turns():
    """NCA 4a: singles players "shall alternate turns", each with 8 discs."""
    order = turn_order(SINGLES, 0, default_discs_per_player(SINGLES))
    assert order == [0, 2] * 8


def test_doubles_play_proceeds_clockwise():
    """NCA 2a(i): each player in turn, proceeding clockwise; NCA 5a: 6 discs each in doubles."""
    order = turn_order(DOUBLES, 2, default_discs_per_player(DOUBLES))
    assert order[:5] == [2, 3, 0, 1, 2]
    assert len(order) == 24
    assert all(order.count(seat) == 6 for seat in range(4))


def test_discs_per_player_is_a_category_parameter():
    """WCC Tournament Scoring Information: cue doubles shoot 5 discs each."""
    assert len(turn_order(DOUBLES, 0, 5)) == 20


def test_singles_first_shooter_alternates_each_round():
    """NCA 4b: "In each of the rounds in a game, players shall alternate starting."."""
    firsts = [round_first_seat(SINGLES, 0, i) for i in range(4)]
    assert firsts == [0, 2, 0, 2]


def test_doubles_start_moves_one_seat_clockwise_each_round():
    """NCA 5b: "the obligation to start shall move one player clockwise around the board"."""
    firsts = [round_first_seat(DOUBLES, 3, i) for i in range(4)]
    assert firsts == [3, 0, 1, 2]


def test_starting_side_alternates_each_game_of_a_match():
    """NCA 4b / 5b: in a multi-game match the players (teams) alternate starting."""
    singles = [SINGLES[game_first_seat(SINGLES, 0, g)] for g in range(3)]
    assert singles == [0, 1, 0]
    doubles = [DOUBLES[game_first_seat(DOUBLES, 0, g)] for g in range(4)]
    assert doubles == [0, 1, 0, 1]


def test_hammer_is_the_seat_before_the_first():
    """The last shot of a round belongs to the seat just before the first, clockwise."""
    assert hammer_seat(SINGLES, 2) == 0
    assert hammer_seat(DOUBLES, 0) == 3
    assert next_seat({1: 0, 3: 1}, 3) == 1


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        ({0: 0, 1: 1}, "opposite sides"),
        ({0: 0, 2: 0}, "different colours"),
        ({0: 0, 1: 1, 2: 1, 3: 0}, "partners"),
        ({0: 0}, "1 occupied seats"),
        ({0: 0, 2: 3}, "sides are 0 and 1"),
        ({5: 0, 2: 1}, "unknown seat 5"),
    ],
)
def test_seatings_the_rules_do_not_allow_are_refused(seats, message):
    """NCA 4a: singles opponents sit opposite; NCA 5a: partners opposite, same colour."""
    with pytest.raises(ValueError, match=message):
        check_seating(seats)
