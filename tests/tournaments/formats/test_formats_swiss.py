"""Swiss rounds: no rematches, equal scores together, the bye to the lowest without one."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import Pairing, SwissStanding, check_rounds, played_pairs, swiss_round


def perfect_matchings(players):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, partner in enumerate(rest):
        for others in perfect_matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, partner), *others]


def gap_cost(pairs, score):
    return sum((score[a] - score[b]) ** 2 for a, b in pairs)


def standings_from(scores: dict[str, int]) -> list[SwissStanding]:
    order = sorted(scores, key=lambda e: (-scores[e], e))
    return [SwissStanding(e, scores[e]) for e in order]


@given(
    st.integers(min_value=2, max_value=9),
    st.integers(min_value=1, max_value=4),
    st.integers(min_value=0, max_value=10**6),
)
@settings(max_examples=120, deadline=None)
def test_rounds_never_repeat_a_pairing_and_keep_score_gaps_smallest(count, rounds, seed):
    rng = random.Random(seed)
    entries = [f"E{i}" for i in range(count)]
    score = dict.fromkeys(entries, 0)
    previous = []
    for _ in range(rounds):
        standings = standings_from(score)
        try:
            rnd = swiss_round(standings, previous)
        except ValueError:
            # Only allowed when truly no rematch-free round exists.
            met = played_pairs(previous)
            assert not any(
                all(frozenset(p) not in met for p in pairs)
                for bye in (entries if count % 2 else [None])
                for pairs in perfect_matchings([e for e in entries if e != bye])
            )
            return
        previous.append(rnd)
        check_rounds(previous)
        # Score-adjacent: no rematch-free pairing of the same players has smaller squared gaps.
        pairs = [(p.a, p.b) for p in rnd if p.b is not None]
        players = [e for p in pairs for e in p]
        met_before = played_pairs(previous[:-1])
        best = min(
            gap_cost(candidate, score)
            for candidate in perfect_matchings(players)
            if all(frozenset(p) not in met_before for p in candidate)
        )
        assert gap_cost(pairs, score) == best
        for p in rnd:
            if p.b is None:
                score[p.a] += 2
            else:
                outcome = rng.choice([(2, 0), (1, 1), (0, 2)])
                score[p.a] += outcome[0]
                score[p.b] += outcome[1]


def test_equal_scores_pair_neighbours_in_rank_top_board_first():
    standings = [SwissStanding(e, 4) for e in "ABCD"] + [SwissStanding(e, 2) for e in "EFGH"]
    assert swiss_round(standings) == [
        Pairing("A", "B"),
        Pairing("C", "D"),
        Pairing("E", "F"),
        Pairing("G", "H"),
    ]


def test_an_odd_score_group_floats_its_lowest_entry_down_one_group():
    standings = [SwissStanding(e, 4) for e in "ABC"] + [SwissStanding(e, 2) for e in "DEF"]
    assert swiss_round(standings) == [Pairing("A", "B"), Pairing("C", "D"), Pairing("E", "F")]


def test_a_rematch_is_avoided_even_at_the_cost_of_a_score_gap():
    standings = [SwissStanding(e, s) for e, s in [("A", 4), ("B", 4), ("C", 2), ("D", 2)]]
    previous = [[Pairing("A", "B"), Pairing("C", "D")]]
    assert swiss_round(standings, previous) == [Pairing("A", "C"), Pairing("B", "D")]


def test_one_big_score_gap_costs_more_than_smaller_ones_spread_out():
    """Squared gaps: 2, 8 and 1 (69) beat 9, 0 and 0 (81) although the plain sum is larger."""
    scores = [("A", 10), ("B", 8), ("C", 8), ("D", 1), ("E", 0), ("F", 0)]
    standings = [SwissStanding(e, s) for e, s in scores]
    previous = [[Pairing("A", "C")], [Pairing("C", "D")], [Pairing("D", "F")]]
    assert swiss_round(standings, previous) == [
        Pairing("A", "B"),
        Pairing("C", "F"),
        Pairing("D", "E"),
    ]


def test_the_bye_goes_to_the_lowest_ranked_entry_without_one():
    standings = [SwissStanding(e, s) for e, s in [("A", 4), ("B", 2), ("C", 2), ("D", 0), ("E", 0)]]
    assert swiss_round(standings)[-1] == Pairing("E", None)
    previous = [[Pairing("A", "B"), Pairing("C", "D"), Pairing("E", None)]]
    rnd = swiss_round(standings, previous)
    assert rnd[-1] == Pairing("D", None)
    check_rounds([*previous, rnd])


def test_the_bye_moves_up_when_the_rest_could_not_be_paired_without_a_rematch():
    standings = [SwissStanding(e, 0) for e in "ABC"]
    previous = [[Pairing("A", "B"), Pairing("C", None)]]
    # C already had a bye; B is next from the bottom, leaving A v C.
    assert swiss_round(standings, previous) == [Pairing("A", "C"), Pairing("B", None)]
    previous.append([Pairing("A", "C"), Pairing("B", None)])
    # C and B have had byes; A takes it, and B v C is the only pairing left.
    assert swiss_round(standings, previous) == [Pairing("B", "C"), Pairing("A", None)]


def test_no_rematch_free_round_raises_or_falls_back_to_fewest_rematches():
    standings = [SwissStanding(e, 0) for e in "ABCD"]
    previous = [
        [Pairing("A", "B"), Pairing("C", "D")],
        [Pairing("A", "C"), Pairing("B", "D")],
        [Pairing("A", "D"), Pairing("B", "C")],
    ]
    with pytest.raises(ValueError, match="rematch"):
        swiss_round(standings, previous)
    fallback = swiss_round(standings, previous, allow_rematches=True)
    assert sorted(e for p in fallback for e in p.entries) == ["A", "B", "C", "D"]
    assert len(fallback) == 2


def test_fallback_uses_as_few_rematches_as_possible():
    standings = [SwissStanding(e, 0) for e in "ABCDEF"]
    # Everyone has met everyone except A-F and B-E: one rematch (C-D) is unavoidable.
    met = [
        (a, b)
        for a in "ABCDEF"
        for b in "ABCDEF"
        if a < b and (a, b) not in {("A", "F"), ("B", "E")}
    ]
    previous = [[Pairing(a, b)] for a, b in met]
    rnd = swiss_round(standings, previous, allow_rematches=True)
    assert {frozenset(p.entries) for p in rnd} == {
        frozenset("AF"),
        frozenset("BE"),
        frozenset("CD"),
    }


def test_a_swiss_round_needs_two_distinct_entries():
    with pytest.raises(ValueError):
        swiss_round([SwissStanding("A", 0)])
    with pytest.raises(ValueError, match="listed twice"):
        swiss_round([SwissStanding("A", 0), SwissStanding("A", 1)])
