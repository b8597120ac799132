"""Berger tables, and seeding a ranked field into pools in snake order with clubs kept apart."""

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    berger_rounds,
    berger_table,
    check_rounds,
    club_conflicts,
    pool_label,
    snake_pools,
    snake_slots,
)


def names(count: int) -> list[str]:
    return [f"P{i:02d}" for i in range(1, count + 1)]


def test_berger_table_for_six_matches_the_published_table():
    """The FIDE Berger table for 5-6 players, round by round, first-named starting."""
    assert berger_table(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_berger_table_for_eight_second_round_matches_the_published_table():
    assert berger_table(8)[1] == [(8, 5), (6, 4), (7, 3), (1, 2)]


@given(st.integers(min_value=2, max_value=30))
def test_each_pair_meets_exactly_once_and_nobody_plays_twice_in_a_round(count):
    entries = names(count)
    rounds = berger_rounds(entries)
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    check_rounds(rounds)
    meetings = Counter(frozenset(p.entries) for rnd in rounds for p in rnd if not p.is_bye)
    assert len(meetings) == count * (count - 1) // 2
    assert set(meetings.values()) == {1}
    for rnd in rounds:
        assert sorted(e for p in rnd for e in p.entries) == sorted(entries)


@given(st.integers(min_value=3, max_value=29).filter(lambda n: n % 2))
def test_the_dummy_gives_every_entry_of_an_odd_field_exactly_one_bye(count):
    rounds = berger_rounds(names(count))
    byes = Counter(p.a for rnd in rounds for p in rnd if p.is_bye)
    assert byes == Counter(names(count))


@given(st.integers(min_value=2, max_value=24))
def test_double_round_robin_meets_twice_and_swaps_who_starts(count):
    entries = names(count)
    single = berger_rounds(entries)
    double = berger_rounds(entries, double=True)
    assert len(double) == 2 * len(single)
    check_rounds(double, meetings=2)
    meetings = Counter(frozenset(p.entries) for rnd in double for p in rnd if not p.is_bye)
    assert set(meetings.values()) == {2}
    for first, second in zip(double[: len(single)], double[len(single) :], strict=True):
        for p, q in zip(first, second, strict=True):
            assert (q.a, q.b) == ((p.b, p.a) if p.b else (p.a, None))


@given(st.integers(min_value=1, max_value=15).map(lambda n: 2 * n))
def test_berger_tables_balance_who_starts(count):
    """Every entry starts n/2 or n/2 - 1 of its n - 1 games."""
    starts = Counter(p.a for rnd in berger_rounds(names(count)) for p in rnd)
    assert set(starts.values()) <= {count // 2, count // 2 - 1}
    assert sum(starts.values()) == count * (count - 1) // 2


def test_snake_seeds_the_wcc_top_sixteen_into_two_pools_of_eight():
    """WCC: the top 16 split into two pools: 1A, 2B, 3B, 4A, 5A, 6B, ..."""
    ranked = [str(seed) for seed in range(1, 17)]
    pool_a, pool_b = snake_pools(ranked, 2)
    assert pool_a == ["1", "4", "5", "8", "9", "12", "13", "16"]
    assert pool_b == ["2", "3", "6", "7", "10", "11", "14", "15"]


@given(st.integers(min_value=1, max_value=80), st.integers(min_value=1, max_value=9))
def test_snake_gives_every_pool_one_entry_per_tier_in_serpentine_order(count, pools):
    if count < pools:
        with pytest.raises(ValueError):
            snake_pools(names(count), pools)
        return
    slots = snake_slots(count, pools)
    result = snake_pools(names(count), pools)
    sizes = [len(pool) for pool in result]
    assert max(sizes) - min(sizes) <= 1
    for tier_start in range(0, count, pools):
        tier = slots[tier_start : tier_start + pools]
        assert len(set(tier)) == len(tier)
        expected = (
            list(range(pools)) if (tier_start // pools) % 2 == 0 else list(range(pools))[::-1]
        )
        assert tier == expected[: len(tier)]
    for pool_index, pool in enumerate(result):
        assert pool == [names(count)[rank] for rank, slot in enumerate(slots) if slot == pool_index]


def tiers_of(ranked, pools):
    return [ranked[start : start + pools] for start in range(0, len(ranked), pools)]


def brute_force_min_conflicts(ranked, pools, clubs):
    """Try every permutation of every tier's snake slots."""
    slots = snake_slots(len(ranked), pools)
    tier_slots = tiers_of(slots, pools)
    tier_entries = tiers_of(ranked, pools)
    best = None
    for choice in itertools.product(*(itertools.permutations(s) for s in tier_slots)):
        arrangement = [[] for _ in range(pools)]
        for entries, order in zip(tier_entries, choice, strict=True):
            for entry, slot in zip(entries, order, strict=True):
                arrangement[slot].append(entry)
        conflicts = club_conflicts(arrangement, clubs)
        best = conflicts if best is None else min(best, conflicts)
    return best


@st.composite
def clubbed_fields(draw):
    pools = draw(st.integers(min_value=2, max_value=3))
    count = draw(st.integers(min_value=pools, max_value=4 * pools if pools == 2 else 3 * pools))
    ranked = names(count)
    club_names = draw(st.lists(st.sampled_from("XYZW-"), min_size=count, max_size=count))
    clubs = {e: (c if c != "-" else None) for e, c in zip(ranked, club_names, strict=True)}
    return ranked, pools, clubs


@given(clubbed_fields())
@settings(max_examples=150)
def test_club_mates_are_separated_whenever_a_tier_swap_allows_it(case):
    ranked, pools, clubs = case
    result = snake_pools(ranked, pools, clubs)
    assert club_conflicts(result, clubs) == brute_force_min_conflicts(ranked, pools, clubs)
    # Still a snake up to swaps inside a tier: each pool has one entry of every full tier.
    slots = snake_slots(len(ranked), pools)
    pool_of = {e: i for i, pool in enumerate(result) for e in pool}
    for tier_entries, tier_slots in zip(
        tiers_of(ranked, pools), tiers_of(slots, pools), strict=True
    ):
        assert sorted(pool_of[e] for e in tier_entries) == sorted(tier_slots)


def test_two_club_mates_seeded_into_one_pool_are_swapped_within_their_tier():
    ranked = [str(seed) for seed in range(1, 17)]
    clubs = {"1": "Tavistock", "4": "Tavistock"}  # the plain snake puts 1 and 4 in pool A
    pool_a, pool_b = snake_pools(ranked, 2, clubs)
    assert "1" in pool_a and "4" in pool_b and "3" in pool_a
    assert club_conflicts([pool_a, pool_b], clubs) == 0
    # Nothing else moves.
    assert sorted(pool_a) == sorted(["1", "3", "5", "8", "9", "12", "13", "16"])


def test_large_fields_are_never_worse_than_the_plain_snake():
    ranked = names(64)
    clubs = {e: "XYZWVU"[i % 6] if i % 5 else None for i, e in enumerate(ranked)}
    plain = snake_pools(ranked, 8)
    separated = snake_pools(ranked, 8, clubs)
    assert club_conflicts(separated, clubs) < club_conflicts(plain, clubs)
    assert sorted(e for pool in separated for e in pool) == sorted(ranked)


def test_pool_labels():
    assert [pool_label(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
    ]


@pytest.mark.parametrize("call", [lambda: berger_rounds(["A"]), lambda: berger_table(5)])
def test_impossible_round_robins_are_refused(call):
    with pytest.raises(ValueError):
        call()
