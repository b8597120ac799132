"""Simulated play of a fixed match: every game is played, where a best of N stops once a side has
won the majority."""

from __future__ import annotations

import pytest

from scoring.results.outcomes import match_outcome
from simulation.models import AutoPlay, Status
from simulation.services import autoplay, playing
from simulation.tasks import run_autoplay
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Game, Stage
from tournaments.services.draws import draw_stage


def _job(match_format: str) -> dict:
    """A match of 3 whose side A has won the first two games, its third game still to play."""
    return {
        "match_id": 1,
        "best_of": 3,
        "match_format": match_format,
        "wins": [2, 0],
        "players": ["competitive", "competitive"],
        "rounds": 1,
        "discs_per_player": 2,
        "rules": "nca",
        "games": [{"game_id": 3, "first_side": "a", "playoff": False, "seed": 5}],
    }


def test_a_fixed_match_plays_the_game_a_best_of_n_no_longer_needs():
    assert playing.play_match_job(_job("best-of"))["games"] == []
    played = playing.play_match_job(_job("fixed"))["games"]
    assert [g["game_id"] for g in played] == [3] and len(played[0]["rounds"]) == 1


@pytest.mark.django_db
def test_autoplay_of_a_fixed_match_plays_and_records_all_its_games(eager):
    tournament, category = make_tournament(players=2)
    stage = add_stage(
        category, 1, Stage.Kind.ROUND_ROBIN, best_of=4, match_format=Stage.MatchFormat.FIXED
    )
    draw_stage(stage)
    match = stage.matches.get()
    run = autoplay.create_autoplay(
        tournament=tournament, seed=11, scope=AutoPlay.Scope.MATCH, match=match
    )
    run_autoplay(run.pk)
    run.refresh_from_db()
    assert run.status == Status.DONE, run.error
    played = Game.objects.filter(match=match, rounds__isnull=False).distinct().count()
    assert played == 4 == run.games_played
    outcome = match_outcome(match)
    assert outcome.complete
    a, b = outcome.points
    assert outcome.winner == (None if a == b else "a" if a > b else "b")
