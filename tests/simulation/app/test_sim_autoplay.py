"""Auto-play writes simulated games through the scorecard workflow, like people do."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.engine import round_data
from scoring.models import CardRow, ShootOut
from scoring.results.services import record_game
from scoring.standings.selectors import stage_standings
from simulation.models import AutoPlay, SimulatedGame, SimulationUser, Status
from simulation.services import autoplay
from simulation.services.dryrun import play_statistics as dryrun_stats
from simulation.services.system_users import REFEREE_USERNAME, TABLE_USERNAME
from simulation.tasks import run_autoplay
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Game, Match, Stage
from tournaments.services.draws import draw_stage


def _run(tournament, **kwargs) -> AutoPlay:
    run = autoplay.create_autoplay(tournament=tournament, seed=11, **kwargs)
    run_autoplay(run.pk)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
@pytest.mark.slow
def test_autoplay_of_a_stage_fills_and_verifies_the_cards(eager):
    tournament, category = make_tournament(players=4)
    stage = add_stage(category, 1, Stage.Kind.ROUND_ROBIN, advance_count=2)
    final = add_stage(category, 2, Stage.Kind.KNOCKOUT, best_of=1)

    run = _run(tournament, scope=AutoPlay.Scope.STAGE, stage=stage)

    assert run.status == Status.DONE, run.error
    games = list(Game.objects.filter(match__stage=stage).prefetch_related("rounds", "card_rows"))
    assert len(games) == 6 == run.games_played
    referee = SimulationUser.objects.get(username=REFEREE_USERNAME)
    table = SimulationUser.objects.get(username=TABLE_USERNAME)
    for game in games:
        assert game.simulated
        assert game.rounds.count() == category.rounds_per_game
        rows = list(game.card_rows.select_related("card__entry__player"))
        assert len(rows) == 2
        match = game.match
        for row in rows:
            assert row.status == CardRow.Status.VERIFIED
            assert row.simulated
            assert row.validated_initials == "SIM"
            opponent = match.entry_b if row.card.entry_id == match.entry_a_id else match.entry_a
            assert row.validated_number == str(opponent.player.number)
            assert row.filled_by_id == referee.id and row.verified_by_id == table.id
        assert SimulatedGame.objects.get(game=game).record_json()["rounds"]
    # Standings are read from the official results; they must agree with the card rows.
    standings = stage_standings(stage)
    assert len(standings.lines) == 4
    for line in standings.lines:
        rows = CardRow.objects.filter(card__stage=stage, card__entry=line.entry)
        assert line.points == sum(r.total_points for r in rows)
        assert line.twenties == sum(r.total_twenties for r in rows)
        assert line.games == 3
    # The stage is complete and play stops there: advancing and drawing the final is the
    # organizer's act (test_sim_real_tournament.py).
    assert not Match.objects.filter(stage=final).exists()


@pytest.mark.django_db
def test_autoplay_of_one_match_uses_the_chosen_profiles_and_stops(eager):
    tournament, category = make_tournament(players=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    match = stage.matches.exclude(entry_b=None).first()

    run = _run(
        tournament,
        scope=AutoPlay.Scope.MATCH,
        match=match,
        players={"a": "best", "b": "novice"},
    )

    assert run.status == Status.DONE, run.error
    assert run.games_played == 1
    played = Game.objects.filter(match__stage=stage, rounds__isnull=False).distinct()
    assert list(played.values_list("match_id", flat=True)) == [match.id]
    record = SimulatedGame.objects.get(game__match=match).record_json()
    assert [p["name"] for p in record["players"]] == ["best", "novice"]
    with pytest.raises(autoplay.AutoPlayError, match="already decided"):
        autoplay.create_autoplay(tournament=tournament, scope=AutoPlay.Scope.MATCH, match=match)


@pytest.mark.django_db
def test_a_tie_on_the_cut_line_is_settled_by_a_simulated_shootout(eager):
    tournament, category = make_tournament(players=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1, advance_count=2)
    final = add_stage(category, 2, Stage.Kind.KNOCKOUT)
    draw_stage(stage)
    for game in Game.objects.filter(match__stage=stage):  # everyone level: 1-1, one 20 each
        record_game(game, [round_data(points=(1, 1), twenties=(1, 1))])
    run = autoplay.create_autoplay(tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage)

    autoplay.advance_with_shootouts(run, stage, final)

    assert ShootOut.objects.filter(stage=stage).exists()
    scores = ShootOut.objects.filter(stage=stage).first().scores.all()
    assert {s.entry_id for s in scores} == set(category.entries.values_list("id", flat=True))
    assert all(0 <= s.twenties <= 12 for s in scores)
    assert Match.objects.filter(stage=final).count() == 1


@pytest.mark.django_db
def test_people_s_unverified_cards_stop_autoplay_with_a_reason(eager):
    from scoring.scorecards.services import card_for, fill_row
    from tests.simulation.app.support import organizer_of
    from tournaments.models import TournamentRole

    tournament, category = make_tournament(players=2)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    game = Game.objects.get(match__stage=stage)
    referee = organizer_of(tournament, "ref")
    TournamentRole.objects.create(tournament=tournament, user=referee, role="referee")
    fill_row(
        card=card_for(stage, game.match.entry_a),
        game=game,
        rounds=[{"points": [2, 0], "twenties": [0, 0]}],
        user=referee,
    )

    run = _run(tournament, scope=AutoPlay.Scope.STAGE, stage=stage)

    assert run.status == Status.FAILED
    assert "not verified yet" in run.error
    assert not game.rounds.exists()


@pytest.mark.django_db
def test_replay_record_is_served_as_json_with_every_event(eager, client):
    tournament, category = make_tournament(players=2)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    run = _run(tournament, scope=AutoPlay.Scope.CATEGORY, category=category)
    assert run.status == Status.DONE, run.error
    game = Game.objects.get(match__stage=stage)

    response = client.get(reverse("simulation:game_record", args=[tournament.slug, game.id]))

    assert response.status_code == 200
    data = response.json()
    shots = [shot for rnd in data["record"]["rounds"] for shot in rnd["shots"]]
    assert len(shots) == 2 * category.discs_per_player * category.rounds_per_game
    first = shots[0]["outcome"]["events"][0]
    assert first["kind"] == "release" and first["deceleration"] > 0
    assert {"x", "y", "vx", "vy", "status"} <= set(first["discs"][0])
    assert data["sides"] == [game.match.entry_a.name, game.match.entry_b.name]
    # The official result is the record's.
    record_points = data["record"]["points"]
    assert [
        sum(r.points_a for r in game.rounds.all()),
        sum(r.points_b for r in game.rounds.all()),
    ] == record_points


@pytest.mark.django_db
def test_replay_of_a_game_people_played_is_not_found(client):
    tournament, category = make_tournament(players=2)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    game = Game.objects.get(match__stage=stage)

    response = client.get(reverse("simulation:game_record", args=[tournament.slug, game.id]))

    assert response.status_code == 404
    assert "no simulated record" in response.json()["error"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_game_that_fails_at_a_worker_stops_the_run_with_the_reason(monkeypatch):
    from simulation import tasks
    from simulation.services import playing
    from tests.celery_support import running_worker

    tournament, category = make_tournament(players=4)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.CATEGORY, category=category
    )

    def broken(job):
        raise RuntimeError("the physics gave up")

    monkeypatch.setattr(playing, "play_match_job", broken)
    with running_worker() as worker:
        tasks.run_autoplay.delay(run.pk)
        # The run is read once the worker is done, never while it writes (SQLite's shared
        # in-memory test database would refuse one of the two).
        worker.wait_until_idle(timeout=120)
    run.refresh_from_db()

    assert run.status == Status.FAILED
    assert "the physics gave up" in run.error
    assert not Game.objects.filter(match__stage__category=category, rounds__isnull=False).exists()


@pytest.mark.django_db
def test_progress_endpoint_polls_until_done_then_reloads_the_page(eager, client):
    tournament, category = make_tournament(players=2)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.CATEGORY, category=category
    )
    url = reverse("simulation:autoplay_status", args=[tournament.slug, run.pk])

    waiting = client.get(url)
    assert "hx-trigger" in waiting.content.decode() and "HX-Refresh" not in waiting

    run_autoplay(run.pk)
    done = client.get(url)
    assert done["HX-Refresh"] == "true"
    assert "hx-trigger" not in done.content.decode()
    page = client.get(reverse("simulation:autoplay", args=[tournament.slug, run.pk]))
    assert "1 of about 1 games" in page.content.decode()


@pytest.mark.django_db
def test_organizer_auto_plays_a_round_from_the_stage_page(
    eager, client, django_capture_on_commit_callbacks
):
    from tests.simulation.app.support import organizer_of

    tournament, category = make_tournament(players=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=2)
    draw_stage(stage)
    client.force_login(organizer_of(tournament))
    stage_url = reverse("simulation:stage", args=[tournament.slug, stage.id])
    assert "Auto-play this round" in client.get(stage_url).content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("simulation:autoplay_start", args=[tournament.slug]),
            {"scope": "round", "stage": stage.id, "round_of_play": 1, "next": stage_url},
        )

    run = AutoPlay.objects.get()
    assert response["Location"] == reverse("simulation:autoplay", args=[tournament.slug, run.pk])
    assert run.status == Status.DONE, run.error
    played = Game.objects.filter(match__stage=stage, rounds__isnull=False).distinct()
    assert {g.match.round_of_play for g in played} == {1}
    assert played.count() == 2 == run.games_played


@pytest.mark.django_db
def test_a_bad_autoplay_request_comes_back_with_the_reason(client):
    from tests.simulation.app.support import organizer_of

    tournament, category = make_tournament(players=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    client.force_login(organizer_of(tournament))

    response = client.post(
        reverse("simulation:autoplay_start", args=[tournament.slug]),
        {"scope": "round", "stage": stage.id, "round_of_play": 7, "next": "//elsewhere.example"},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("simulation:hub", args=[tournament.slug])
    page = client.get(response["Location"]).content.decode()
    assert "Auto-play was not started" in page and "has no round of play 7" in page
    assert not AutoPlay.objects.exists()


@pytest.mark.django_db
def test_simulated_games_run_against_the_tournaments_clock(eager):
    """WCC timing: the buzzer ends play at the tournament's game time. With a one-minute game the
    buzzer sounds in the first round; the rounds not begun are written as time-expired 0-0
    rounds on both cards and in the official result, and the dry run's statistics count every
    round the buzzer cut short."""
    tournament, category = make_tournament(players=2, discs=4, rounds=4)
    tournament.game_minutes = 1
    tournament.save(update_fields=["game_minutes"])
    stage = add_stage(category, 1, Stage.Kind.ROUND_ROBIN, advance_count=1)

    run = _run(tournament, scope=AutoPlay.Scope.STAGE, stage=stage)

    assert run.status == Status.DONE, run.error
    game = Game.objects.get(match__stage=stage)
    record = SimulatedGame.objects.get(game=game).record_json()
    assert record["time"]["limit_minutes"] == 1 and record["time"]["expired"]
    assert record["rounds_cut_short"] >= 1
    not_begun = [n for n, r in enumerate(record["rounds"], 1) if not r["shots"]]
    assert not_begun, "a one-minute game of 4 rounds of 4 discs each leaves rounds unplayed"
    official = {r.number: r for r in game.rounds.all()}
    assert len(official) == category.rounds_per_game
    for number in not_begun:
        assert official[number].time_expired
        assert (official[number].points_a, official[number].points_b) == (0, 0)
    for row in game.card_rows.all():
        assert row.status == CardRow.Status.VERIFIED
        assert [n for n, r in enumerate(row.rounds, 1) if r["time_expired"]] == not_begun
    stats = dryrun_stats(tournament)
    assert stats["overall"]["rounds_cut_short"] == record["rounds_cut_short"]


@pytest.mark.django_db
def test_an_untimed_tournament_plays_untimed_games(eager):
    tournament, category = make_tournament(players=2)
    tournament.game_minutes = 0
    tournament.save(update_fields=["game_minutes"])
    stage = add_stage(category, 1, Stage.Kind.ROUND_ROBIN, advance_count=1)
    assert _run(tournament, scope=AutoPlay.Scope.STAGE, stage=stage).status == Status.DONE
    record = SimulatedGame.objects.get(game__match__stage=stage).record_json()
    assert "time" not in record and "rounds_cut_short" not in record
    assert dryrun_stats(tournament)["overall"]["rounds_cut_short"] == 0
