"""The pure counts behind profiles and leaderboards (``scoring.engine.record_stats``) and the
rating chart's drawing (``tournaments.svg.rating_chart``): examples, and properties over any
record Hypothesis makes."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine.record_stats import (
    MIN_ROUNDS,
    Performance,
    RateLine,
    Streak,
    best_rates,
    longest_streak,
    most_twenties,
    side_game,
    side_rounds,
    summarise,
    top_streaks,
)
from tournaments.svg.rating_chart import (
    MAX_DOTS,
    ChartPoint,
    date_ticks,
    nice_step,
    rating_chart_svg,
)

SVG = "{http://www.w3.org/2000/svg}"

# Examples --------------------------------------------------------------------------------------


def test_the_hammer_is_the_side_that_did_not_shoot_first():
    rounds = [[2, 0, 3, 1, 1], [0, 2, 0, 2, 0], [1, 1, 1, 1], [2, 0, 1, 0, None]]
    a = side_rounds(rounds, 0)
    b = side_rounds(rounds, 1)
    assert [r.hammer for r in a] == [True, False, None, None]
    assert [r.hammer for r in b] == [False, True, None, None]
    assert (b[0].points_for, b[0].points_against, b[0].twenties_for) == (0, 2, 1)


def test_a_short_or_empty_round_line_counts_its_missing_numbers_as_zero():
    (r,) = side_rounds([[2, None]], 0)
    assert (r.points_for, r.points_against, r.twenties_for, r.hammer) == (2, 0, 0, None)


def test_a_game_seen_from_each_side():
    rounds = [[2, 0, 3, 1, 1], [2, 0, 2, 0, 0], [2, 0, 2, 0, 1], [0, 2, 0, 2, 0]]
    a = summarise([side_game(0, (6, 2), (7, 3), rounds)])
    b = summarise([side_game(1, (6, 2), (7, 3), rounds)])
    assert (a.wins, a.losses, b.wins, b.losses) == (1, 0, 0, 1)
    assert (a.rounds_won, a.rounds_lost, a.rounds) == (3, 1, 4)
    # A shot second (had the hammer) in rounds 1 and 3 and won both; shot first in 2 and 4,
    # winning round 2.
    assert (a.hammer_rounds, a.won_with_hammer) == (2, 2)
    assert (a.no_hammer_rounds, a.won_without_hammer) == (2, 1)
    assert (b.hammer_rounds, b.won_with_hammer, b.won_without_hammer) == (2, 1, 0)
    assert a.twenties_per_round == 7 / 4
    assert b.twenties_per_round == 3 / 4
    assert a.hammer_win_rate == 1.0 and a.no_hammer_win_rate == 0.5


def test_a_round_time_ran_out_on_counts_in_no_round_total():
    rounds = [[2, 0, 2, 0], [0, 0, 0, 0], [1, 1, 1, 1]]
    s = summarise([side_game(0, (3, 1), (3, 1), rounds)])
    assert s.rounds == 2
    assert (s.rounds_won, s.rounds_tied, s.rounds_lost) == (1, 1, 0)
    assert s.twenties_per_round == 1.5


def test_a_game_of_totals_only_counts_as_a_game_but_not_per_round():
    s = summarise([side_game(0, (5, 3), (9, 4))])
    assert (s.games, s.wins, s.twenties, s.rounds) == (1, 1, 9, 0)
    assert s.twenties_per_round is None


def test_a_draw_breaks_a_win_streak():
    outcomes = ["win", "win", "draw", "win", "win", "win", "loss", "win"]
    assert longest_streak(outcomes) == Streak(3, 3, 5)
    assert longest_streak(["draw", "loss"]) == Streak()
    # Of equal runs the earliest is kept.
    assert longest_streak(["win", "loss", "win"]) == Streak(1, 0, 0)


def test_most_twenties_prefers_fewer_rounds_then_the_earlier_game():
    day = date(2016, 5, 1)
    games = [
        Performance("late", 1, 12, 4, day + timedelta(days=3)),
        Performance("five rounds", 2, 12, 5, day),
        Performance("early", 3, 12, 4, day),
        Performance("most", 4, 13, 5, day),
    ]
    assert [p.who for p in most_twenties(games)] == ["most", "early", "late", "five rounds"]
    assert len(most_twenties(games, limit=2)) == 2


def test_best_rates_need_the_minimum_of_rounds():
    lines = [RateLine("few", 30, MIN_ROUNDS - 1), RateLine("a", 80, 40), RateLine("b", 160, 80)]
    best = best_rates(lines)
    # "few" has the best rate but too few rounds; a and b tie at 2.0: more rounds first.
    assert [line.who for line in best] == ["b", "a"]


def test_top_streaks_leave_out_people_without_a_win_and_keep_the_given_order_of_ties():
    streaks = [("x", Streak(2, 0, 1)), ("y", Streak()), ("z", Streak(2, 3, 4)), ("w", Streak(5))]
    assert [who for who, _ in top_streaks(streaks)] == ["w", "x", "z"]


# Properties ------------------------------------------------------------------------------------

points = st.sampled_from([(2, 0), (0, 2), (1, 1), (0, 0)])
a_round = st.tuples(
    points,
    st.integers(0, 8),
    st.integers(0, 8),
    st.one_of(st.none(), st.sampled_from([0, 1])),
    st.booleans(),
).map(
    lambda t: [t[0][0], t[0][1], t[1], t[2]] + ([t[3]] if t[4] else [])  # first may be absent
)
a_game = st.lists(a_round, min_size=0, max_size=7)


def _totals(rounds):
    return (
        (sum(r[0] for r in rounds), sum(r[1] for r in rounds)),
        (sum(r[2] for r in rounds), sum(r[3] for r in rounds)),
    )


@given(st.lists(a_game, max_size=30), st.sampled_from([0, 1]))
def test_rounds_won_with_and_without_the_hammer_add_up_to_rounds_won(games, side):
    s = summarise(side_game(side, *_totals(g), g) for g in games)
    assert s.won_with_hammer + s.won_without_hammer + s.won_hammer_unknown == s.rounds_won
    assert s.rounds_won + s.rounds_tied + s.rounds_lost == s.rounds
    assert s.wins + s.draws + s.losses == s.games == len(games)
    assert s.won_with_hammer <= s.hammer_rounds and s.won_without_hammer <= s.no_hammer_rounds


@given(st.lists(a_game, max_size=30))
def test_a_streak_never_exceeds_the_games_won(games):
    s = summarise(side_game(0, *_totals(g), g) for g in games)
    assert 0 <= s.longest_streak <= s.wins


@given(st.lists(a_game, max_size=30))
def test_both_sides_of_the_same_games_mirror_each_other(games):
    a = summarise(side_game(0, *_totals(g), g) for g in games)
    b = summarise(side_game(1, *_totals(g), g) for g in games)
    assert (a.wins, a.draws, a.losses) == (b.losses, b.draws, b.wins)
    assert (a.rounds_won, a.rounds_tied) == (b.rounds_lost, b.rounds_tied)
    assert a.round_twenties == b.round_twenties_against
    # In a round whose first shooter is known exactly one side had the hammer.
    assert a.hammer_rounds == b.no_hammer_rounds and a.no_hammer_rounds == b.hammer_rounds


@given(st.lists(st.sampled_from(["win", "draw", "loss"]), max_size=40))
def test_the_longest_streak_is_the_longest_run_of_wins(outcomes):
    streak = longest_streak(outcomes)
    text = "".join("w" if o == "win" else "." for o in outcomes)
    assert streak.length == max((len(run) for run in text.split(".")), default=0)
    if streak.length:
        assert outcomes[streak.start : streak.end + 1] == ["win"] * streak.length


# The rating chart ------------------------------------------------------------------------------


def _points(count: int, start: date = date(2012, 3, 1), step: int = 9) -> list[ChartPoint]:
    return [
        ChartPoint(start + timedelta(days=step * i), 1500 + 10 * (i % 7), 300 - i)
        for i in range(count)
    ]


def test_the_chart_scales_and_draws_line_band_and_dates():
    svg = ET.fromstring(rating_chart_svg(_points(30), title="Anna <&> Ben"))
    assert svg.get("viewBox") == "0 0 720 260"
    assert svg.get("width") is None  # it takes the width of its frame
    assert svg.find(f"{SVG}title").text == "Anna <&> Ben"
    band = svg.find(f"{SVG}polygon").get("points").split()
    line = svg.find(f"{SVG}polyline").get("points").split()
    assert len(band) == 2 * len(line) == 60
    assert len(svg.findall(f"{SVG}circle")) == 30
    labels = [t.text for t in svg.iter(f"{SVG}text")]
    assert {"2012-03", "2012-05"} <= set(labels)  # months over a span of about nine months


def test_the_phone_chart_is_360_wide_and_a_long_history_has_no_dots_but_the_last():
    svg = ET.fromstring(rating_chart_svg(_points(MAX_DOTS + 40), layout="phone"))
    assert svg.get("viewBox").split()[2] == "360"
    assert len(svg.findall(f"{SVG}circle")) == 1


def test_an_empty_chart_says_so():
    svg = ET.fromstring(rating_chart_svg([]))
    assert "No rated game yet." in [t.text for t in svg.iter(f"{SVG}text")]


def test_the_baseline_is_drawn_only_inside_the_picture():
    inside = ET.fromstring(rating_chart_svg(_points(5), baseline=1500))
    outside = ET.fromstring(rating_chart_svg(_points(5), baseline=9000))
    assert inside.find(f"{SVG}line[@class='baseline']") is not None
    assert outside.find(f"{SVG}line[@class='baseline']") is None


def test_date_ticks_by_years_months_or_days():
    years = date_ticks(date(2009, 6, 6), date(2017, 9, 1), 8)
    assert [label for _, label in years] == [str(y) for y in range(2010, 2018)]
    assert len(date_ticks(date(2009, 6, 6), date(2017, 9, 1), 4)) <= 4
    months = date_ticks(date(2016, 1, 15), date(2016, 6, 30), 8)
    assert [label for _, label in months] == ["2016-02", "2016-03", "2016-04", "2016-05", "2016-06"]
    days = date_ticks(date(2016, 5, 1), date(2016, 5, 3), 8)
    assert [label for _, label in days] == ["05-01", "05-02", "05-03"]


@given(st.floats(0.5, 5000), st.integers(2, 10))
def test_nice_steps_are_round_and_cut_the_extent_into_few_parts(extent, ticks):
    step = nice_step(extent, ticks)
    assert extent / step <= ticks - 1 + 1e-9
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in {1, 2, 2.5, 5}
