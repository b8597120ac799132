"""Rounds: points from board scores, and the invariants every scorecard round must satisfy."""

import pickle

import pytest

from scoring.engine import DEFAULT_DISCS, EngineInputError, Round, check_round, points_from_score


@pytest.mark.parametrize(
    ("score", "points"),
    [
        ((65, 40), (2, 0)),
        ((40, 65), (0, 2)),
        ((50, 50), (1, 1)),
        ((0, 0), (1, 1)),
        ((5, 0), (2, 0)),
    ],
)
def test_nca_2a_iv_higher_score_gets_two_points_and_a_tie_one_each(score, points):
    """NCA 2a iv: "The player or team with the higher score shall receive 2 points. If the round
    is tied, each player or team shall receive 1 point." (WCC Scoring: zero for a loss.)"""
    assert points_from_score(score) == points
    assert Round.from_score(score, (0, 0)).points == points


def test_design_example_round_from_board_scores():
    """The design example: a round scored 45-60 gives 0-2 and keeps its board totals."""
    round_ = Round.from_score([45, 60], [1, 2])
    assert round_.points == (0, 2)
    assert round_.score == (45, 60)
    assert round_.twenties == (1, 2)


@pytest.mark.parametrize("points", [(2, 0), (1, 1), (0, 2), (0, 0)])
def test_wcc_scoring_allowed_round_points(points):
    """WCC Scoring: 2 for a win, 1 each for a tie, 0 for a loss; Tournament Scoring Information:
    a round where no disc was shot before time expired is 0-0."""
    assert Round(points=points, twenties=(0, 0)).points == points


@pytest.mark.parametrize("points", [(2, 2), (1, 0), (2, 1), (0, 1), (3, 0), (-1, 3)])
def test_wcc_scoring_impossible_round_points_are_refused(points):
    """WCC Scoring: a round is worth 2 to the winner and 0 to the loser, or 1 each."""
    with pytest.raises(EngineInputError) as caught:
        Round(points=points, twenties=(0, 0))
    assert str(caught.value) == (
        f"the points ({points[0]} for side a, {points[1]} for side b) are impossible; a round "
        "scores 2-0, 1-1, 0-2, or 0-0 when time expired"
    )


def test_wcc_time_expired_round_is_zero_zero_and_has_no_twenties():
    """WCC Tournament Scoring Information: "For any round where no discs are shot before time
    expires, both teams will record a zero" — so nobody can have sunk a 20 in it."""
    assert Round.time_expired() == Round(points=(0, 0), twenties=(0, 0))
    with pytest.raises(EngineInputError, match=r"time expired .* no 20s"):
        Round(points=(0, 0), twenties=(1, 0))


def test_a_tied_board_of_zero_is_a_one_one_round_not_time_expired():
    """A round played out to 0-0 on the board is a tie (NCA 2a iv), not a round time ran out on."""
    with pytest.raises(
        EngineInputError,
        match=r"do not follow from the board scores \(0 for side a, 0 for side b\)",
    ):
        Round(points=(0, 0), twenties=(0, 0), score=(0, 0))


@pytest.mark.parametrize("score", [(42, 60), (60, 3), (-5, 0)])
def test_nca_6a_board_scores_are_non_negative_multiples_of_five(score):
    """NCA 6a: regions count 20, 15, 10 and 5, so a board total is a multiple of 5."""
    with pytest.raises(EngineInputError, match="multiple of 5"):
        Round.from_score(score, (0, 0))


def test_board_score_includes_the_twenties():
    """NCA 2a iii: the score on the board "shall be counted along with the 20's", so a side's
    total is at least 20 for each of its 20s."""
    assert Round.from_score((60, 0), (3, 0)).points == (2, 0)
    with pytest.raises(EngineInputError, match="3 20s alone make 60"):
        Round.from_score((55, 0), (3, 0))


def test_points_given_with_a_score_must_follow_from_it():
    """NCA 2a iv: points follow from the board scores; a scorecard contradicting them is wrong."""
    assert Round(points=(0, 2), twenties=(0, 0), score=(40, 65)).points == (0, 2)
    with pytest.raises(
        EngineInputError, match=r"points \(2 for side a, 0 for side b\) do not follow"
    ):
        Round(points=(2, 0), twenties=(0, 0), score=(40, 65))


def test_negative_twenties_are_refused():
    with pytest.raises(EngineInputError, match="cannot be negative"):
        Round(points=(2, 0), twenties=(-1, 0))


@pytest.mark.parametrize(
    ("field", "value"),
    [("points", (2.0, 0)), ("points", (True, False)), ("twenties", "3-1"), ("twenties", (1, 2, 3))],
)
def test_round_figures_must_be_pairs_of_whole_numbers(field, value):
    kwargs = {"points": (2, 0), "twenties": (0, 0), field: value}
    with pytest.raises(EngineInputError, match="pair of whole numbers"):
        Round(**kwargs)


def test_lists_are_stored_as_tuples():
    round_ = Round(points=[1, 1], twenties=[2, 2])
    assert round_.points == (1, 1) and isinstance(round_.points, tuple)
    assert isinstance(round_.twenties, tuple)


def test_wcc_singles_have_eight_discs_so_at_most_eight_twenties():
    """WCC Tournament Scoring Information: "Adult and Recreational Singles: 8 discs each"; a side
    cannot sink more 20s than it has discs."""
    assert DEFAULT_DISCS == 8
    check_round(Round(points=(2, 0), twenties=(8, 0)))
    with pytest.raises(EngineInputError, match="only 8 discs"):
        check_round(Round(points=(2, 0), twenties=(9, 0)))


def test_wcc_doubles_team_has_twelve_discs():
    """WCC: "Competitive and Recreational Doubles: 6 discs each" — 12 for the team's side."""
    check_round(Round(points=(2, 0), twenties=(12, 0)), discs=12)
    with pytest.raises(EngineInputError, match="only 12 discs"):
        check_round(Round(points=(2, 0), twenties=(13, 0)), discs=12)


def test_board_score_cannot_exceed_what_the_discs_can_make():
    """NCA 6a: a disc scores at most 20, and at most 15 unless it is a 20."""
    check_round(Round.from_score((160, 0), (8, 0)))
    check_round(Round.from_score((120, 0), (0, 0)))
    with pytest.raises(EngineInputError, match="at most 120"):
        check_round(Round.from_score((125, 0), (0, 0)))
    with pytest.raises(EngineInputError, match="at most 125"):
        check_round(Round.from_score((130, 0), (1, 0)))


def test_discs_must_be_positive():
    with pytest.raises(EngineInputError, match="discs per side"):
        check_round(Round(points=(1, 1), twenties=(0, 0)), discs=0)


def test_a_complaint_names_the_side_of_each_figure_once_the_sides_are_known():
    """The engine does not know who played; the caller does, and names each figure's side, so
    nobody reads the first figure as the other side's (and no list notation is left)."""
    with pytest.raises(EngineInputError) as caught:
        Round(points=(2, 0), twenties=(0, 0), score=(40, 65))
    framed = caught.value.framed("round %(number)s: %(error)s", {"number": 3}, round=3)
    named = framed.within("game 1").named(["Zoë", "Åsa"])
    assert str(named) == (
        "game 1: round 3: the points (2 for Zoë, 0 for Åsa) do not follow from the board scores "
        "(40 for Zoë, 65 for Åsa), which give 0 for Zoë, 2 for Åsa"
    )
    assert named.round == 3
    assert "[" not in str(named)
    # it still travels to and from a worker, with its words and its round
    back = pickle.loads(pickle.dumps(framed))
    assert (str(back), back.round) == (str(framed), 3)
