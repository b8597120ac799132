"""Boards and times: no player on the same board twice in a row, broken boards never used."""

import itertools
from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    Pairing,
    TimeSlot,
    assign_boards,
    assign_boards_in_slots,
    board_repeats,
    preliminary_rounds,
    time_slots,
)


def without_boards(rounds):
    return [[Pairing(p.a, p.b) for p in rnd] for rnd in rounds]


@st.composite
def rooms(draw):
    count = draw(st.integers(min_value=2, max_value=40))
    games = draw(st.integers(min_value=1, max_value=min(6, count - 1)))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    rounds = preliminary_rounds([f"E{i}" for i in range(count)], games, seed=seed)
    per_round = count // 2
    working = draw(st.integers(min_value=max(4, per_round), max_value=per_round + 6))
    broken = draw(st.integers(min_value=0, max_value=4))
    boards = list(range(1, working + broken + 1))
    out = set(draw(st.permutations(boards))[:broken])
    return rounds, boards, out


@given(rooms())
@settings(max_examples=150, deadline=None)
def test_with_four_or_more_boards_nobody_repeats_a_board_and_broken_ones_stay_idle(case):
    rounds, boards, out = case
    placed = assign_boards(rounds, boards, out_of_service=out)
    assert board_repeats(placed) == []
    assert without_boards(placed) == [sorted(rnd, key=lambda p: p.b is None) for rnd in rounds]
    for rnd in placed:
        used = [p.board for p in rnd if not p.is_bye]
        assert None not in used
        assert len(set(used)) == len(used)
        assert not set(used) & out
        assert all(p.board is None for p in rnd if p.is_bye)


def fewest_repeats_possible(rounds, boards):
    """Every way of putting every round on the boards."""
    options = [
        list(itertools.permutations(boards, sum(1 for p in rnd if not p.is_bye))) for rnd in rounds
    ]
    best = None
    for choice in itertools.product(*options):
        placed = [
            [
                Pairing(p.a, p.b, board)
                for p, board in zip([q for q in rnd if not q.is_bye], order, strict=True)
            ]
            for rnd, order in zip(rounds, choice, strict=True)
        ]
        repeats = len(board_repeats(placed))
        best = repeats if best is None else min(best, repeats)
    return best


@given(
    st.integers(min_value=2, max_value=6),
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=1),
)
@settings(max_examples=80, deadline=None)
def test_small_rooms_get_the_fewest_repeats_possible(count, games, seed, extra):
    games = min(games, count - 1)
    rounds = preliminary_rounds([f"E{i}" for i in range(count)], games, seed=seed)
    boards = list(range(1, count // 2 + extra + 1))
    placed = assign_boards(rounds, boards)
    assert len(board_repeats(placed)) == fewest_repeats_possible(rounds, boards)


def test_a_round_with_more_games_than_working_boards_is_refused():
    rounds = preliminary_rounds([f"E{i}" for i in range(10)], 1, seed=1)
    with pytest.raises(ValueError, match="5 games but only 4 boards"):
        assign_boards(rounds, [1, 2, 3, 4, 5], out_of_service={3})


def test_extra_games_spill_into_further_time_slots():
    entries = [f"E{i}" for i in range(20)]
    rounds = preliminary_rounds(entries, 3, seed=5)
    placed = assign_boards_in_slots(rounds, [1, 2, 3, 4, 5, 6], out_of_service={6})
    for rnd, slots in zip(rounds, placed, strict=True):
        assert [len(slot) for slot in slots] == [5, 5]
        assert sorted(p.entries for slot in slots for p in slot) == sorted(p.entries for p in rnd)
        for slot in slots:
            used = [p.board for p in slot]
            assert len(set(used)) == len(used)
            assert set(used) <= {1, 2, 3, 4, 5}
    flattened = [[p for slot in slots for p in slot] for slots in placed]
    assert board_repeats(flattened) == []


def test_boards_listed_twice_or_none_in_service_are_refused():
    rounds = [[Pairing("A", "B")]]
    with pytest.raises(ValueError, match="twice"):
        assign_boards(rounds, [1, 1])
    with pytest.raises(ValueError, match="no board"):
        assign_boards_in_slots(rounds, [1], out_of_service=[1])


def test_time_slots_follow_the_game_time_limit_and_the_breaks():
    start = datetime(2026, 6, 6, 9, 0)
    slots = time_slots(start, 3, minutes_per_game=30, break_minutes=10)
    assert slots == [
        TimeSlot(1, datetime(2026, 6, 6, 9, 0), datetime(2026, 6, 6, 9, 30)),
        TimeSlot(2, datetime(2026, 6, 6, 9, 40), datetime(2026, 6, 6, 10, 10)),
        TimeSlot(3, datetime(2026, 6, 6, 10, 20), datetime(2026, 6, 6, 10, 50)),
    ]


def test_time_slots_give_a_spilled_round_its_extra_slot():
    start = datetime(2026, 6, 6, 9, 0)
    slots = time_slots(start, [1, 2], minutes_per_game=20, break_minutes=5)
    assert [(s.round, s.slot, s.start.strftime("%H:%M")) for s in slots] == [
        (1, 1, "09:00"),
        (2, 1, "09:25"),
        (2, 2, "09:50"),
    ]


@pytest.mark.parametrize(("rounds", "minutes", "pause"), [(2, 0, 0), (2, 30, -5), ([1, 0], 30, 5)])
def test_impossible_timetables_are_refused(rounds, minutes, pause):
    with pytest.raises(ValueError):
        time_slots(datetime(2026, 6, 6, 9, 0), rounds, minutes, pause)
