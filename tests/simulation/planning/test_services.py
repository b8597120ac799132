"""Planning runs: options checked naming the field, the task's work, the pages and the API."""

from __future__ import annotations

import json
import time

import pytest
from django.urls import reverse

from simulation.models import PlanningRun, Status
from simulation.planning import selectors, services
from simulation.planning.actions import start_plan
from tests.factories import (
    BoardFactory,
    CategoryFactory,
    EntryFactory,
    StageFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """A tournament of 40 registered singles players on 12 boards, its own format 8 games to a
    top 16 in best of 3, and its organizer."""
    tournament = TournamentFactory(game_minutes=20)
    category = CategoryFactory(tournament=tournament)
    EntryFactory.create_batch(40, category=category)
    BoardFactory.create_batch(12, tournament=tournament)
    StageFactory(
        category=category,
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=8,
        advance_count=16,
    )
    StageFactory(category=category, kind=Stage.Kind.KNOCKOUT, order=2, best_of=3)
    organizer = UserFactory()
    TournamentRoleFactory(tournament=tournament, user=organizer)
    return tournament, category, organizer


def test_defaults_are_the_tournaments_own_format_and_the_alternatives(event):
    tournament, category, _organizer = event
    start = services.defaults(tournament)
    assert start["category"] == category.pk
    assert start["entries"] == 40
    assert start["boards"] == 12
    assert start["game_minutes"] == 20
    assert start["prelim_games"] == [8, 10]
    assert start["playoffs"] == [16, 24]
    assert start["best_of"] == [3, 5]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"boards": 0}, "boards"),
        ({"entries": "lots"}, "entries"),
        ({"day_start": "25:00"}, "day_start"),
        ({"day_end": "08:00"}, "day_end"),
        ({"best_of": [4]}, "best_of"),
        ({"prelim_games": [50]}, "prelim_games"),
        ({"playoffs": [64]}, "playoffs"),
        ({"category": 999999}, "category"),
    ],
)
def test_bad_options_are_refused_naming_the_field(event, change, field):
    tournament, _category, _organizer = event
    data = {**services.defaults(tournament), **change}
    with pytest.raises(services.PlanningError) as refused:
        services.check_options(tournament, data)
    assert refused.value.field == field
    assert PlanningRun.objects.count() == 0


def test_a_planned_count_above_the_registered_entries_is_topped_up(event):
    tournament, _category, _organizer = event
    options = services.check_options(tournament, {**services.defaults(tournament), "entries": 100})
    assert options["entries"] == 100 and options["registered"] == 40
    field = services.field_of(tournament, options)
    assert field.size == 100
    assert (field.seconds > 8).all() and (field.seconds < 15).all()


def test_the_task_plans_a_hundred_players_in_well_under_a_minute(
    event, tasks_in_place, django_capture_on_commit_callbacks
):
    tournament, _category, organizer = event
    inputs = {**services.defaults(tournament), "entries": 100, "boards": 30}
    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        run = start_plan(organizer, tournament, **{k: inputs[k] for k in start_plan.fields})
    run.refresh_from_db()
    elapsed = time.monotonic() - began
    assert run.status == Status.DONE, run.error
    assert elapsed < 30
    result = run.result
    assert result["entries"] == 100
    assert [f["key"] for f in result["formats"]] == [
        "p8-k16-b3",
        "p8-k16-b5",
        "p8-k24-b3",
        "p8-k24-b5",
        "p10-k16-b3",
        "p10-k16-b5",
        "p10-k24-b3",
        "p10-k24-b5",
    ]
    by_key = {f["key"]: f for f in result["formats"]}
    assert by_key["p10-k16-b3"]["median"] > by_key["p8-k16-b3"]["median"]
    assert by_key["p8-k16-b5"]["games"] > by_key["p8-k16-b3"]["games"]
    for row in result["formats"]:
        assert 0.0 <= row["p_overrun"] <= 1.0
        assert [s["name"] for s in row["stages"]] == ["preliminary", "playoffs"]
    assert run.percent == 100


def test_a_second_delivery_does_nothing(event, tasks_in_place, django_capture_on_commit_callbacks):
    tournament, _category, organizer = event
    inputs = services.defaults(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        run = start_plan(organizer, tournament, **{k: inputs[k] for k in start_plan.fields})
    run.refresh_from_db()
    finished = run.finished_at
    services.run_plan(run.pk)
    run.refresh_from_db()
    assert run.status == Status.DONE and run.finished_at == finished


def test_the_pages_show_the_distribution_and_the_comparison(
    event, client, tasks_in_place, django_capture_on_commit_callbacks
):
    tournament, category, organizer = event
    client.force_login(organizer)
    page = client.get(reverse("planning:plan", args=[tournament.slug]))
    assert page.status_code == 200
    assert b'name="prelim_games"' in page.content
    with django_capture_on_commit_callbacks(execute=True):
        post = client.post(
            reverse("planning:plan", args=[tournament.slug]),
            {
                "category": category.pk,
                "entries": 100,
                "boards": 25,
                "day_start": "09:00",
                "day_end": "17:00",
                "game_minutes": 20,
                "break_minutes": 5,
                "prelim_games": ["8", "10"],
                "playoffs": ["16"],
                "best_of": ["3"],
                "repetitions": 50,
            },
        )
    assert post.status_code == 302
    result = client.get(post["Location"])
    text = result.content.decode()
    assert "plan-histogram" in text and "plan-median" in text
    assert text.count('id="format-') == 2
    assert "Chance of overrun" in text


def test_a_bad_option_on_the_page_is_a_400_marking_the_field(event, client):
    tournament, category, organizer = event
    client.force_login(organizer)
    response = client.post(
        reverse("planning:plan", args=[tournament.slug]),
        {
            "category": category.pk,
            "entries": 100,
            "boards": 25,
            "day_start": "09:00",
            "day_end": "07:00",
            "game_minutes": 20,
            "break_minutes": 5,
            "prelim_games": ["8"],
            "playoffs": ["16"],
            "best_of": ["3"],
            "repetitions": 50,
        },
    )
    assert response.status_code == 400
    assert b"after the start of the day" in response.content
    assert PlanningRun.objects.count() == 0


def test_the_api_starts_and_reads_a_run_and_names_a_bad_field(
    event, client, tasks_in_place, django_capture_on_commit_callbacks
):
    tournament, _category, organizer = event
    client.force_login(organizer)
    url = reverse("api:planning-runs", args=[tournament.slug])
    bad = client.post(url, json.dumps({"best_of": [2]}), content_type="application/json")
    assert bad.status_code == 400
    assert "best_of" in bad.json()
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(
            url,
            json.dumps({"entries": 100, "boards": 30, "playoffs": [16], "repetitions": 40}),
            content_type="application/json",
        )
    assert started.status_code == 202, started.content
    read = client.get(reverse("api:planning-run", args=[tournament.slug, started.json()["id"]]))
    assert read.status_code == 200
    body = read.json()
    assert body["status"] == "done"
    assert len(body["result"]["formats"]) == 4


def test_players_and_strangers_may_not_plan(event, client):
    tournament, _category, _organizer = event
    player = UserFactory()
    client.force_login(player)
    assert client.get(reverse("planning:plan", args=[tournament.slug])).status_code == 403
    api = client.post(
        reverse("api:planning-runs", args=[tournament.slug]), {}, content_type="application/json"
    )
    assert api.status_code == 403
    client.logout()
    assert client.get(reverse("planning:plan", args=[tournament.slug])).status_code == 302


def test_another_tournaments_organizer_may_not_plan_here(event, client):
    tournament, _category, _organizer = event
    elsewhere = UserFactory()
    TournamentRoleFactory(user=elsewhere)  # organizer of another tournament
    client.force_login(elsewhere)
    assert client.get(reverse("planning:plan", args=[tournament.slug])).status_code == 403
    refused = start_plan.refusal(elsewhere, tournament)
    assert refused is not None and "Organizers only" in refused.text


def test_a_tight_clock_shows_rounds_cut_on_the_result(
    event, tasks_in_place, django_capture_on_commit_callbacks
):
    tournament, _category, organizer = event
    inputs = {
        **services.defaults(tournament),
        "game_minutes": 7,
        "prelim_games": [8],
        "playoffs": [16],
        "best_of": [3],
        "repetitions": 30,
    }
    with django_capture_on_commit_callbacks(execute=True):
        run = start_plan(organizer, tournament, **{k: inputs[k] for k in start_plan.fields})
    run.refresh_from_db()
    (row,) = run.result["formats"]
    preliminary = row["stages"][0]
    assert preliminary["rounds_cut"] > 1  # 7 minutes hold about 40 of a game's 64 shots
    assert 0.5 < preliminary["games_cut_share"] <= 1.0
    shown = selectors.shown(run)
    chart = shown["formats"][0]["stages"][0]["chart"]
    assert len(chart.bars) == 16
    assert all(0 <= m.x <= chart.width for m in chart.marks)
    assert shown["formats"][0]["stages"][0]["games_cut"].endswith("%")
