"""The one judge of results: games (4 rounds, the championship 5th round and those after it),
first-to systems, best-of-N matches, the card's round data and what an unfinished row is missing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import (
    EngineInputError,
    Game,
    GameRules,
    Round,
    RoundOfThree,
    check_complete,
    check_game,
    judge_game,
    judge_match,
    judge_row,
    mirror,
    paper_round_lines,
    round_from_data,
    round_lines,
    round_to_data,
    seen_from,
    three_player_points,
    wins_needed,
)
from scoring.engine.standings import compute_standings

WIN, TIE, LOSS = (2, 0), (1, 1), (0, 2)
NCA = GameRules()
PLAYOFF = GameRules(playoff=True)


def rounds(*points: tuple[int, int]) -> list[Round]:
    return [Round(points=p, twenties=(0, 0)) for p in points]


def data(*points: tuple[int, int]) -> list[dict]:
    return [round_to_data(r) for r in rounds(*points)]


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
    verdict = judge_game(g.rounds, NCA)
    assert verdict.over and verdict.drawn and verdict.twenties == (3, 5)


def test_nca_2b_outside_a_championship_a_tied_game_ends_after_four_rounds():
    """NCA 2b: "A game shall consist of 4 rounds" — a draw stands outside a championship."""
    verdict = judge_game(rounds(WIN, LOSS, TIE, TIE), NCA)
    assert verdict.over and verdict.winner is None and verdict.missing == ""
    with pytest.raises(EngineInputError, match="round 5 is one too many") as error:
        judge_game(rounds(WIN, LOSS, TIE, TIE, WIN), NCA)
    assert error.value.round == 5


def test_wcc_championship_game_tied_after_four_rounds_plays_a_fifth():
    """WCC Scoring: "If after 4 rounds (a game) the player's scores are tied, a 5th round will be
    played as a winner has to be determined in these games.\""""
    tied = judge_game(rounds(WIN, LOSS, TIE, TIE), PLAYOFF)
    assert not tied.over
    assert tied.missing.startswith("round 5 is needed: the game is tied 4-4")
    decided = judge_game(rounds(WIN, LOSS, TIE, TIE, LOSS), PLAYOFF)
    assert decided.over and decided.winner == 1 and decided.points == (4, 6)


def test_a_tied_fifth_round_is_followed_by_a_sixth_until_one_is_won():
    """WCC Scoring: "a winner has to be determined" — a tied 5th round settles nothing."""
    five = judge_game(rounds(WIN, LOSS, TIE, TIE, TIE), PLAYOFF)
    assert not five.over and five.missing.startswith("round 6 is needed: the game is tied 5-5")
    assert round_lines(PLAYOFF, played=5) == 6
    six = judge_game(rounds(WIN, LOSS, TIE, TIE, TIE, TIE, WIN), PLAYOFF)
    assert six.over and six.winner == 0 and six.rounds == 7
    with pytest.raises(EngineInputError, match="round 6 is one too many"):
        judge_game(rounds(WIN, LOSS, TIE, TIE, WIN, WIN), PLAYOFF)


def test_an_unfinished_game_says_what_is_missing():
    assert judge_game(rounds(WIN, WIN), NCA).missing == (
        "rounds 3 to 4 are needed: a game has 4 rounds"
    )
    assert judge_game(rounds(WIN, WIN, WIN), NCA).missing == (
        "round 4 is needed: a game has 4 rounds"
    )
    with pytest.raises(EngineInputError, match="round 5 is needed: the game is tied 4-4") as error:
        check_complete(data(WIN, LOSS, TIE, TIE), PLAYOFF)
    assert error.value.round == 5
    assert check_complete(data(WIN, LOSS, TIE, TIE), NCA).drawn


def test_a_category_may_play_other_game_lengths():
    six = GameRules(rounds=6)
    assert not judge_game(rounds(WIN, WIN, WIN, WIN), six).over
    assert judge_game(rounds(*[TIE] * 6), six).over
    assert round_lines(six) == 6


def test_match_play_to_8_ends_when_a_side_reaches_8_alone():
    """Family rulebook, Match-Play Rule: "Play to 8 points. Should players/partnerships tie, play
    one final determining round"."""
    rules = GameRules(system="match-play-to-8")
    assert not judge_game(rounds(WIN, WIN, WIN), rules).over
    assert judge_game(rounds(WIN, WIN, WIN, WIN), rules).winner == 0
    level = judge_game(rounds(WIN, LOSS, WIN, LOSS, WIN, LOSS, TIE, TIE), rules)
    assert not level.over and level.missing.startswith("round 9 is needed: the game is tied 8-8")
    assert judge_game(rounds(WIN, LOSS, WIN, LOSS, WIN, LOSS, TIE, TIE, LOSS), rules).winner == 1
    assert round_lines(rules) == 4 and paper_round_lines(rules) == 8


def test_difference_to_100_needs_board_scores_and_adds_differences():
    """Family rulebook Scoring 5-6: the round winner adds the difference; play to 100."""
    rules = GameRules(system="difference-to-100")
    row = [
        {"score": [120, 40], "twenties": [3, 1]},
        {"score": [30, 30], "twenties": [0, 0]},
        {"score": [50, 80], "twenties": [1, 2]},
    ]
    verdict = judge_row(row, rules)
    assert verdict.points == (80, 30) and not verdict.over
    assert verdict.missing.startswith("round 4 is needed: the game is played to 100 points")
    done = judge_row([*row, {"score": [45, 25], "twenties": [1, 0]}], rules)
    assert done.over and done.winner == 0 and done.points == (100, 30)
    with pytest.raises(EngineInputError, match=r"round 2: .*give both board scores") as error:
        judge_row([row[0], {"points": [2, 0], "twenties": [0, 0]}], rules)
    assert error.value.round == 2


def test_round_data_reads_and_writes_the_card_shape():
    assert round_from_data({"score": [65, 40], "twenties": [2, 1]}).points == (2, 0)
    assert round_from_data({"time_expired": True}).is_time_expired
    r = Round.from_score((65, 40), (2, 1))
    assert round_from_data(round_to_data(r)) == r
    assert mirror([round_to_data(r)]) == [round_to_data(r.mirrored())]
    with pytest.raises(EngineInputError, match="pair of whole numbers"):
        round_from_data({"points": "2-0", "twenties": [0, 0]})


def test_rows_name_the_round_at_fault():
    with pytest.raises(EngineInputError, match=r"round 2: .* only 8 discs") as error:
        judge_row([{"points": [2, 0]}, {"points": [2, 0], "twenties": [9, 0]}], NCA)
    assert error.value.round == 2


def test_an_entry_cannot_play_itself():
    with pytest.raises(EngineInputError, match=r"game 3 \(ANNA v ANNA\): an entry cannot play"):
        check_game(Game("ANNA", "ANNA", rounds(WIN)), 3)


def test_wcc_championship_match_is_best_two_of_three():
    """WCC Scoring: "A championship match will be played best two out of three games"."""
    won, lost = (
        judge_game(rounds(WIN, WIN, LOSS, TIE), PLAYOFF),
        judge_game(rounds(LOSS, LOSS, LOSS, TIE), PLAYOFF),
    )
    after_two = judge_match([won, lost], best_of=3)
    assert after_two.wins == (1, 1) and after_two.winner is None and not after_two.over
    result = judge_match([won, lost, won], best_of=3)
    assert result.winner == 0 and result.over and result.games_needed == 2
    with pytest.raises(EngineInputError, match="game 3 was played after the match was decided"):
        judge_match([won, won, won], best_of=3)


def test_match_tied_championship_game_counts_only_after_its_deciding_round():
    tied = judge_game(rounds(WIN, LOSS, TIE, TIE), PLAYOFF)
    in_progress = judge_match([tied], best_of=3)
    assert in_progress.wins == (0, 0) and not in_progress.over
    with pytest.raises(EngineInputError, match="game 1 is unfinished"):
        judge_match([tied, judge_game(rounds(WIN, WIN, WIN, WIN), PLAYOFF)], best_of=3)


def test_match_refuses_more_games_than_best_of_and_bad_best_of():
    drawn = judge_game(rounds(TIE, TIE, TIE, TIE), NCA)
    assert judge_match([drawn], best_of=1).over
    with pytest.raises(EngineInputError, match="one too many"):
        judge_match([drawn, drawn], best_of=1)
    with pytest.raises(EngineInputError, match="best_of"):
        wins_needed(0)
    assert judge_match([], best_of=3).winner is None


@pytest.mark.parametrize(("best_of", "needed"), [(1, 1), (3, 2), (5, 3), (7, 4)])
def test_wins_needed_is_a_majority(best_of, needed):
    assert wins_needed(best_of) == needed


round_points = st.sampled_from([WIN, TIE, LOSS])


@given(st.lists(round_points, min_size=4, max_size=12))
def test_a_playoff_game_is_over_exactly_when_it_has_a_leader_after_four(points):
    """Property: a championship game is never over while level, and always over with a leader
    once it has had its 4 rounds; any round after that is refused."""
    for played in range(4, len(points) + 1):
        prefix = points[:played]
        try:
            verdict = judge_game(rounds(*prefix), PLAYOFF)
        except EngineInputError:
            # Only a round after the game was over is refused.
            earlier = judge_game(rounds(*prefix[:-1]), PLAYOFF)
            assert earlier.over
            return
        a = sum(p[0] for p in prefix)
        b = sum(p[1] for p in prefix)
        assert verdict.over == (a != b)
        assert verdict.winner == (None if a == b else 0 if a > b else 1)


@given(st.lists(round_points, min_size=0, max_size=4), st.booleans())
def test_mirroring_swaps_the_winner(points, playoff):
    rules = GameRules(playoff=playoff)
    seen = judge_game(rounds(*points), rules)
    other = judge_game([r.mirrored() for r in rounds(*points)], rules)
    assert other.over == seen.over
    assert other.points == seen.points[::-1]
    assert other.winner == (None if seen.winner is None else 1 - seen.winner)


THREE = GameRules(system="three-player", discs=12)


def test_three_player_rounds_score_2_1_0_by_rank():
    """Family rulebook, Three-Player Game, Option Two: highest 2, second 1, third 0; a tie for
    first gives each 1 and the third 0; a tie for second gives both 0; all three tied: 1 each."""
    assert three_player_points((60, 45, 20)) == (2, 1, 0)
    assert three_player_points((60, 60, 20)) == (1, 1, 0)
    assert three_player_points((20, 60, 20)) == (0, 2, 0)
    assert three_player_points((40, 40, 40)) == (1, 1, 1)
    assert RoundOfThree.from_score((10, 35, 30), (0, 1, 0)).points == (0, 2, 1)
    with pytest.raises(EngineInputError, match="do not follow from the board scores"):
        RoundOfThree((2, 1, 0), (0, 0, 0), (10, 35, 30))
    with pytest.raises(EngineInputError, match="impossible"):
        RoundOfThree((2, 2, 0), (0, 0, 0))


def test_a_three_player_game_is_played_to_8_and_names_the_missing_round():
    """ "Play to 8 points", alone in the lead: a tie at the top plays on."""
    row = [{"points": p, "twenties": [0, 0, 0]} for p in ([2, 1, 0], [2, 0, 1], [0, 1, 2])]
    verdict = judge_row(row, THREE)
    assert verdict.points == (4, 2, 3) and not verdict.over
    assert verdict.missing.startswith("round 4 is needed: the game is played to 8 points")
    done = judge_row([*row, *[{"points": [2, 1, 0], "twenties": [0, 0, 0]}] * 2], THREE)
    assert done.over and done.winner == 0 and done.points == (8, 4, 3)
    with pytest.raises(EngineInputError, match="round 1 gives 2 sides") as error:
        judge_game(rounds(WIN), THREE)
    assert error.value.round == 1


def test_three_player_card_data_is_seen_from_each_player():
    row = [{"points": [2, 1, 0], "twenties": [3, 1, 0], "score": [70, 40, 5]}]
    from_b = seen_from(row, (1, 0, 2))
    assert from_b[0]["points"] == [1, 2, 0] and from_b[0]["score"] == [40, 70, 5]
    assert judge_row(from_b, THREE).points == (1, 2, 0)


def test_standings_of_three_player_games_count_each_player_once():
    games = [
        Game("ANNA", "BEN", [RoundOfThree((2, 1, 0), (2, 1, 0))] * 4, c="CARL"),
        Game("BEN", "CARL", [RoundOfThree((2, 0, 1), (1, 0, 0))] * 4, c="DAN"),
    ]
    rows = {row.entry: row for row in compute_standings(games, chain=("twenties",)).rows}
    assert (rows["ANNA"].points, rows["ANNA"].games) == (8, 1)
    assert (rows["BEN"].points, rows["BEN"].games, rows["BEN"].twenties) == (12, 2, 8)
    assert (rows["CARL"].points, rows["CARL"].games) == (0, 2)
    assert rows["DAN"].points == 4
    assert rows["BEN"].rank == 1


def test_a_three_player_card_shows_the_four_rounds_a_game_to_8_takes_at_least():
    assert round_lines(THREE) == 4 and paper_round_lines(THREE) == 8
    assert round_lines(GameRules(system="difference-to-100")) == 1
