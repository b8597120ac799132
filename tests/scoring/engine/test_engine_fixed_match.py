"""A fixed match of N games (WCC Scoring: "The number of games in a 'match' is normally 10"):
every game is played, the total points decide, and a level total is a drawn match."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import (
    BEST_OF,
    FIXED,
    MATCH_FORMATS,
    EngineInputError,
    GameRules,
    GameVerdict,
    Round,
    check_match_format,
    decided_early,
    judge_game,
    judge_match,
)
from tournaments.models import Stage

WIN, TIE, LOSS = (2, 0), (1, 1), (0, 2)
NCA = GameRules()


def game(*points: tuple[int, int]) -> GameVerdict:
    return judge_game([Round(points=p, twenties=(0, 0)) for p in points], NCA)


WON_8_0 = game(WIN, WIN, WIN, WIN)
WON_6_2 = game(WIN, WIN, WIN, LOSS)
LOST_2_6 = game(LOSS, LOSS, LOSS, WIN)
LOST_0_8 = game(LOSS, LOSS, LOSS, LOSS)
DRAWN = game(TIE, TIE, TIE, TIE)
HALF_PLAYED = game(WIN, WIN)


def test_a_fixed_ten_game_match_is_won_on_points_not_on_games_won():
    """Entry A wins 6 of the 10 games 6-2 and loses 4 of them 0-8: 6 games to 4, yet 36 points
    to 44. Best of 10 does not exist; as a fixed match, B wins on points."""
    games = [WON_6_2] * 6 + [LOST_0_8] * 4
    verdict = judge_match(games, 10, FIXED)
    assert verdict.over and verdict.games_played == 10 and verdict.games_needed == 10
    assert verdict.wins == (6, 4)
    assert verdict.points == (6 * 6 + 0 * 4, 6 * 2 + 8 * 4) == (36, 44)
    assert verdict.winner == 1 and not verdict.drawn and verdict.match_format == FIXED


def test_a_fixed_match_is_not_over_before_its_last_game_however_big_the_lead():
    """Every game is played: 8-0 in each of the first 9 games still leaves the 10th to play."""
    verdict = judge_match([WON_8_0] * 9, 10, FIXED)
    assert not verdict.over and verdict.winner is None and verdict.games_played == 9
    assert verdict.points == (72, 0)
    # A best of 3 is decided by its first two games; a fixed match of 3 is not.
    assert judge_match([WON_8_0, WON_8_0], 3, BEST_OF).over
    assert not judge_match([WON_8_0, WON_8_0], 3, FIXED).over
    assert judge_match([WON_8_0, WON_8_0, LOST_0_8], 3, FIXED).winner == 0


def test_a_fixed_match_level_on_points_is_drawn_for_an_even_or_an_odd_n():
    """Level totals are possible whatever N: games won and lost by the same margins, or a
    drawn game. Nothing in the match breaks the tie (the standings do, from the games)."""
    even = judge_match([WON_6_2, LOST_2_6], 2, FIXED)
    assert even.over and even.drawn and even.points == (8, 8) and even.wins == (1, 1)
    odd = judge_match([WON_6_2, LOST_2_6, DRAWN], 3, FIXED)
    assert odd.over and odd.drawn and odd.points == (12, 12)
    assert judge_match([DRAWN], 1, FIXED).drawn


def test_a_fixed_match_refuses_a_game_too_many_and_a_game_after_an_unfinished_one():
    with pytest.raises(EngineInputError, match="game 3 is one too many for a fixed match of 2"):
        judge_match([WON_8_0, WON_8_0, WON_8_0], 2, FIXED)
    with pytest.raises(EngineInputError, match="game 1 is unfinished, yet a later game"):
        judge_match([HALF_PLAYED, WON_8_0], 2, FIXED)
    in_play = judge_match([WON_8_0, HALF_PLAYED], 2, FIXED)
    assert in_play.games_played == 1 and in_play.points == (8, 0) and not in_play.over


@pytest.mark.parametrize("games", [0, -1, True, 2.0, "10"])
def test_bad_numbers_of_games_and_formats_are_refused_with_words(games):
    with pytest.raises(EngineInputError, match="whole number of games of at least 1"):
        judge_match([], games, FIXED)
    with pytest.raises(EngineInputError, match='unknown match format "first-to-6"'):
        check_match_format("first-to-6", 10)


def test_only_a_best_of_n_is_decided_before_its_last_game():
    assert decided_early((2, 0), 3, BEST_OF) and not decided_early((1, 1), 3, BEST_OF)
    assert not decided_early((9, 0), 10, FIXED)
    with pytest.raises(EngineInputError, match="unknown match format"):
        decided_early((0, 0), 3, "fixd")


def test_the_models_store_the_formats_the_judge_knows():
    assert tuple(Stage.MatchFormat.values) == MATCH_FORMATS


GAMES = st.sampled_from([WON_8_0, WON_6_2, LOST_2_6, LOST_0_8, DRAWN])


@given(st.integers(min_value=1, max_value=12), st.lists(GAMES, max_size=12))
def test_a_fixed_match_is_over_exactly_when_all_n_games_are_and_won_on_points(count, played):
    """Property: with any N and any finished games up to N, the match is over exactly when all
    N are, and then won by the side with more points (drawn when level); never before."""
    played = played[:count]
    verdict = judge_match(played, count, FIXED)
    a = sum(g.points[0] for g in played)
    b = sum(g.points[1] for g in played)
    assert verdict.points == (a, b)
    assert verdict.over == (len(played) == count)
    if verdict.over:
        assert verdict.winner == (None if a == b else 0 if a > b else 1)
    else:
        assert verdict.winner is None
    assert verdict.wins == (
        sum(g.winner == 0 for g in played),
        sum(g.winner == 1 for g in played),
    )
