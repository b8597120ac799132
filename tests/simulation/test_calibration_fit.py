"""The fitted players against the real 20s, at a sample small enough for the suite.

The large runs (1,000 games and more) are in ``bench/calibration.py``; here 40-60 seeded games
per check, with tolerances of about two standard errors of such a sample: the 20s of one
player-round spread with a standard deviation near 1.4, and one game's 20s per player near 2.5.
"""

from __future__ import annotations

import pytest

from simulation.game import play_game
from simulation.players.calibrate import (
    FIT_BRACKETS,
    GAME_SEED,
    LADDER,
    PLAYER_ROUND_MEAN,
    compare,
    fit_open_board,
    format_table,
    main,
    play_games,
)
from simulation.players.estimate import TWENTIES_PER_GAME, profile_from_twenties
from simulation.players.profiles import LEVELS, PROFILES, get_profile

pytestmark = pytest.mark.slow


def test_competitive_players_make_the_real_20s_per_round():
    stats = play_games("competitive", games=50, seed=GAME_SEED + 50_000)
    # 400 player-rounds, two per round and correlated: a standard error near 0.1.
    assert stats.per_round == pytest.approx(PLAYER_ROUND_MEAN, abs=0.25)
    rows = {row.target: row for row in compare(stats)}
    assert rows["20s per player per round, mean"].real == PLAYER_ROUND_MEAN


@pytest.mark.parametrize("x", [3.5, 7.0])
def test_a_player_described_by_their_record_makes_about_that_many(x):
    """100 games (200 player-games: a standard error near 0.2 20s per game); at 50, a
    recreational pairing's spread alone can miss by 15 %."""
    stats = play_games({"twenties_per_game": x}, games=100, seed=GAME_SEED + 60_000, jobs=2)
    assert stats.per_game == pytest.approx(x, rel=0.15)


def test_play_game_takes_a_player_by_their_record():
    record = play_game([{"twenties_per_game": 5.0}, "competitive"], seed=3, rounds=1)
    estimated = profile_from_twenties(5.0)
    assert record["players"][0]["angle_sd"] == estimated["angle_sd"]
    assert record["players"][0]["open_board"] == estimated["open_board"]
    with pytest.raises(ValueError, match="twenties_per_game"):
        play_game([{"twenties_per_game": 5.0, "angle_sd": 1.0}, "competitive"], seed=3)
    with pytest.raises(ValueError, match="20s per game"):
        play_game([{"twenties_per_game": "many"}, "competitive"], seed=3)


def test_the_record_maps_to_the_level_that_makes_it():
    for level in LEVELS:
        estimated = get_profile({"twenties_per_game": TWENTIES_PER_GAME[level]})
        assert estimated.angle_sd == pytest.approx(PROFILES[level].angle_sd, abs=1e-4)
        assert estimated.open_board == pytest.approx(PROFILES[level].open_board, abs=0.01)
    # The simulated ladder rises with skill, as the real one does.
    assert [TWENTIES_PER_GAME[lv] for lv in LEVELS] == sorted(TWENTIES_PER_GAME.values())
    assert [LADDER[lv] for lv in LEVELS] == sorted(LADDER.values())


def test_the_calibrate_command_prints_every_target(capsys):
    main(["--games", "4"])
    out = capsys.readouterr().out
    for target in (
        "20s per player per round, mean",
        "player-rounds with 0 20s",
        "rounds with 11+ 20s by both",
        "20s per game, novice v novice",
        "20s per game, best v best",
        "open-20 rate, competitive",
    ):
        assert target in out
    assert "simulated" in out and "difference" in out


def test_the_table_shows_target_simulated_and_difference():
    stats = play_games("competitive", games=2, seed=GAME_SEED)
    table = format_table(compare(stats))
    first = table.splitlines()[1].split()
    assert float(first[-1]) == pytest.approx(float(first[-2]) - float(first[-3]), abs=0.011)


def test_the_fit_stays_in_its_bracket_and_reports_each_trial():
    trials: list[str] = []
    weight, made = fit_open_board("competitive", games=2, steps=1, report=trials.append)
    low, high = FIT_BRACKETS["competitive"]
    assert low <= weight <= high
    assert made >= 0
    assert 2 <= len(trials) <= 3 and all("open_board=" in line for line in trials)


def _round_correlation(games: int, seed: int) -> float:
    import numpy as np

    pairs = [
        r["twenties"]
        for i in range(games)
        for r in play_game(["competitive", "competitive"], seed=seed + i)["rounds"]
    ]
    a, b = np.array(pairs, dtype=float).T
    return float(np.corrcoef(a, b)[0, 1])


def test_the_two_players_20s_in_a_round_go_together():
    """Real rounds come in kinds (open-20 trades, rounds where discs stick): the two players'
    20s in a round correlate at about 0.45 in the real tables. The simulation gives about 0.42
    with the rounds' shared form alone, about 0.3 with each player's own form in play and the
    refit (0.24 without the refit); before both, about 0.05. 240 rounds: the standard error of
    the correlation is about 0.06."""
    assert _round_correlation(60, GAME_SEED + 70_000) > 0.25
