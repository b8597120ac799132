"""The planning forecast's pure core: game durations under the clock, rounds of play on the
boards, and the orderings an organizer relies on when comparing days."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulation.planning.forecast import (
    Day,
    Field,
    Format,
    clock_time,
    forecast,
    formats_of,
    game_durations,
    logistic_sampler,
    round_length,
    summarise,
)


def _field(n: int, seed: int = 1) -> Field:
    rng = np.random.default_rng(seed)
    levels = rng.uniform(2.0, 9.0, n)
    return Field(levels, np.full(n, 0.8), np.interp(levels, [1.8, 9.0], [14.0, 9.0]))


def _day(boards: int = 20, minutes: float | None = 20.0) -> Day:
    return Day(boards=boards, start=9 * 60, end=18 * 60, game_minutes=minutes)


def test_untimed_game_lasts_all_its_shots_and_cuts_nothing():
    rng = np.random.default_rng(0)
    seconds, cut = game_durations(
        np.full(500, 10.0),
        np.full(500, 10.0),
        np.full(500, 4),
        shots_per_round=16,
        limit_minutes=None,
        rng=rng,
    )
    assert (cut == 0).all()
    # 64 shots of 10 s on average, times the lognormal's mean (exp(0.3**2 / 2) ~ 1.046).
    assert 640 < seconds.mean() < 700


def test_a_tight_clock_cuts_rounds_and_stops_near_the_limit():
    rng = np.random.default_rng(0)
    seconds, cut = game_durations(
        np.full(300, 12.0),
        np.full(300, 12.0),
        np.full(300, 4),
        shots_per_round=16,
        limit_minutes=6.0,
        rng=rng,
    )
    assert (cut >= 2).all()  # 6 minutes hold about 30 shots of 12 s: half the game
    assert (cut <= 3).all()
    # The buzzer at 360 s, plus at most one equalising shot.
    assert (seconds >= 360).all() and (seconds < 360 + 60).all()


def test_rounds_of_play_take_slots_when_boards_are_short():
    durations = np.array([[10.0, 20.0, 30.0, 40.0]])
    assert round_length(durations, 4)[0] == 40.0
    assert round_length(durations, 2)[0] == 40.0 + 20.0
    assert round_length(durations, 1)[0] == 100.0


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(8, 60),
    boards=st.integers(1, 30),
    extra=st.integers(1, 10),
    seed=st.integers(0, 10_000),
)
def test_more_boards_never_finish_later_on_the_same_seed(n, boards, extra, seed):
    field = _field(n, seed)
    fmt = Format(4, min(8, n), 3)
    few = forecast(field, fmt, _day(boards), sampler=logistic_sampler(), repetitions=20, seed=seed)
    more = forecast(
        field, fmt, _day(boards + extra), sampler=logistic_sampler(), repetitions=20, seed=seed
    )
    for a, b in zip(few.stages, more.stages, strict=True):
        assert (b.finish <= a.finish + 1e-9).all()
    assert np.percentile(more.finish, 90) <= np.percentile(few.finish, 90) + 1e-9


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(8, 40),
    minutes=st.floats(3.0, 25.0),
    longer=st.floats(0.5, 20.0),
    seed=st.integers(0, 10_000),
)
def test_a_longer_clock_cuts_fewer_rounds(n, minutes, longer, seed):
    field = _field(n, seed)
    fmt = Format(3, min(8, n), 3)
    tight = forecast(
        field, fmt, _day(10, minutes), sampler=logistic_sampler(), repetitions=20, seed=seed
    )
    loose = forecast(
        field,
        fmt,
        _day(10, minutes + longer),
        sampler=logistic_sampler(),
        repetitions=20,
        seed=seed,
    )
    for a, b in zip(tight.stages, loose.stages, strict=True):
        assert (b.rounds_cut <= a.rounds_cut).all()
        assert (b.games_cut <= a.games_cut).all()


@settings(max_examples=20, deadline=None)
@given(n=st.integers(12, 80), boards=st.integers(1, 40), seed=st.integers(0, 10_000))
def test_ten_preliminary_games_take_longer_than_eight(n, boards, seed):
    field = _field(n, seed)
    eight = forecast(
        field, Format(8, 0, 1), _day(boards), sampler=logistic_sampler(), repetitions=20, seed=seed
    )
    ten = forecast(
        field, Format(10, 0, 1), _day(boards), sampler=logistic_sampler(), repetitions=20, seed=seed
    )
    assert (ten.finish > eight.finish).all()


def test_best_of_five_plays_more_games_than_best_of_three():
    field = _field(100)
    three = forecast(field, Format(8, 16, 3), _day(), sampler=logistic_sampler(), seed=5)
    five = forecast(field, Format(8, 16, 5), _day(), sampler=logistic_sampler(), seed=5)
    assert three.stages[1].rounds == five.stages[1].rounds == 4  # 16, 8, 4, 2
    assert 30 <= three.stages[1].games.mean() < five.stages[1].games.mean() <= 75
    # 24 to the playoffs: a round of 24 (8 matches, 8 byes), then 16, 8, 4, 2.
    wide = forecast(field, Format(8, 24, 3), _day(), sampler=logistic_sampler(), seed=5)
    assert wide.stages[1].rounds == 5


def test_the_summary_reads_the_day_against_its_end():
    field = _field(100)
    day = Day(boards=10, start=9 * 60, end=12 * 60, game_minutes=20)
    row = summarise(forecast(field, Format(8, 16, 3), day, sampler=logistic_sampler()), day)
    assert row["p_overrun"] == 1.0  # 8 rounds of 5 slots cannot end by noon
    assert row["stages"][0]["median"] < row["median"] <= row["p90"]
    assert sum(row["stages"][0]["histogram"]["counts"]) == 200
    assert row["games"] > 400


def test_formats_and_clock_times():
    keys = [f.key for f in formats_of([8, 10], [16, 0], [3, 5])]
    assert keys == ["p8-k16-b3", "p8-k16-b5", "p8-k0-b1", "p10-k16-b3", "p10-k16-b5", "p10-k0-b1"]
    assert clock_time(9 * 60 + 5.4) == "09:05"
    assert clock_time(24 * 60 + 30) == "00:30 (+1)"
