"""The WCC preliminary draw: N games, a different opponent each time, at most one bye."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import Pairing, check_rounds, played_pairs, preliminary_rounds


def names(count: int) -> list[str]:
    return [f"E{i:03d}" for i in range(count)]


@st.composite
def draws(draw):
    count = draw(st.integers(min_value=2, max_value=41))
    games = draw(st.integers(min_value=0, max_value=count - 1))
    method = draw(st.sampled_from(["random", "rotation"]))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    return names(count), games, method, seed


@given(draws())
@settings(max_examples=200)
def test_no_rematches_and_everyone_plays_n_games_or_n_minus_one_and_a_bye(case):
    entries, games, method, seed = case
    rounds = preliminary_rounds(entries, games, method=method, seed=seed)
    assert len(rounds) == games
    check_rounds(rounds)  # no entry twice in a round, no pair twice overall
    played = Counter()
    byes = Counter()
    for rnd in rounds:
        assert sorted(e for p in rnd for e in p.entries) == sorted(entries)
        assert sum(p.is_bye for p in rnd) == len(entries) % 2
        for pairing in rnd:
            if pairing.is_bye:
                byes[pairing.a] += 1
            else:
                played[pairing.a] += 1
                played[pairing.b] += 1
    for entry in entries:
        assert byes[entry] <= 1
        assert played[entry] + byes[entry] == games
    assert len(played_pairs(rounds)) == sum(played.values()) // 2


def test_the_same_seed_gives_the_same_draw_and_another_seed_another():
    entries = names(40)
    first = preliminary_rounds(entries, 8, seed=2024)
    again = preliminary_rounds(entries, 8, seed=2024)
    other = preliminary_rounds(entries, 8, seed=2025)
    assert first == again
    assert first != other


def test_rotation_is_deterministic_and_follows_the_listed_order():
    entries = names(6)
    rounds = preliminary_rounds(entries, 3, method="rotation")
    assert rounds == preliminary_rounds(entries, 3, method="rotation", seed=99)
    # Round 1 of the rotation: first v last, second v second-to-last, ...
    assert rounds[0] == [
        Pairing("E000", "E005"),
        Pairing("E001", "E004"),
        Pairing("E002", "E003"),
    ]


def test_an_odd_field_lists_the_bye_last_as_a_pairing_with_none():
    rounds = preliminary_rounds(names(9), 4, seed=7)
    for rnd in rounds:
        assert rnd[-1].b is None
        assert all(p.b is not None for p in rnd[:-1])


def test_every_opponent_once_when_games_equal_the_opponents():
    entries = names(8)
    rounds = preliminary_rounds(entries, 7, seed=3)
    assert len(played_pairs(rounds)) == 8 * 7 // 2


def test_four_hundred_entries_ten_games():
    """A WCC-sized field (its speed is measured in bench/, not here)."""
    rounds = preliminary_rounds(names(400), 10, seed=11)
    check_rounds(rounds)
    assert len(rounds) == 10
    assert all(len(rnd) == 200 for rnd in rounds)


@pytest.mark.parametrize(
    ("entries", "games", "kwargs", "message"),
    [
        (names(6), 6, {"seed": 1}, "only 5 opponents"),
        (names(7), 7, {"seed": 1}, "only 6 opponents"),
        (names(1), 0, {"seed": 1}, "at least two entries"),
        (names(4), -1, {"seed": 1}, "cannot be negative"),
        (["A", "B", "A"], 1, {"seed": 1}, "listed twice"),
        (names(4), 2, {}, "needs a seed"),
        (names(4), 2, {"method": "swiss", "seed": 1}, "unknown draw method"),
    ],
)
def test_impossible_draws_are_refused_with_a_clear_message(entries, games, kwargs, message):
    with pytest.raises(ValueError, match=message):
        preliminary_rounds(entries, games, **kwargs)
