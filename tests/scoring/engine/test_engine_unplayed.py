"""What a game won without play is worth (a bye, a walkover, a forfeited game), per scoring
system: what a win is worth under the system itself, the event's figure only where the system
lets an event choose it (NCA 2-1-0), and the event's 20s everywhere."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scoring.engine import GameRules, UnplayedGame, get_system
from scoring.engine.systems import ScoringSystem

#: Board scores of one side in a round (20s included): multiples of 5, up to 12 discs in the 20.
board_score = st.integers(0, 48).map(lambda n: 5 * n)
#: A round as the systems take it: both board scores, or None when time ran out before a shot.
round_scores = st.one_of(st.tuples(board_score, board_score), st.none())


@pytest.mark.parametrize(
    ("system", "params", "worth"),
    [
        ("nca", {}, 8),
        ("nca", {"rounds": 3}, 6),
        ("nca", {"rounds": 4, "playoff": True}, 8),
        ("difference-to-100", {}, 100),
        ("difference-to-100", {"target": 50}, 50),
        ("match-play-to-8", {}, 8),
        ("three-player", {}, 8),
        ("first-to-11", {}, 11),
    ],
)
def test_each_system_credits_what_a_win_is_worth(system, params, worth):
    unplayed = get_system(system, **params).unplayed_game()
    assert unplayed == UnplayedGame(winner=worth, loser=0, twenties=0)
    assert unplayed.points_for(1) == (0, worth)
    assert unplayed.points_for(0, sides=3) == (worth, 0, 0)


def test_nca_takes_the_events_figure_and_the_family_game_to_100_does_not():
    """The stage's bye points (8 by default) are an NCA figure; a game to 100 is won 100-0."""
    assert get_system("nca").unplayed_game(points=6, twenties=2) == UnplayedGame(6, 0, 2)
    to_100 = get_system("difference-to-100").unplayed_game(points=8, twenties=2)
    assert to_100 == UnplayedGame(100, 0, 2)
    assert to_100.twenties_for(0) == (2, 0)
    assert get_system("first-to-11").unplayed_game(points=8).winner == 11


def test_the_rule_in_words_names_the_value_and_whether_a_stage_may_change_it():
    nca = GameRules(system="nca").scoring_system().unplayed_rule()
    assert (nca.worth, nca.settable) == (8, True)
    assert "a game won 8-0, all 4 rounds won" in nca.words
    assert "With fewer than 4 points (a drawn game), a walkover could rank" in nca.words
    single = get_system("nca", rounds=1).unplayed_rule()
    assert "a game won 2-0, its 1 round won" in single.words
    to_100 = GameRules(system="difference-to-100").scoring_system().unplayed_rule()
    assert (to_100.worth, to_100.settable) == (100, False)
    assert "a game won 100-0: a game to 100 is won by reaching 100" in to_100.words
    assert "sets it for every stage" in to_100.words


def played_out(system: ScoringSystem, data: st.DataObject, most: int = 40):
    """A two-sided game of ``system`` played round by round until the system says it is over
    with a winner (a drawn NCA game is left out: nobody wins it by walkover)."""
    rounds: list = []
    state = system.play(rounds)
    while not state.over and len(rounds) < most:
        rounds.append(data.draw(round_scores))
        state = system.play(rounds)
    assume(state.over and state.winner is not None)
    return state


@given(data=st.data(), target=st.sampled_from([100, 50, 150]))
def test_a_walkover_to_100_ranks_with_the_games_won_at_the_board(data, target):
    """Family rulebook, Scoring 5-6: a round adds to its winner alone and the game ends once a
    side reaches the target with the lead, so every loser ends short of what a walkover is
    credited and every winner on it or above: a walkover never ranks below a lost game."""
    system = get_system("difference-to-100", target=target)
    state = played_out(system, data)
    worth = system.unplayed_game(points=8).winner
    loser = state.totals[1 - state.winner]
    assert loser < worth <= state.totals[state.winner]


@given(data=st.data(), rounds=st.integers(1, 6))
def test_an_nca_walkover_is_worth_the_best_win_and_above_every_loss(data, rounds):
    """NCA 2a iv, 2b: a game of N rounds gives at most 2N; the loser of a game has less than a
    drawn game's N, so the default credit (every round won) and any figure from N up rank a
    walkover above every game lost at the board."""
    system = get_system("nca", rounds=rounds)
    state = played_out(system, data)
    unplayed = system.unplayed_game()
    assert state.totals[state.winner] <= unplayed.winner == 2 * rounds
    assert state.totals[1 - state.winner] < rounds
