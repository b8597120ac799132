"""Dry runs: a copy of the event played to the end, through a real worker and from the command
line, and the result page with standings, bracket, time on the boards and statistics."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

from simulation.models import DryRun, SimulatedGame, Status
from simulation.services import dryrun
from tests.celery_support import running_worker
from tests.simulation.app.support import add_stage, make_tournament, organizer_of
from tournaments.models import Game, Stage, Tournament


def _club(slug: str = "club-night"):
    """12 registered players; a 3-game preliminary, the top 4 to a best-of-3 knockout."""
    tournament, category = make_tournament(slug, players=12, discs=2, rounds=2, boards=4)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=3, advance_count=4)
    add_stage(category, 2, Stage.Kind.KNOCKOUT, best_of=3, third_place=True)
    return tournament, category


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_dry_run_through_a_worker_and_its_result_page(client):
    tournament, category = _club()
    client.force_login(organizer_of(tournament))

    with running_worker() as worker:
        response = client.post(
            reverse("simulation:dry_run_start", args=[tournament.slug]),
            {"field": "registered", "seed": 5},
        )
        assert response.status_code == 302
        # Not a word to the database until the worker is done: on SQLite both threads share one
        # in-memory database, where reading a table the worker is writing fails at once.
        worker.wait_until_idle()
    dry = DryRun.objects.select_related("run", "copy").get(source=tournament)

    assert dry.status == Status.DONE, dry.error
    copy = dry.copy
    assert copy.name.startswith(f"Dry run of {tournament.name}") and copy != tournament
    # The real tournament is untouched; the copy has the same players and every stage played.
    assert not Game.objects.filter(match__stage__category=category).exists()
    assert set(copy.players.values_list("number", flat=True)) == set(
        tournament.players.values_list("number", flat=True)
    )
    played = Game.objects.filter(match__stage__category__tournament=copy, rounds__isnull=False)
    assert played.distinct().count() == dry.run.games_played == dry.summary["games"]
    assert SimulatedGame.objects.filter(game__match__stage__category__tournament=copy).count() == (
        dry.run.games_played
    )
    knockout = copy.categories.get().stages.get(kind=Stage.Kind.KNOCKOUT)
    assert knockout.matches.count() == 4  # two semifinals, the final and 3rd place

    page = client.get(response["Location"]).content.decode()
    assert "Standings" in page and 'class="standings"' in page
    assert "<svg" in page and "Final" in page  # the bracket
    assert "hours</strong> of play" in page and "on 4 boards" in page
    assert "Open-20 rate" in page and "Tied rounds" in page
    minutes = dry.summary["time"]["minutes"]
    # 3 preliminary rounds of 6 matches on 4 boards (2 slots of 20 min), then the knockout.
    assert minutes >= 3 * 2 * 20 + 2 * 2 * 20


@pytest.mark.django_db
@pytest.mark.slow
def test_dryrun_command_plays_a_small_field(eager):
    out = io.StringIO()

    call_command(
        "dryrun", "--preset", "club", "--players", "5", "--boards", "2", "--seed", "2", stdout=out
    )

    dry = DryRun.objects.get()
    assert dry.status == Status.DONE, dry.error
    text = out.getvalue()
    assert "games played: " in text and "the event would take about" in text
    assert dry.copy.players.count() == 5
    assert dry.summary["time"]["boards"] == 2
    stats = dry.summary["stats"]["overall"]
    assert stats["games"] == dry.run.games_played > 0
    assert 0 < stats["open20_rate"] < 1
    assert 0 <= stats["tied_share"] < 1
    assert len(dry.summary["stats"]["entries"]) == 5


@pytest.mark.django_db
def test_dryrun_command_refuses_a_field_too_small_for_the_format():
    with pytest.raises(CommandError, match="needs at least 16 players"):
        call_command("dryrun", "--preset", "wcc-singles", "--players", "10")
    assert not DryRun.objects.exists()


@pytest.mark.django_db
def test_presets_build_the_wcc_formats():
    dry = dryrun.create_dry_run(preset="wcc-singles", entries=20, seed=1)
    dryrun.build_copy(dry)
    stages = list(dry.copy.categories.get().stages.order_by("order"))
    assert [(s.kind, s.games_per_entry, s.advance_count, s.best_of) for s in stages] == [
        ("preliminary", 10, 16, 1),
        ("round-robin", None, 4, 1),
        ("knockout", None, None, 3),
    ]
    assert list(stages[1].pools.values_list("name", flat=True)) == ["A", "B"]
    assert stages[2].third_place
    doubles = dryrun.create_dry_run(preset="wcc-doubles", entries=12, seed=1)
    dryrun.build_copy(doubles)
    assert doubles.copy.teams.count() == 12
    assert doubles.copy.categories.get().kind == "doubles"


@pytest.mark.django_db
def test_anonymous_visitors_cannot_start_a_dry_run(client):
    tournament, _ = _club()

    response = client.post(reverse("simulation:dry_run_start", args=[tournament.slug]), {})

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not DryRun.objects.exists()


@pytest.mark.django_db
def test_users_without_the_organizer_role_cannot_start_simulations(client):
    tournament, _ = _club()
    client.force_login(User.objects.create_user("visitor", password="pw"))

    for name, args in (
        ("simulation:dry_run_start", [tournament.slug]),
        ("simulation:autoplay_start", [tournament.slug]),
    ):
        response = client.post(reverse(name, args=args), {"scope": "category"})
        assert response.status_code == 403
    assert not DryRun.objects.exists()


@pytest.mark.django_db
def test_results_are_public_and_the_tournament_page_links_them(client):
    tournament, _ = _club()
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert reverse("simulation:hub", args=[tournament.slug]) in page
    assert "Dry-run this tournament" not in page  # the button is for organizers

    assert client.get(reverse("simulation:hub", args=[tournament.slug])).status_code == 200
    client.force_login(organizer_of(tournament))
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Dry-run this tournament" in page


@pytest.mark.django_db
def test_unknown_dry_run_is_a_clear_404(client):
    tournament, _ = _club()
    response = client.get(reverse("simulation:dry_run", args=[tournament.slug, 999]))
    assert response.status_code == 404
    assert "no dry run 999" in response.content.decode()


@pytest.mark.django_db
def test_stage_page_queries_do_not_grow_with_the_field(client):
    from django.test.utils import CaptureQueriesContext

    from tournaments.services.draws import draw_stage

    counts = []
    for slug, players in (("small", 4), ("large", 16)):
        _, category = make_tournament(slug, players=players)
        stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=3)
        draw_stage(stage)
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(reverse("simulation:stage", args=[slug, stage.id]))
        assert response.status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
    assert Tournament.objects.count() == 2


@pytest.mark.django_db
def test_the_tournament_page_button_queues_a_dry_run_of_the_registered_players(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    from simulation import tasks

    queued = []
    monkeypatch.setattr(tasks.run_dry_run, "delay", queued.append)
    tournament, category = _club()
    client.force_login(organizer_of(tournament))

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("simulation:dry_run_start", args=[tournament.slug]), {})

    dry = DryRun.objects.get()
    assert queued == [dry.pk]
    assert response.status_code == 302
    assert response["Location"] == reverse("simulation:dry_run", args=[tournament.slug, dry.pk])
    assert dry.source_category == category and dry.entries == 12 and dry.boards == 4
    assert dry.status == Status.QUEUED
    page = client.get(response["Location"]).content.decode()
    assert "progress-bar" in page and "hx-trigger" in page
