"""Standings: points, the tiebreak chains (WCC Tie-Breaking Procedure), shoot-outs, ranks."""

import pytest

from scoring.engine import (
    METHODS,
    STEPS,
    EngineInputError,
    Game,
    Round,
    Shootout,
    StandingRow,
    compute_standings,
)
from scoring.engine.tallies import tally_games
from scoring.engine.tiebreaks import twenties_among_tied


def game(a: str, b: str, pa: int, pb: int, ta: int = 0, tb: int = 0) -> Game:
    """A 4-round game ending ``pa``-``pb`` (pa + pb = 8) with ``ta``/``tb`` 20s in round 1."""
    assert pa + pb == 8
    points = [(2, 0)] * (pa // 2) + [(1, 1)] * (pa % 2) + [(0, 2)] * ((pb - pa % 2) // 2)
    assert len(points) == 4
    rounds = [
        Round(points=p, twenties=(ta, tb) if i == 0 else (0, 0)) for i, p in enumerate(points)
    ]
    return Game(a, b, rounds)


def order(standings) -> list[str]:
    return [row.entry for row in standings.rows]


def by_entry(standings) -> dict[str, StandingRow]:
    return {row.entry: row for row in standings.rows}


# --- the design example ---------------------------------------------------------------------------


def design_games() -> list[Game]:
    return [
        Game(
            "ANNA",
            "BEN",
            [Round(points=(2, 0), twenties=(3, 1)), Round.from_score((45, 60), (1, 2))],
        ),
        Game(
            "CARL",
            "DAN",
            [Round(points=(1, 1), twenties=(2, 2)), Round(points=(0, 0), twenties=(0, 0))],
        ),
    ]


def test_design_example_preliminary():
    """WCC preliminary rounds: points, then "The player with the higher number of 20's in the
    match will place higher. If there still is a tie, a Shoot-Out will be conducted.\""""
    result = compute_standings(design_games(), method="preliminary")
    assert result.rows == [
        StandingRow(1, "ANNA", 1, 2, 4, "twenties"),
        StandingRow(2, "BEN", 1, 2, 3, "twenties"),
        StandingRow(3, "CARL", 1, 1, 2, None),
        StandingRow(3, "DAN", 1, 1, 2, None),
    ]
    assert result.shootouts_required == [["CARL", "DAN"]]


def test_design_example_with_the_shootout():
    result = compute_standings(design_games(), shootouts=[Shootout(twenties={"CARL": 7, "DAN": 5})])
    rows = by_entry(result)
    assert (rows["CARL"].rank, rows["CARL"].tiebreak) == (3, "shoot-out")
    assert (rows["DAN"].rank, rows["DAN"].tiebreak) == (4, "shoot-out")
    assert result.shootouts_required == []


# --- points and ranks -----------------------------------------------------------------------------


def test_wcc_scoring_standings_rank_by_points_first():
    """WCC Scoring: all tournament games use a point-scoring system; more points rank higher,
    whatever the 20s."""
    games = [game("ANNA", "BEN", 5, 3, ta=0, tb=6), game("CARL", "DAN", 8, 0)]
    result = compute_standings(games)
    assert order(result) == ["CARL", "ANNA", "BEN", "DAN"]
    assert [row.rank for row in result.rows] == [1, 2, 3, 4]
    assert all(row.tiebreak is None for row in result.rows)


def test_still_tied_entries_share_a_rank_standard_competition_ranking():
    """Ties left after every step share a rank; the next rank skips (1, 2, 3, 3, 5)."""
    games = [
        game("ANNA", "XENA", 8, 0),
        game("BEN", "XENA", 6, 2),
        game("CARL", "DAN", 4, 4, ta=1, tb=1),
    ]
    result = compute_standings(games)
    assert order(result) == ["ANNA", "BEN", "CARL", "DAN", "XENA"]
    assert [row.points for row in result.rows] == [8, 6, 4, 4, 2]
    assert [row.rank for row in result.rows] == [1, 2, 3, 3, 5]
    assert result.shootouts_required == [["CARL", "DAN"]]


def test_within_a_shared_rank_entries_are_listed_by_name():
    games = [game("ZOE", "ABE", 4, 4), game("MIA", "ABE", 4, 4), game("MIA", "ZOE", 4, 4)]
    result = compute_standings(games)
    assert order(result) == ["ABE", "MIA", "ZOE"]
    assert result.shootouts_required == [["ABE", "MIA", "ZOE"]]


def test_entries_without_games_appear_with_zeros():
    result = compute_standings([game("ANNA", "BEN", 6, 2)], entries=["ANNA", "BEN", "CARL"])
    assert by_entry(result)["CARL"] == StandingRow(3, "CARL", 0, 0, 0, None)
    assert compute_standings([], entries=["X", "Y"]).shootouts_required == [["X", "Y"]]


def test_games_count_each_game_of_an_entry():
    games = [game("ANNA", "BEN", 6, 2), game("ANNA", "CARL", 4, 4), game("BEN", "CARL", 8, 0)]
    rows = by_entry(compute_standings(games))
    assert (rows["ANNA"].games, rows["ANNA"].points) == (2, 10)
    assert (rows["CARL"].games, rows["CARL"].points) == (2, 4)


def anna_beat_ben() -> list[Game]:
    """ANNA and BEN on 8 points each; ANNA beat BEN, but BEN has the one 20."""
    return [game("ANNA", "BEN", 8, 0, ta=0, tb=1), game("BEN", "CARL", 8, 0)]


# --- preliminary ----------------------------------------------------------------------------------


def test_wcc_preliminary_twenties_then_shootout():
    """WCC Tie-Breaking Procedure, preliminary rounds: 20s in the match, then a shoot-out."""
    games = [
        game("ANNA", "XENA", 7, 1, ta=5),
        game("BEN", "XENA", 7, 1, ta=3),
        game("CARL", "XENA", 7, 1, ta=3),
    ]
    result = compute_standings(games, method="preliminary")
    rows = by_entry(result)
    assert (rows["ANNA"].rank, rows["ANNA"].tiebreak) == (1, "twenties")
    assert (rows["BEN"].rank, rows["BEN"].tiebreak) == (2, None)
    assert (rows["CARL"].rank, rows["CARL"].tiebreak) == (2, None)
    assert result.shootouts_required == [["BEN", "CARL"]]


def test_preliminary_ignores_head_to_head():
    """WCC preliminary: only 20s and the shoot-out break ties, even if the tied ones met."""
    games = anna_beat_ben()
    rows = by_entry(compute_standings(games, method="preliminary"))
    assert rows["ANNA"].points == rows["BEN"].points == 8
    assert rows["BEN"].rank < rows["ANNA"].rank  # BEN has more 20s though ANNA beat him
    assert rows["BEN"].tiebreak == "twenties"


# --- round robin ----------------------------------------------------------------------------------


def test_wcc_head_to_head_two_players_winner_of_their_game():
    """WCC Head-To-Head Tie Breaker, "If two players are tied in total points": "The player who
    won the game between the tied players will receive the higher position" (round-robin
    Step 1) — ahead of the 20s, which would have favoured the other."""
    games = anna_beat_ben()
    rows = by_entry(compute_standings(games, method="round-robin"))
    assert rows["ANNA"].rank < rows["BEN"].rank
    assert rows["ANNA"].tiebreak == rows["BEN"].tiebreak == "head-to-head"


def test_wcc_head_to_head_two_players_counts_games_won_not_points():
    """WCC Head-To-Head, two players: the winner of their game(s). Having won one game each,
    they stay level at Step 1 though the points between them differ (9-7); Step 2 decides."""
    games = [
        game("ANNA", "BEN", 6, 2, ta=0, tb=2),
        game("ANNA", "BEN", 3, 5, ta=1, tb=0),
        game("ANNA", "CARL", 0, 8),
        game("BEN", "CARL", 2, 6),
    ]
    rows = by_entry(compute_standings(games, method="round-robin"))
    assert rows["ANNA"].points == rows["BEN"].points == 9
    assert rows["BEN"].rank < rows["ANNA"].rank
    assert rows["BEN"].tiebreak == "twenties-among-tied"


def test_wcc_head_to_head_more_than_two_players_points_among_the_tied():
    """WCC Head-To-Head, "If more than two players are tied": "Players add their points just from
    the games when they played the other players with whom they are tied"."""
    games = [
        game("ANNA", "BEN", 5, 3),
        game("BEN", "CARL", 6, 2),
        game("CARL", "ANNA", 7, 1),
        # outside games even the totals out at 13: ANNA 6 + 7, BEN 9 + 4, CARL 9 + 4
        game("ANNA", "X", 7, 1),
        game("BEN", "X", 4, 4),
        game("CARL", "X", 4, 4),
    ]
    result = compute_standings(games, method="round-robin")
    assert [by_entry(result)[e].points for e in ("ANNA", "BEN", "CARL")] == [13, 13, 13]
    # among themselves: ANNA 5+1=6, BEN 3+6=9, CARL 2+7=9 -> ANNA last; BEN and CARL restart
    assert order(result)[-2:] == ["ANNA", "X"]
    assert order(result)[:2] == ["BEN", "CARL"]  # BEN beat CARL: two-player head-to-head
    assert {row.tiebreak for row in result.rows if row.entry != "X"} == {"head-to-head"}


def four_way_tie() -> list[Game]:
    """ANNA, BEN, CARL, DAN all on 15 points; EVE (20) is above them.

    Among the four: ANNA 15, the others 11 each. Among BEN, CARL, DAN alone: BEN 10, CARL 8, DAN 6.
    The 20s among BEN, CARL and DAN run the other way: DAN 5, CARL 3, BEN 0.
    """
    return [
        game("BEN", "CARL", 6, 2, ta=0, tb=2),
        game("BEN", "DAN", 4, 4, ta=0, tb=3),
        game("CARL", "DAN", 6, 2, ta=1, tb=2),
        game("ANNA", "BEN", 7, 1),
        game("ANNA", "CARL", 5, 3),
        game("ANNA", "DAN", 3, 5),
        game("ANNA", "EVE", 0, 8),
        game("BEN", "EVE", 4, 4),
        game("CARL", "EVE", 4, 4),
        game("DAN", "EVE", 4, 4),
    ]


def test_wcc_round_robin_restart_at_step_1_among_those_still_tied():
    """WCC round-robin: "If a tie is broken during Step 1, Step 2 or Step 3, but remaining ties
    still exist, they will be broken by returning to Step 1 to consider only players who remain
    tied." Head-to-head among the four sets ANNA apart; BEN, CARL and DAN stay level and go back
    to head-to-head among the three, which orders them BEN, CARL, DAN. Carrying on to Step 2
    instead would have ordered them DAN, CARL, BEN."""
    games = four_way_tie()
    result = compute_standings(games, method="round-robin")
    assert {by_entry(result)[e].points for e in ("ANNA", "BEN", "CARL", "DAN")} == {15}
    assert order(result) == ["EVE", "ANNA", "BEN", "CARL", "DAN"]
    assert [row.rank for row in result.rows] == [1, 2, 3, 4, 5]
    assert [row.tiebreak for row in result.rows] == [None, *["head-to-head"] * 4]
    assert result.shootouts_required == []
    # The alternative the rule rules out: Step 2 on the three gives the opposite order.
    step_2 = twenties_among_tied(["BEN", "CARL", "DAN"], tally_games(games))
    assert sorted(step_2, key=step_2.__getitem__, reverse=True) == ["DAN", "CARL", "BEN"]


def test_wcc_round_robin_step_2_partial_break_restarts_at_step_1():
    """WCC round-robin Step 2, then "returning to Step 1": XAVI, YUKI and ZED won one game each
    among themselves (8 points each, so Step 1 cannot split them). Step 2, 20s among the tied,
    sets XAVI apart; YUKI and ZED return to Step 1, where YUKI beat ZED. Going on to Step 3
    instead would have put ZED first (5 more 20s against WES)."""
    games = [
        game("XAVI", "YUKI", 6, 2, ta=3, tb=1),
        game("YUKI", "ZED", 6, 2),
        game("ZED", "XAVI", 6, 2, ta=1, tb=0),
        game("XAVI", "WES", 5, 3),
        game("YUKI", "WES", 5, 3),
        game("ZED", "WES", 5, 3, ta=5),
    ]
    result = compute_standings(games, method="round-robin")
    rows = by_entry(result)
    assert rows["XAVI"].points == rows["YUKI"].points == rows["ZED"].points == 13
    assert order(result) == ["XAVI", "YUKI", "ZED", "WES"]
    assert rows["XAVI"].tiebreak == "twenties-among-tied"
    assert rows["YUKI"].tiebreak == rows["ZED"].tiebreak == "head-to-head"
    assert rows["ZED"].twenties > rows["YUKI"].twenties


def test_wcc_round_robin_step_3_twenties_in_all_games():
    """WCC round-robin Step 3: "the player with the higher number of 20's scored in all games of
    that round-robin playoff will place higher" — after a drawn game between them."""
    games = [
        game("ANNA", "BEN", 4, 4, ta=1, tb=1),
        game("ANNA", "CARL", 4, 4, ta=2),
        game("BEN", "CARL", 4, 4, ta=0),
    ]
    result = compute_standings(games, method="round-robin")
    # all three on 8 points and level head-to-head; 20s among the tied: ANNA 3, BEN 1, CARL 0
    assert order(result) == ["ANNA", "BEN", "CARL"]
    assert {row.tiebreak for row in result.rows} == {"twenties-among-tied"}
    # now two drawn players whose games among the tied have no 20s: Step 3 decides
    games = [game("ANNA", "BEN", 4, 4), game("ANNA", "X", 4, 4, ta=2), game("BEN", "Y", 4, 4)]
    rows = by_entry(compute_standings(games, method="round-robin"))
    assert rows["ANNA"].rank < rows["BEN"].rank
    assert rows["ANNA"].tiebreak == "twenties-all-games"


def test_wcc_round_robin_step_4_shootout_after_steps_1_to_3():
    """WCC round-robin Step 4: "If a tie still exists, a Shoot-Out will be conducted"."""
    games = [game("ANNA", "BEN", 4, 4, ta=1, tb=1)]
    result = compute_standings(games, method="round-robin")
    assert result.shootouts_required == [["ANNA", "BEN"]]
    settled = compute_standings(
        games, method="round-robin", shootouts=[Shootout({"ANNA": 2, "BEN": 9})]
    )
    assert order(settled) == ["BEN", "ANNA"]
    assert {row.tiebreak for row in settled.rows} == {"shoot-out"}


def test_a_stage_may_name_its_own_chain():
    """A chain is a list of step names: here 20s come before head-to-head."""
    games = anna_beat_ben()
    rows = by_entry(compute_standings(games, chain=["twenties", "head-to-head", "shoot-out"]))
    assert rows["BEN"].rank < rows["ANNA"].rank and rows["BEN"].tiebreak == "twenties"
    rows = by_entry(compute_standings(games, chain=["head-to-head", "twenties"]))
    assert rows["ANNA"].rank < rows["BEN"].rank and rows["ANNA"].tiebreak == "head-to-head"


def test_a_chain_without_a_shootout_leaves_ties_listed():
    games = [game("ANNA", "BEN", 4, 4)]
    result = compute_standings(games, chain=["twenties"])
    assert result.shootouts_required == [["ANNA", "BEN"]]
    with pytest.raises(EngineInputError, match="has no shoot-out"):
        compute_standings(games, chain=["twenties"], shootouts=[Shootout({"ANNA": 1, "BEN": 2})])


def test_methods_and_steps_registries():
    assert METHODS["preliminary"] == ("twenties", "shoot-out")
    assert METHODS["round-robin"] == (
        "head-to-head",
        "twenties-among-tied",
        "twenties-all-games",
        "shoot-out",
    )
    assert METHODS["swiss"] == ("buchholz", "twenties", "shoot-out")
    wcc = {"twenties", "head-to-head", "twenties-among-tied", "twenties-all-games", "shoot-out"}
    assert set(STEPS) == wcc | {"buchholz", "game-points"}
    assert all(STEPS[name].rule.startswith("WCC") for name in wcc)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "monrad"}, "unknown method 'monrad'"),
        ({"chain": ["points"]}, "unknown tiebreak step 'points'"),
        ({"chain": ["shoot-out", "twenties"]}, "shoot-out can only come last"),
        ({"chain": ["twenties", "twenties"]}, "names a step twice"),
        ({"chain": "twenties"}, "list of step names"),
    ],
)
def test_bad_methods_and_chains_are_refused(kwargs, message):
    with pytest.raises(EngineInputError, match=message):
        compute_standings([game("ANNA", "BEN", 4, 4)], **kwargs)


# --- shoot-outs -----------------------------------------------------------------------------------


def three_tied() -> list[Game]:
    """Three drawn games among ANNA, BEN and CARL: level on points, head-to-head and 20s."""
    return [game("ANNA", "BEN", 4, 4), game("BEN", "CARL", 4, 4), game("CARL", "ANNA", 4, 4)]


def test_wcc_shootout_top_scorers_advance_and_the_rest_follow():
    """WCC Shoot-Out Procedure: "Top scorer(s) after all shots are taken will advance"."""
    shootout = Shootout({"ANNA": 4, "BEN": 9, "CARL": 6})
    result = compute_standings(three_tied(), shootouts=[shootout])
    assert order(result)[:3] == ["BEN", "CARL", "ANNA"]
    assert [row.rank for row in result.rows[:3]] == [1, 2, 3]


def test_wcc_shootout_still_tied_shoot_again_from_the_beginning():
    """WCC Shoot-Out Procedure: "If still tied, repeat Shoot-out from the beginning" — the next
    shoot-out among exactly those still tied settles them."""
    first = Shootout({"ANNA": 6, "BEN": 6, "CARL": 4})
    result = compute_standings(three_tied(), shootouts=[first])
    rows = by_entry(result)
    assert (rows["ANNA"].rank, rows["BEN"].rank, rows["CARL"].rank) == (1, 1, 3)
    assert rows["ANNA"].tiebreak is None and rows["CARL"].tiebreak == "shoot-out"
    assert result.shootouts_required == [["ANNA", "BEN"]]

    level_again = Shootout({"ANNA": 5, "BEN": 5})
    result = compute_standings(three_tied(), shootouts=[first, level_again])
    assert result.shootouts_required == [["ANNA", "BEN"]]

    third = Shootout({"BEN": 8, "ANNA": 7})
    result = compute_standings(three_tied(), shootouts=[first, level_again, third])
    assert order(result)[:3] == ["BEN", "ANNA", "CARL"]
    assert [row.tiebreak for row in result.rows[:3]] == ["shoot-out"] * 3
    assert result.shootouts_required == []


def test_a_shootout_must_name_a_group_tied_at_that_point():
    first = Shootout({"ANNA": 6, "BEN": 6, "CARL": 4})
    with pytest.raises(EngineInputError) as caught:
        compute_standings(three_tied(), shootouts=[first, first])
    message = str(caught.value)
    assert message.startswith("shoot-out 2 (ANNA, BEN, CARL) does not settle a tie")
    assert "[ANNA, BEN]" in message
    with pytest.raises(EngineInputError, match=r"shoot-out 1 \(ANNA, BEN\) does not settle"):
        compute_standings(three_tied(), shootouts=[Shootout({"ANNA": 1, "BEN": 2})])


def test_a_shootout_that_settles_no_tie_any_more_is_set_aside_when_asked():
    """Results corrected after a shoot-out: its entries are no longer tied with each other alone.
    Asked to, the engine sets it aside (it counts for nothing), says where its entries stand
    now, and still applies the shoot-outs that settle a tie."""
    stale = Shootout({"ANNA": 1, "BEN": 2})
    widened = compute_standings(three_tied(), shootouts=[stale], set_aside_unsettled=True)
    assert widened.shootouts_required == [["ANNA", "BEN", "CARL"]]
    [unsettled] = widened.set_aside
    assert unsettled.number == 1 and unsettled.shootout == stale
    assert unsettled.now_tied() == (("ANNA", "BEN", "CARL"),)

    settling = Shootout({"ANNA": 4, "BEN": 9, "CARL": 6})
    both = compute_standings(three_tied(), shootouts=[stale, settling], set_aside_unsettled=True)
    assert order(both)[:3] == ["BEN", "CARL", "ANNA"] and not both.shootouts_required
    assert [u.number for u in both.set_aside] == [1]

    untied = compute_standings(
        [game("ANNA", "BEN", 6, 2)], shootouts=[stale], set_aside_unsettled=True
    )
    assert order(untied) == ["ANNA", "BEN"] and untied.set_aside[0].now_tied() == ()
    assert untied.rows[0].tiebreak is None
    # without being asked, it is refused as before (the command line's bad input)
    with pytest.raises(EngineInputError, match="does not settle a tie"):
        compute_standings(three_tied(), shootouts=[stale])


def test_a_shootout_among_entries_not_tied_is_refused():
    games = [game("ANNA", "BEN", 6, 2)]
    with pytest.raises(EngineInputError, match="no entries are tied"):
        compute_standings(games, shootouts=[Shootout({"ANNA": 1, "BEN": 2})])


def test_a_shootout_naming_an_unknown_entry_is_refused():
    with pytest.raises(EngineInputError, match=r"shoot-out 1 .*: DAVE is not an entry"):
        compute_standings(three_tied(), shootouts=[Shootout({"ANNA": 1, "DAVE": 2})])


@pytest.mark.parametrize("made", [13, -1, 2.5, True])
def test_wcc_shootout_is_twelve_shots_per_entry(made):
    """WCC Shoot-Out Procedure: "12 opportunities (6 each for doubles)" — 0 to 12 per entry."""
    with pytest.raises(EngineInputError, match="0 to 12"):
        Shootout({"ANNA": made, "BEN": 3})
    assert Shootout({"ANNA": 12, "BEN": 0}).finishing_order() == [["ANNA"], ["BEN"]]


def test_a_shootout_needs_two_entries():
    with pytest.raises(EngineInputError, match="at least two"):
        Shootout({"ANNA": 3})


# --- input errors ---------------------------------------------------------------------------------


def test_an_entry_cannot_play_itself_names_the_game():
    games = [game("ANNA", "BEN", 4, 4), Game("CARL", "CARL", [])]
    with pytest.raises(EngineInputError, match=r"^game 2 \(CARL v CARL\): an entry cannot play"):
        compute_standings(games)


def test_discs_check_names_game_and_round():
    games = [
        game("ANNA", "BEN", 4, 4),
        Game("CARL", "DAN", [Round((2, 0), (0, 0)), Round((2, 0), (7, 0))]),
    ]
    compute_standings(games)
    with pytest.raises(
        EngineInputError,
        match=r"^game 2 \(CARL v DAN\), round 2: the 20s \(7 for CARL, 0 for DAN\)",
    ):
        compute_standings(games, discs=6)


# --- performance ----------------------------------------------------------------------------------


def test_four_hundred_players_ten_games_each():
    """A standings page for 400 players x 10 games (2,000 games), by each method: every player
    ranked once, by points first (its speed is measured by bench/web.py, not here)."""
    players = [f"P{i:03d}" for i in range(400)]
    games = []
    for turn in range(10):
        shifted = players[turn * 7 % 400 :] + players[: turn * 7 % 400]
        for i in range(0, 400, 2):
            pa = (i + turn) % 9
            games.append(game(shifted[i], shifted[i + 1], pa, 8 - pa, ta=i % 3, tb=turn % 4))
    assert len(games) == 2000
    for method in ("preliminary", "round-robin", "swiss"):
        result = compute_standings(games, method=method)
        assert sorted(r.entry for r in result.rows) == sorted(players)
        ranks = [r.rank for r in result.rows]
        assert ranks == sorted(ranks) and ranks[0] == 1
        points = [r.points for r in result.rows]
        assert points == sorted(points, reverse=True)


def test_bye_credit_counts_in_totals_but_not_head_to_head():
    """A bye (odd field) is worth what the event sets; it never counts against an opponent."""
    from scoring.engine import Credit, Game, Round, compute_standings

    games = [Game("ANNA", "BEN", [Round(points=(2, 0), twenties=(1, 0))] * 2)]
    standings = compute_standings(
        games, chain=["head-to-head"], credits={"BEN": Credit(games=1, points=4, twenties=2)}
    )
    rows = {r.entry: r for r in standings.rows}
    assert (rows["BEN"].games, rows["BEN"].points, rows["BEN"].twenties) == (2, 4, 2)
    # Tied on 4 points: head-to-head looks only at their game, which ANNA won.
    assert [r.entry for r in standings.rows] == ["ANNA", "BEN"]
    assert standings.rows[0].tiebreak == "head-to-head"
