"""Games (totals, the championship 5th round) and best-of-N matches."""

import pytest

from scoring.engine import (
    EngineInputError,
    Game,
    Round,
    check_game,
    game_is_over,
    match_result,
    needs_fifth_round,
)

WIN, TIE, LOSS = (2, 0), (1, 1), (0, 2)


def game(a: str, b: str, *points: tuple[int, int]) -> Game:
    return Game(a, b, [Round(points=p, twenties=(0, 0)) for p in points])


def test_game_totals_add_round_points_and_twenties():
    """NCA 2b: a game is 4 rounds; its points are the sum of the round points."""
    g = Game(
        "ANNA",
        "BEN",
        [
            Round.from_score((65, 40), (2, 1)),
            Round.from_score((40, 40), (1, 1)),
            Round(points=LOSS, twenties=(0, 3)),
            Round.time_expired(),
        ],
    )
    assert g.points == (3, 3)
    assert g.twenties == (3, 5)
    assert g.winner is None
    assert g.label == "ANNA v BEN"


def test_game_winner_has_more_points():
    assert game("ANNA", "BEN", WIN, WIN, LOSS, TIE).winner == "ANNA"
    assert game("ANNA", "BEN", LOSS, LOSS, WIN, TIE).winner == "BEN"


def test_wcc_championship_game_tied_after_four_rounds_plays_a_fifth():
    """WCC Scoring: "If after 4 rounds (a game) the player's scores are tied, a 5th round will be
    played as a winner has to be determined in these games.\""""
    tied = game("ANNA", "BEN", WIN, LOSS, TIE, TIE)
    assert needs_fifth_round(tied, playoff=True)
    assert not game_is_over(tied, playoff=True)
    decided = game("ANNA", "BEN", WIN, LOSS, TIE, TIE, LOSS)
    assert not needs_fifth_round(decided)
    assert game_is_over(decided, playoff=True)
    assert decided.winner == "BEN"


def test_nca_2b_outside_a_championship_a_tied_game_ends_after_four_rounds():
    """NCA 2b: "A game shall consist of 4 rounds" — a draw stands outside a championship."""
    tied = game("ANNA", "BEN", WIN, LOSS, TIE, TIE)
    assert not needs_fifth_round(tied, playoff=False)
    assert game_is_over(tied, playoff=False)


def test_no_fifth_round_before_four_rounds_or_when_someone_leads():
    assert not needs_fifth_round(game("ANNA", "BEN", WIN, LOSS, TIE))
    assert not needs_fifth_round(game("ANNA", "BEN", WIN, LOSS, TIE, WIN))
    assert not game_is_over(game("ANNA", "BEN", WIN, WIN, WIN))


def test_a_tied_fifth_round_needs_another_deciding_round():
    """WCC Scoring: "a winner has to be determined" — a tied 5th round settles nothing."""
    g = game("ANNA", "BEN", WIN, LOSS, TIE, TIE, TIE)
    assert not game_is_over(g, playoff=True)
    assert not needs_fifth_round(g)


def test_an_entry_cannot_play_itself():
    with pytest.raises(EngineInputError, match=r"game 3 \(ANNA v ANNA\): an entry cannot play"):
        check_game(game("ANNA", "ANNA", WIN), 3)


def test_check_game_names_the_round_over_the_disc_count():
    g = Game(
        "ANNA", "BEN", [Round(points=WIN, twenties=(1, 0)), Round(points=WIN, twenties=(7, 0))]
    )
    check_game(g, 1, discs=8)
    with pytest.raises(EngineInputError, match=r"game 4 \(ANNA v BEN\), round 2: .* only 6 discs"):
        check_game(g, 4, discs=6)


def test_wcc_championship_match_is_best_two_of_three():
    """WCC Scoring: "A championship match will be played best two out of three games"."""
    first = game("ANNA", "BEN", WIN, WIN, LOSS, TIE)
    second = game("BEN", "ANNA", WIN, WIN, WIN, TIE)  # sides swap: BEN wins
    third = game("ANNA", "BEN", WIN, TIE, TIE, TIE)
    after_two = match_result([first, second], best_of=3)
    assert after_two.wins == {"ANNA": 1, "BEN": 1}
    assert after_two.winner is None and not after_two.over
    result = match_result([first, second, third], best_of=3)
    assert result.winner == "ANNA" and result.over
    assert result.wins == {"ANNA": 2, "BEN": 1}
    assert result.games_needed == 2


def test_best_of_three_ends_after_two_straight_wins():
    result = match_result([game("ANNA", "BEN", LOSS, LOSS, WIN, TIE)] * 2, best_of=3)
    assert result.winner == "BEN" and result.over
    with pytest.raises(EngineInputError, match=r"game 3 \(ANNA v BEN\) was played after BEN"):
        match_result([game("ANNA", "BEN", LOSS, LOSS, WIN, TIE)] * 3, best_of=3)


def test_match_tied_championship_game_counts_only_after_its_fifth_round():
    """WCC Scoring: the 5th round decides a championship game, so a game tied after 4 is
    unfinished; only the match's last game may be unfinished."""
    tied = game("ANNA", "BEN", WIN, LOSS, TIE, TIE)
    in_progress = match_result([tied], best_of=3)
    assert in_progress.wins == {"ANNA": 0, "BEN": 0} and not in_progress.over
    with pytest.raises(EngineInputError, match=r"game 1 \(ANNA v BEN\) is unfinished"):
        match_result([tied, game("ANNA", "BEN", WIN, WIN, WIN, WIN)], best_of=3)


def test_match_games_must_be_between_the_same_entries():
    with pytest.raises(EngineInputError, match=r"game 2 \(ANNA v CARL\) is not between"):
        match_result([game("ANNA", "BEN", WIN, WIN, WIN, WIN), game("ANNA", "CARL", WIN)], 3)


def test_match_refuses_more_games_than_best_of_and_bad_best_of():
    drawn = game("ANNA", "BEN", TIE, TIE, TIE, TIE)
    assert match_result([drawn], best_of=1, playoff=False).over
    with pytest.raises(EngineInputError, match="one too many"):
        match_result([drawn, drawn], best_of=1, playoff=False)
    with pytest.raises(EngineInputError, match="best_of"):
        match_result([], best_of=0)
    assert match_result([], best_of=3).winner is None
