"""The Swiss tiebreak steps (Buchholz, game points) and the "swiss" standings method."""

import pytest

from scoring.engine import METHODS, STEPS, Credit, Game, Round, compute_standings, resolve_chain
from scoring.engine.tallies import tally_games
from scoring.engine.tiebreaks import buchholz, game_points


def game(a: str, b: str, pa: int, pb: int, ta: int = 0, tb: int = 0) -> Game:
    """A 4-round game ending ``pa``-``pb`` (pa + pb = 8) with ``ta``/``tb`` 20s in round 1."""
    assert pa + pb == 8
    points = [(2, 0)] * (pa // 2) + [(1, 1)] * (pa % 2) + [(0, 2)] * ((pb - pa % 2) // 2)
    rounds = [
        Round(points=p, twenties=(ta, tb) if i == 0 else (0, 0)) for i, p in enumerate(points)
    ]
    return Game(a, b, rounds)


def scored(a: str, b: str, *boards: tuple[int, int]) -> Game:
    """A game whose card kept the board totals of every round (no 20s)."""
    return Game(a, b, [Round.from_score(board, (0, 0)) for board in boards])


def rows(standings) -> dict:
    return {row.entry: row for row in standings.rows}


# --- Buchholz -------------------------------------------------------------------------------------


def swiss_without_byes() -> list[Game]:
    """Two Swiss rounds of six: four entries end on 10 points, having met different fields."""
    return [
        game("ANNA", "BEN", 6, 2, ta=1),
        game("CARL", "DAN", 6, 2, ta=2),
        game("EVE", "FAY", 4, 4, ta=1, tb=9),
        game("ANNA", "CARL", 4, 4),
        game("BEN", "EVE", 8, 0, ta=3),
        game("DAN", "FAY", 2, 6, tb=1),
    ]


def test_buchholz_is_the_sum_of_the_opponents_points():
    tallies = tally_games(swiss_without_byes())
    assert [tallies[e].points for e in ("ANNA", "BEN", "CARL", "FAY")] == [10, 10, 10, 10]
    values = buchholz(["ANNA", "BEN", "CARL", "FAY"], tallies)
    # ANNA met BEN (10) and CARL (10); BEN met ANNA (10) and EVE (4); CARL met DAN (4) and ANNA
    # (10); FAY met EVE (4) and DAN (4).
    assert values == {"ANNA": 20, "BEN": 14, "CARL": 14, "FAY": 8}


def test_swiss_method_ranks_by_buchholz_then_twenties():
    """The 20s rank the 10-point entries FAY first; the Swiss chain asks for Buchholz first."""
    games = swiss_without_byes()
    preliminary = compute_standings(games, method="preliminary")
    assert [row.entry for row in preliminary.rows[:4]] == ["FAY", "BEN", "CARL", "ANNA"]

    swiss = compute_standings(games, method="swiss")
    assert [row.entry for row in swiss.rows[:4]] == ["ANNA", "BEN", "CARL", "FAY"]
    by = rows(swiss)
    assert by["ANNA"].tiebreak == by["FAY"].tiebreak == "buchholz"
    # BEN and CARL are level on Buchholz (14): the 20s set them apart.
    assert by["BEN"].tiebreak == by["CARL"].tiebreak == "twenties"
    # DAN and EVE (4 points) both met fields of 20 points: EVE's one 20 to DAN's none decides.
    assert [row.entry for row in swiss.rows[4:]] == ["EVE", "DAN"]
    assert by["EVE"].tiebreak == "twenties"
    assert swiss.shootouts_required == []


def test_each_opponent_counts_once_however_many_games_were_played():
    """A best-of-3 match is one pairing: the opponent's points are not counted per game."""
    games = [game("ANNA", "BEN", 6, 2), game("ANNA", "BEN", 6, 2), game("CARL", "DAN", 8, 0)]
    tallies = tally_games(games)
    assert buchholz(["ANNA", "CARL"], tallies) == {"ANNA": 4, "CARL": 0}


def swiss_with_byes() -> tuple[list[Game], dict[str, Credit]]:
    """Five entries, two rounds: EVE sits out round 1 and DAN round 2, each credited 6 points."""
    games = [
        game("ANNA", "BEN", 6, 2, ta=1),
        game("CARL", "DAN", 6, 2),
        game("ANNA", "CARL", 4, 4),
        game("EVE", "BEN", 4, 4, ta=3),
    ]
    credits = {"EVE": Credit(games=1, points=6), "DAN": Credit(games=1, points=6)}
    return games, credits


def test_a_bye_counts_as_a_dummy_opponent_with_the_entrys_own_points():
    """FIDE Tie-Break Regulations (2023), unplayed rounds: a bye is a game against an opponent
    with the entry's own final points; the opponents' points include their own byes."""
    games, credits = swiss_with_byes()
    tallies = tally_games(games, credits=credits)
    assert tallies["EVE"].byes == 1 and tallies["EVE"].played == 1
    assert {e: tallies[e].points for e in tallies} == {
        "ANNA": 10,
        "BEN": 6,
        "CARL": 10,
        "DAN": 8,  # 2 in its game, 6 for its bye
        "EVE": 10,  # 6 for its bye, 4 in its game
    }
    values = buchholz(["ANNA", "CARL", "EVE"], tallies)
    # ANNA: BEN 6 + CARL 10. CARL: DAN 8 (bye included) + ANNA 10. EVE: BEN 6 + itself 10.
    assert values == {"ANNA": 16, "CARL": 18, "EVE": 16}


def test_swiss_standings_with_byes():
    games, credits = swiss_with_byes()
    result = compute_standings(games, method="swiss", credits=credits)
    assert [row.entry for row in result.rows] == ["CARL", "EVE", "ANNA", "DAN", "BEN"]
    by = rows(result)
    assert by["CARL"].tiebreak == "buchholz"
    assert by["EVE"].tiebreak == by["ANNA"].tiebreak == "twenties"  # level on Buchholz, 16
    assert (by["EVE"].games, by["EVE"].points) == (2, 10)


def test_buchholz_of_entries_without_games():
    tallies = tally_games([], entries=["ANNA", "BEN"], credits={"BEN": Credit(points=8)})
    assert buchholz(["ANNA", "BEN"], tallies) == {"ANNA": 0, "BEN": 8}


# --- game points ----------------------------------------------------------------------------------


def test_game_points_are_the_board_totals_of_the_entrys_rounds():
    games = [
        scored("ANNA", "BEN", (60, 40), (40, 60), (50, 50), (45, 40)),
        scored("CARL", "DAN", (100, 20), (20, 30), (35, 35), (5, 0)),
    ]
    tallies = tally_games(games)
    assert tallies["ANNA"].points == tallies["CARL"].points == 5
    assert game_points(["ANNA", "CARL"], tallies) == {"ANNA": 195, "CARL": 160}
    result = compute_standings(games, chain=["game-points", "shoot-out"])
    assert [row.entry for row in result.rows[:2]] == ["ANNA", "CARL"]
    assert result.rows[0].tiebreak == "game-points"


def test_a_time_expired_round_counts_as_a_zero_board():
    """WCC: "For any round where no discs are shot before time expires, both teams will record
    a zero for that round" — it keeps nothing back from the comparison."""
    games = [
        Game("ANNA", "BEN", [Round.from_score((60, 40), (0, 0)), Round.time_expired()]),
        Game("CARL", "DAN", [Round.from_score((30, 20), (0, 0)), Round.time_expired()]),
    ]
    tallies = tally_games(games)
    assert tallies["ANNA"].unscored == 0
    assert game_points(["ANNA", "CARL"], tallies) == {"ANNA": 60, "CARL": 30}


def test_game_points_split_nobody_when_a_round_kept_only_points():
    games = [
        scored("ANNA", "BEN", (60, 40), (40, 60)),
        Game("CARL", "DAN", [Round.from_score((100, 20), (0, 0)), Round((0, 2), (0, 0))]),
    ]
    tallies = tally_games(games)
    assert tallies["CARL"].unscored == tallies["DAN"].unscored == 1
    assert game_points(["ANNA", "CARL"], tallies) == {"ANNA": 0, "CARL": 0}
    assert game_points(["ANNA", "BEN"], tallies) == {"ANNA": 100, "BEN": 100}


def test_game_points_split_nobody_when_no_board_was_kept():
    games = [game("ANNA", "BEN", 4, 4), game("CARL", "DAN", 6, 2)]
    tallies = tally_games(games)
    assert game_points(list(tallies), tallies) == dict.fromkeys(tallies, 0)
    result = compute_standings(games, chain=["game-points"])
    assert result.shootouts_required == [["ANNA", "BEN"]]
    assert all(row.tiebreak is None for row in result.rows)


def test_game_points_compare_only_equal_numbers_of_games():
    """A bye has no board: an entry that sat out a round has a total over fewer rounds."""
    games = [
        scored("ANNA", "BEN", (60, 40)),
        scored("ANNA", "DAN", (40, 40)),
        scored("CARL", "EVE", (20, 10)),
    ]
    tallies = tally_games(games, credits={"CARL": Credit(games=1, points=1)})
    assert tallies["ANNA"].points == tallies["CARL"].points == 3
    assert (tallies["ANNA"].played, tallies["CARL"].played) == (2, 1)
    assert game_points(["ANNA", "CARL"], tallies) == {"ANNA": 0, "CARL": 0}
    assert game_points(["BEN", "CARL"], tallies) == {"BEN": 40, "CARL": 20}


def test_difference_scoring_keeps_boards_for_game_points():
    """Family rulebook Scoring 5: the round points are the difference; the boards are kept."""
    games = [
        Game("ANNA", "BEN", [Round.from_score((60, 40), (1, 0), scoring="difference")]),
        Game("CARL", "DAN", [Round.from_score((25, 5), (0, 0), scoring="difference")]),
    ]
    tallies = tally_games(games)
    assert tallies["ANNA"].points == tallies["CARL"].points == 20
    assert game_points(["ANNA", "CARL"], tallies) == {"ANNA": 60, "CARL": 25}


# --- the registry ---------------------------------------------------------------------------------


def test_swiss_method_and_steps_are_registered():
    assert METHODS["swiss"] == ("buchholz", "twenties", "shoot-out")
    assert resolve_chain("swiss") == METHODS["swiss"]
    assert {"buchholz", "game-points", "twenties"} <= set(STEPS)
    assert STEPS["buchholz"].values is buchholz and STEPS["game-points"].values is game_points
    assert "FIDE" in STEPS["buchholz"].rule


@pytest.mark.parametrize(
    "chain",
    [
        ["game-points", "buchholz", "twenties", "shoot-out"],
        ["buchholz", "head-to-head", "shoot-out"],
        ["game-points"],
    ],
)
def test_a_stage_can_name_its_own_chain_with_the_swiss_steps(chain):
    games, credits = swiss_with_byes()
    result = compute_standings(games, chain=chain, credits=credits)
    assert sorted(row.entry for row in result.rows) == ["ANNA", "BEN", "CARL", "DAN", "EVE"]
    assert result.rows[0].points == 10
