"""A timed championship game still gets its deciding rounds after the buzzer (WCC: "If after 4
rounds (a game) the player's scores are tied, a 5th round will be played as a winner has to be
determined in these games"): the rounds the buzzer kept from being begun record 0-0, then, if
the game is level, rounds are played in full with the clock stopped until one side leads."""

from __future__ import annotations

import pytest

from scoring.engine import GameRules
from simulation.game import play_game
from simulation.models import AutoPlay, SimulatedGame, Status
from simulation.services import autoplay
from simulation.tasks import run_autoplay
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Game, Stage


def _novices(seed: int, minutes: float = 15, playoff: bool = True) -> dict:
    return play_game(
        ["novice", "novice"], seed=seed, playoff=playoff, time_limit=minutes, events=False
    )


def _deciding_seed() -> tuple[int, dict]:
    for seed in range(200):
        record = _novices(seed)
        if len(record["rounds"]) > 4 and record["rounds"][4].get("after_buzzer"):
            return seed, record
    raise AssertionError("no game of 200 went to a deciding round after the buzzer")


def test_a_level_timed_playoff_game_plays_deciding_rounds_with_the_clock_stopped():
    seed, record = _deciding_seed()
    rounds = record["rounds"]
    regular = rounds[:4]
    deciding = rounds[4:]
    assert record["time"]["expired"]
    assert deciding and all(r["after_buzzer"] for r in deciding)
    assert not any(r.get("after_buzzer") for r in regular)
    # Level after the regular rounds, then every deciding round played in full, untimed.
    assert sum(r["points"][0] for r in regular) == sum(r["points"][1] for r in regular)
    for r in deciding:
        assert len(r["shots"]) == 2 * record["discs_per_player"] and r["unshot"] == 0
        assert all("seconds" not in shot for shot in r["shots"])
    # The scoring engine's judge agrees the game is over, with a winner.
    state = (
        GameRules(system="nca", playoff=True)
        .scoring_system()
        .tally([tuple(r["points"]) for r in rounds])
    )
    assert state.over and state.winner is not None
    # The same game without a playoff ends level at the buzzer, as before.
    plain = _novices(seed, playoff=False)
    assert plain["points"][0] == plain["points"][1]
    assert plain["rounds"] == regular


def test_an_untimed_or_non_playoff_game_never_marks_rounds_after_the_buzzer():
    for seed in range(5):
        assert not any("after_buzzer" in r for r in _novices(seed, playoff=False)["rounds"])
        untimed = play_game(["novice", "novice"], seed=seed, playoff=True, events=False)
        assert "time" not in untimed and not any("after_buzzer" in r for r in untimed["rounds"])


@pytest.mark.slow
def test_no_timed_novice_playoff_game_of_200_ends_level():
    level = [s for s in range(200) if len(set(_novices(s)["points"])) == 1]
    assert level == []


@pytest.mark.django_db
@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_autoplay_of_a_timed_knockout_of_novices_succeeds(seed, tasks_in_place):
    tournament, category = make_tournament(f"ko-{seed}", players=4, discs=8, rounds=4)
    tournament.game_minutes = 15
    tournament.save(update_fields=["game_minutes"])
    category.preset, category.name = "", "Junior Singles"  # played at the novice level
    category.save(update_fields=["preset", "name"])
    stage = add_stage(category, 1, Stage.Kind.KNOCKOUT, best_of=1)
    run = autoplay.create_autoplay(
        tournament=tournament,
        scope=AutoPlay.Scope.STAGE,
        stage=stage,
        seed=seed,
    )
    run_autoplay(run.pk)
    run.refresh_from_db()

    assert run.status == Status.DONE, run.error
    games = list(Game.objects.filter(match__stage=stage, rounds__isnull=False).distinct())
    assert len(games) == 3  # two semi-finals and the final
    for game in games:
        a = sum(r.points_a for r in game.rounds.all())
        b = sum(r.points_b for r in game.rounds.all())
        assert a != b, "a knockout game must have a winner"
        record = SimulatedGame.objects.get(game=game).record_json()
        assert record["time"]["limit_minutes"] == 15
        assert [p["name"] for p in record["players"]] == ["novice", "novice"]
