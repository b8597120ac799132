"""Keeping a round: turns, discs left, 20s set aside (NCA 2a, 4a, 5a)."""

import pytest

from simulation.rules.removal import Reason
from simulation.rules.round import RoundKeeper
from simulation.rules.ruling import Removal, Ruling, Twenty
from simulation.rules.state import Disc


def ruling(discs=(), twenties=(), removed=()) -> Ruling:
    return Ruling(
        valid=True,
        foul=None,
        discs=tuple(discs),
        twenties=tuple(twenties),
        removed=tuple(removed),
        replaced=(),
        touched=(),
    )


def test_singles_round_alternates_and_counts_discs_left():
    """NCA 4a: 8 discs each, alternating turns."""
    keeper = RoundKeeper.start({0: 0, 2: 1}, first_seat=2)
    assert keeper.discs_per_player == 8
    assert keeper.next_seat == 2 and keeper.hammer == 0
    keeper.record(2, ruling(twenties=[Twenty("b1", 1)]))
    left = keeper.order[keeper.shots_taken :]
    assert left.count(2) == 7 and left.count(0) == 8
    assert keeper.next_seat == 0
    assert keeper.default_id(0) == "a1"
    assert keeper.default_id(2) == "b2"
    assert keeper.twenties == [0, 1]


def test_a_shot_out_of_turn_is_refused():
    """NCA 2a(i): play proceeds clockwise, one shot each in turn."""
    keeper = RoundKeeper.start({0: 0, 2: 1})
    with pytest.raises(ValueError, match="it is seat 0's turn, not seat 2's"):
        keeper.check_turn(2)
    with pytest.raises(ValueError, match="not in play"):
        keeper.check_turn(1)


def test_a_player_with_no_discs_left_cannot_shoot():
    keeper = RoundKeeper.start({0: 0, 2: 1}, discs_per_player=1)
    keeper.record(0, ruling())
    keeper.record(2, ruling())
    assert keeper.finished and keeper.next_seat is None
    with pytest.raises(ValueError, match="no discs left"):
        keeper.check_turn(0)


def test_round_is_counted_with_the_20s():
    """NCA 2a(iii)-(iv): the board with the 20s; 2 points to the higher score."""
    keeper = RoundKeeper.start({0: 0, 2: 1}, discs_per_player=2)
    keeper.record(0, ruling(discs=[Disc("a1", 0, 0.0, 0.05)]))
    keeper.record(
        2,
        ruling(
            discs=[Disc("a1", 0, 0.0, 0.05)],
            twenties=[Twenty("b1", 1)],
        ),
    )
    keeper.record(
        0,
        ruling(
            discs=[Disc("a1", 0, 0.0, 0.05), Disc("a2", 0, 0.0, 0.25)],
            removed=[Removal("x", 0, Reason.LINE)],
        ),
    )
    assert keeper.scores() == (20, 20)
    assert keeper.points() == (1, 1)


def test_bad_round_settings_are_refused():
    with pytest.raises(ValueError, match="at least 1"):
        RoundKeeper.start({0: 0, 2: 1}, discs_per_player=0)
    with pytest.raises(ValueError, match="first seat 1 is not occupied"):
        RoundKeeper.start({0: 0, 2: 1}, first_seat=1)
    doubles = RoundKeeper.start({0: 0, 1: 1, 2: 0, 3: 1}, first_seat=1)
    assert doubles.discs_per_player == 6 and doubles.hammer == 0
