"""Scoring systems by name: round points, totals, game over and winner."""

import pytest

from scoring.engine import SYSTEMS, EngineInputError, get_system


def test_registry_names():
    assert set(SYSTEMS) == {
        "nca",
        "difference-to-100",
        "match-play-to-8",
        "three-player",
        "first-to-N",
    }


def test_unknown_system_is_refused():
    with pytest.raises(EngineInputError, match="unknown scoring system 'bowls'"):
        get_system("bowls")


# --- nca ------------------------------------------------------------------------------------------


def test_nca_2a_iv_round_points_and_2b_four_round_game():
    """NCA 2a iv: 2 points to the higher score, 1 each for a tie; NCA 2b: 4 rounds a game."""
    nca = get_system("nca")
    state = nca.play([(65, 40), (50, 50), (30, 45)])
    assert state.round_points == ((2, 0), (1, 1), (0, 2))
    assert state.totals == (3, 3)
    assert not state.over
    state = nca.play([(65, 40), (50, 50), (30, 45), (80, 10)])
    assert state.over and state.winner == 0 and state.totals == (5, 3)


def test_nca_game_drawn_after_four_rounds_outside_a_championship():
    state = get_system("nca").play([(65, 40), (40, 65), (50, 50), (50, 50)])
    assert state.over and state.winner is None


def test_nca_no_round_after_the_game_is_over():
    with pytest.raises(
        EngineInputError, match="round 5 is one too many: the game was over after round 4"
    ):
        get_system("nca").play([(65, 40)] * 5)


def test_wcc_championship_fifth_round():
    """WCC Scoring: a championship game tied after 4 rounds plays a 5th round."""
    playoff = get_system("nca", playoff=True)
    tied = [(65, 40), (40, 65), (50, 50), (50, 50)]
    assert not playoff.play(tied).over
    state = playoff.play([*tied, (20, 35)])
    assert state.over and state.winner == 1 and state.totals == (4, 6)


def test_wcc_time_expired_round_scores_zero_each():
    """WCC Tournament Scoring Information: no disc shot before time expired: zero each."""
    state = get_system("nca").play([(65, 40), None])
    assert state.round_points == ((2, 0), (0, 0))


def test_board_scores_must_be_multiples_of_five_one_per_side():
    with pytest.raises(EngineInputError, match="round 2: board scores"):
        get_system("nca").play([(65, 40), (42, 40)])
    with pytest.raises(EngineInputError, match="one per side"):
        get_system("nca").play([(65, 40, 5)])


# --- difference-to-100 ----------------------------------------------------------------------------


def test_family_rulebook_scoring_5_winner_adds_the_difference():
    """Family rulebook Scoring 5: "Only the difference between the higher and lower scores is
    added to the score of the winning player ... In the event of a tie, neither ... adds"."""
    system = get_system("difference-to-100")
    state = system.play([(85, 30), (20, 45), (50, 50)])
    assert state.round_points == ((55, 0), (0, 25), (0, 0))
    assert state.totals == (55, 25)
    assert not state.over


def test_family_rulebook_scoring_6_play_to_100():
    """Family rulebook Scoring 6: "Play to 100 points"."""
    system = get_system("difference-to-100")
    state = system.play([(85, 30), (60, 15)])
    assert state.totals == (100, 0)
    assert state.over and state.winner == 0
    with pytest.raises(EngineInputError, match="one too many: the game was over"):
        system.play([(85, 30), (60, 15), (10, 0)])


def test_difference_target_is_a_parameter():
    state = get_system("difference-to-100", target=50).play([(85, 30)])
    assert state.over and state.winner == 0


# --- match-play-to-8 ------------------------------------------------------------------------------


def test_family_rulebook_match_play_rule_two_one_zero_to_eight():
    """Family rulebook, Optional Match-Play Rule: 2 to the higher score, 1 each for a tie; play
    to 8 points."""
    system = get_system("match-play-to-8")
    state = system.play([(50, 20)] * 3)
    assert state.totals == (6, 0) and not state.over
    state = system.play([(50, 20)] * 4)
    assert state.over and state.winner == 0


def test_family_rulebook_match_play_tie_plays_a_determining_round():
    """Family rulebook, Match-Play Rule: "Should players/partnerships tie, play one final
    determining round"; a tied determining round settles nothing, so play goes on."""
    system = get_system("match-play-to-8")
    level = [(50, 20), (20, 50)] * 3 + [(40, 40), (40, 40)]  # 7-7, then a tied round: 8-8
    state = system.play(level)
    assert state.totals == (8, 8) and not state.over
    assert not system.play([*level, (30, 30)]).over  # 9-9
    state = system.play([*level, (30, 30), (15, 30)])
    assert state.over and state.winner == 1 and state.totals == (9, 11)


# --- three-player ---------------------------------------------------------------------------------


def three(*scores):
    return get_system("three-player").play([scores]).round_points[0]


def test_family_rulebook_three_player_highest_two_second_one_third_zero():
    """Family rulebook, Three-Player Game Option Two: "The player with the highest score gets 2
    points, while the second highest gets 1 point, and the third player receives 0 points.\""""
    assert three(40, 65, 20) == (1, 2, 0)


def test_family_rulebook_three_player_tie_for_first():
    """ "If two players tie for first, they each receive 1 point while the third player receives
    0 points.\""""
    assert three(50, 20, 50) == (1, 0, 1)


def test_family_rulebook_three_player_tie_for_second():
    """ "Should the second highest score be a tie, both players receive 0 points.\""""
    assert three(35, 60, 35) == (0, 2, 0)


def test_three_player_all_tied_share_like_a_tie_for_first():
    """The rulebook is silent on a three-way tie; like a tie for first, each gets 1 point."""
    assert three(30, 30, 30) == (1, 1, 1)


def test_family_rulebook_three_player_play_to_eight():
    system = get_system("three-player")
    rounds = [(60, 30, 0)] * 3 + [(30, 60, 0)] * 2  # A: 6+2=8, B: 3+4=7
    state = system.play(rounds)
    assert state.totals == (8, 7, 0)
    assert state.over and state.winner == 0
    with pytest.raises(EngineInputError, match="3 non-negative multiples of 5"):
        system.play([(60, 30)])


# --- first-to-N -----------------------------------------------------------------------------------


def test_first_to_n_by_name_and_parameter():
    assert get_system("first-to-7").name == "first-to-7"
    assert get_system("first-to-N", target=7).target == 7


def test_event_practice_first_to_n_ends_when_a_side_reaches_n():
    system = get_system("first-to-5")
    state = system.play([(50, 20), (50, 20), (20, 50), (50, 20)])
    assert state.totals == (6, 2) and state.over and state.winner == 0


def test_even_number_of_rounds_rule_when_tied_at_n_minus_one():
    """Event practice, the even-number-of-rounds rule: tied at N-1, the game goes on by pairs of
    rounds so both sides have had the hammer equally (NCA 4b: players alternate starting)."""
    system = get_system("first-to-5")
    level = [(50, 20), (20, 50), (50, 20), (20, 50)]  # 4-4: both at N-1
    assert system.play(level).totals == (4, 4)
    one_extra = system.play([*level, (50, 20)])
    assert one_extra.totals == (6, 4) and not one_extra.over  # an odd number of extra rounds
    pair = system.play([*level, (50, 20), (50, 50)])
    assert pair.totals == (7, 5) and pair.over and pair.winner == 0
    evened = system.play([*level, (50, 20), (20, 50)])
    assert evened.totals == (6, 6) and not evened.over  # level after the pair: another pair
    later = system.play([*level, (50, 20), (20, 50), (30, 30), (20, 45)])
    assert later.over and later.winner == 1


def test_even_rounds_rule_a_tied_round_at_n_minus_one_does_not_end_the_game():
    system = get_system("first-to-5")
    level = [(50, 20), (20, 50), (50, 20), (20, 50)]
    state = system.play([*level, (35, 35)])
    assert state.totals == (5, 5) and not state.over


def test_first_to_n_a_tie_below_n_minus_one_does_not_start_the_pairs():
    """Only a tie at N-1 starts the pairs: from 3-3 a won round reaches 5 and wins outright."""
    system = get_system("first-to-5")
    state = system.play([(50, 20), (20, 50), (35, 35), (50, 20)])
    assert state.totals == (5, 3) and state.over and state.winner == 0


def test_first_to_n_target_must_be_positive():
    with pytest.raises(EngineInputError, match="target"):
        get_system("first-to-N", target=0)
