"""Knockout brackets: standard seeding, byes to the top seeds, best-of-N, crossover, advancing."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    THIRD_PLACE,
    Bracket,
    Source,
    advance,
    bracket_order,
    pool_crossover,
    single_elimination,
)


def seeds(count: int) -> list[str]:
    return [f"S{seed}" for seed in range(1, count + 1)]


def seed_number(entry: str) -> int:
    return int(entry[1:])


def reachable(bracket: Bracket) -> dict[tuple[str, str], set[int]]:
    """Seeds that can arrive in each side ("a"/"b") of each match, following the slot sources."""
    can_win: dict[str, set[int]] = {}
    sides: dict[tuple[str, str], set[int]] = {}
    for match in bracket.matches:
        if match.id == THIRD_PLACE:
            continue
        for side, slot in (("a", match.a), ("b", match.b)):
            sides[(match.id, side)] = (
                {slot.seed} if slot.source is None else set(can_win[slot.source.match])
            )
        can_win[match.id] = sides[(match.id, "a")] | sides[(match.id, "b")]
    return sides


def play_out(bracket: Bracket, pick) -> Bracket:
    """Decide every match in order, the winner chosen by `pick(match)`."""
    while bracket.ready():
        match = bracket.ready()[0]
        bracket = advance(bracket, {match.id: pick(match)})
    return bracket


def test_round_of_sixteen_pairs_one_v_sixteen_and_eight_v_nine():
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    first_round = single_elimination(seeds(16)).rounds[0]
    assert [(m.a.seed, m.b.seed) for m in first_round[:2]] == [(1, 16), (8, 9)]


@given(st.integers(min_value=2, max_value=70))
@settings(max_examples=80)
def test_seeds_one_and_two_can_only_meet_in_the_final(count):
    bracket = single_elimination(seeds(count))
    sides = reachable(bracket)
    for match in bracket.matches:
        a, b = sides[(match.id, "a")], sides[(match.id, "b")]
        can_meet = (1 in a and 2 in b) or (2 in a and 1 in b)
        assert can_meet == (match.id == "F")


@given(st.integers(min_value=2, max_value=70))
@settings(max_examples=80)
def test_byes_go_to_the_top_seeds(count):
    size = 1 << (count - 1).bit_length()
    byes = size - count
    bracket = single_elimination(seeds(count))
    first_round = {slot.seed for m in bracket.rounds[0] for slot in (m.a, m.b)}
    assert first_round == set(range(byes + 1, count + 1))
    if byes:
        straight_in = {
            slot.seed for m in bracket.rounds[1] for slot in (m.a, m.b) if slot.source is None
        }
        assert straight_in == set(range(1, byes + 1))
    assert len(bracket.matches) == count - 1


@given(st.integers(min_value=4, max_value=70))
@settings(max_examples=60)
def test_when_favourites_always_win_the_top_four_reach_the_semifinals(count):
    bracket = play_out(
        single_elimination(seeds(count), third_place=True),
        lambda m: min(m.entries, key=seed_number),
    )
    semis = bracket.rounds[-2]
    assert sorted(seed_number(e) for m in semis for e in m.entries) == [1, 2, 3, 4]
    assert bracket.final.winner == "S1"
    assert bracket.final.loser == "S2"
    assert bracket.match(THIRD_PLACE).winner == "S3"


@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0, max_value=10**6))
@settings(max_examples=80)
def test_any_results_advance_until_there_is_a_champion(count, seed):
    rng = random.Random(seed)
    bracket = play_out(single_elimination(seeds(count)), lambda m: rng.choice(m.entries))
    assert bracket.final.winner is not None
    assert all(m.winner is not None for m in bracket.matches)
    # every entry but the champion lost exactly once
    losers = [m.loser for m in bracket.matches]
    assert sorted([*losers, bracket.final.winner]) == sorted(seeds(count))


def test_the_third_place_match_takes_the_semifinal_losers():
    bracket = single_elimination(seeds(4), third_place=True)
    third = bracket.match(THIRD_PLACE)
    assert (third.a.source, third.b.source) == (Source("SF1", "loser"), Source("SF2", "loser"))
    bracket = advance(bracket, {"SF1": "S4", "SF2": "S2"})
    assert bracket.match(THIRD_PLACE).entries == ("S1", "S3")
    assert bracket.final.entries == ("S4", "S2")
    assert {m.id for m in bracket.ready()} == {"F", THIRD_PLACE}


def test_wcc_crossover_semifinals_are_1a_v_2b_and_1b_v_2a():
    """WCC: the semifinals cross the pools, 1A v 2B and 1B v 2A."""
    pool_a = ["Anna", "Ben", "Cal", "Dot"]
    pool_b = ["Eve", "Fred", "Gus", "Hal"]
    bracket = pool_crossover([pool_a, pool_b], advancing=2)
    sf1, sf2 = bracket.rounds[0]
    assert (sf1.id, sf1.entries, sf1.a.label, sf1.b.label) == ("SF1", ("Anna", "Fred"), "1A", "2B")
    assert (sf2.id, sf2.entries, sf2.a.label, sf2.b.label) == ("SF2", ("Eve", "Ben"), "1B", "2A")
    assert bracket.final.a.source == Source("SF1") and bracket.final.b.source == Source("SF2")


def test_a_championship_final_is_best_two_out_of_three():
    """WCC: "A championship match will be played best two out of three games"."""
    bracket = pool_crossover([["A1", "A2"], ["B1", "B2"]], best_of=[1, 3], third_place=True)
    assert [m.best_of for m in bracket.rounds[0]] == [1, 1]
    assert bracket.final.best_of == 3
    assert bracket.match(THIRD_PLACE).best_of == 3


def test_advance_refuses_results_that_do_not_fit_the_bracket():
    bracket = single_elimination(seeds(8))
    with pytest.raises(ValueError, match="no match"):
        advance(bracket, {"SF9": "S1"})
    with pytest.raises(ValueError, match="not playing"):
        advance(bracket, {"QF1": "S2"})
    with pytest.raises(ValueError, match="before both entries"):
        advance(bracket, {"SF1": "S1"})


def test_advance_keeps_recorded_winners_and_accepts_corrections():
    bracket = advance(single_elimination(seeds(4)), {"SF1": "S1"})
    bracket = advance(bracket, {"SF2": "S3"})
    assert bracket.final.entries == ("S1", "S3")
    corrected = advance(bracket, {"SF1": "S4"})
    assert corrected.final.entries == ("S4", "S3")


def test_round_names_and_ids_follow_the_draw_sheet():
    bracket = single_elimination(seeds(12))
    assert bracket.round_names == ("Round of 16", "Quarterfinals", "Semifinals", "Final")
    assert [m.id for m in bracket.rounds[1]] == ["QF1", "QF2", "QF3", "QF4"]
    assert bracket.rounds[1][0].a.entry == "S1" and bracket.rounds[1][0].b.source.match == "R16-2"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"seeds": ["A"]},
        {"seeds": ["A", "B", "C"], "third_place": True},
        {"seeds": ["A", "B", "C", "D"], "best_of": [1]},
        {"seeds": ["A", "B", "A"]},
    ],
)
def test_impossible_brackets_are_refused(kwargs):
    with pytest.raises(ValueError):
        single_elimination(**kwargs)


def test_placements_follow_the_bracket_not_the_points():
    """Final decides 1-2, the 3rd/4th place match 3-4, quarterfinal losers share 5."""
    from tournaments.formats import advance, placements, single_elimination

    bracket = single_elimination(list("ABCDEFGH"), best_of=3, third_place=True)
    assert set(placements(bracket).values()) == {1}
    results = {"QF1": "A", "QF2": "D", "QF3": "B", "QF4": "C"}
    bracket = advance(bracket, results)
    assert sorted(placements(bracket).values()) == [1, 1, 1, 1, 5, 5, 5, 5]
    results |= {"SF1": "A", "SF2": "B"}
    bracket = advance(bracket, results)
    assert placements(bracket)["D"] == placements(bracket)["C"] == 3
    results |= {"F": "B", "3P": "C"}
    places = placements(advance(bracket, results))
    assert [places[e] for e in "BACD"] == [1, 2, 3, 4]
