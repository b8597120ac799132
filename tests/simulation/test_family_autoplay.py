"""Family-rulebook categories are auto-played by the family rules of play and, unless the
organizer sets a clock for the category, untimed; NCA categories keep the tournament's clock."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from simulation.models import AutoPlay, SimulatedGame, Status
from simulation.services import autoplay, playing
from simulation.services.dryrun import time_on_boards
from simulation.tasks import run_autoplay
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Category, Game, Stage
from tournaments.services.categories import update_category


def _family(system: str, *, players: int = 4, discs: int = 4):
    tournament, category = make_tournament(f"fam-{system}", players=players, discs=discs)
    category.scoring_system = system
    category.save(update_fields=["scoring_system"])
    return tournament, category


def _autoplay(tournament, stage) -> AutoPlay:
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage, seed=5
    )
    run_autoplay(run.pk)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_the_category_decides_its_clock():
    tournament, category = make_tournament("clock")
    assert tournament.game_minutes == 20
    assert category.time_limit_minutes() == 20 and category.rules_of_play == "nca"
    category.scoring_system = Category.ScoringSystem.FIRST_TO_N
    assert category.time_limit_minutes() == 20
    for system in ("difference-to-100", "match-play-to-8", "three-player"):
        category.scoring_system = system
        assert category.time_limit_minutes() is None, system
        assert category.rules_of_play == "family"
    category.game_minutes = 25
    assert category.time_limit_minutes() == 25
    category.scoring_system = Category.ScoringSystem.NCA
    assert category.time_limit_minutes() == 25
    assert playing.category_play(category) == {"time_limit": 25, "rules": "nca"}


@pytest.mark.django_db
@pytest.mark.parametrize("minutes", [0, 181, -3])
def test_a_clock_out_of_range_is_refused_on_the_field(minutes):
    _, category = make_tournament("bad-clock")
    with pytest.raises(ValidationError) as caught:
        update_category(category=category, game_minutes=minutes)
    assert "game_minutes" in caught.value.message_dict
    category.refresh_from_db()
    assert category.game_minutes is None


@pytest.mark.django_db
def test_the_organizer_sets_and_clears_the_category_clock():
    _, category = make_tournament("set-clock")
    update_category(category=category, game_minutes=12)
    category.refresh_from_db()
    assert category.game_minutes == 12 and category.time_limit_minutes() == 12
    update_category(category=category, game_minutes=None)
    category.refresh_from_db()
    assert category.time_limit_minutes() == 20


@pytest.mark.django_db
@pytest.mark.slow
@pytest.mark.parametrize("system", ["difference-to-100", "match-play-to-8"])
def test_a_family_preliminary_is_auto_played_untimed_by_the_family_rules(system, tasks_in_place):
    tournament, category = _family(system)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)

    run = _autoplay(tournament, stage)

    assert run.status == Status.DONE, run.error
    games = list(Game.objects.filter(match__stage=stage))
    assert games and run.games_played == len(games)
    for game in games:
        record = SimulatedGame.objects.get(game=game).record_json()
        assert record["rules"] == "family"
        assert "time" not in record
        official = [(r.points_a, r.points_b) for r in game.rounds.all()]
        assert len(official) == len(record["rounds"])
        a, b = (sum(p[0] for p in official), sum(p[1] for p in official))
        goal = 100 if system == "difference-to-100" else 8
        assert max(a, b) >= goal and a != b


@pytest.mark.django_db
@pytest.mark.slow
def test_a_family_category_with_a_clock_is_timed(tasks_in_place):
    tournament, category = _family("match-play-to-8", players=2)
    update_category(category=category, game_minutes=40)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)

    run = _autoplay(tournament, stage)

    assert run.status == Status.DONE, run.error
    record = SimulatedGame.objects.get(game__match__stage=stage).record_json()
    assert record["rules"] == "family" and record["time"]["limit_minutes"] == 40
    # The dry run's time on the boards counts the category's clock, not the tournament's 20.
    assert time_on_boards(tournament, boards=1)["minutes"] == 40


@pytest.mark.django_db
def test_the_organizer_sets_the_clock_on_the_category_page_and_in_the_api(client):
    from django.urls import reverse
    from rest_framework.test import APIClient

    from tests.simulation.app.support import organizer_of

    tournament, category = make_tournament("page-clock")
    organizer = organizer_of(tournament)
    client.force_login(organizer)
    page = reverse("tournaments:manage-category-edit", args=[tournament.slug, category.pk])
    fields = {
        "name": category.name,
        "kind": "singles",
        "discipline": "fingers",
        "discs_per_player": category.discs_per_player,
        "rounds_per_game": category.rounds_per_game,
        "scoring_system": "difference-to-100",
    }
    assert 'name="game_minutes"' in client.get(page).content.decode()
    refused = client.post(page, {**fields, "game_minutes": 500})
    assert refused.status_code == 400
    assert "at most 180 minutes" in refused.content.decode()
    category.refresh_from_db()
    assert category.game_minutes is None and category.scoring_system == "nca"
    saved = client.post(page, {**fields, "game_minutes": 45})
    assert saved.status_code == 302
    category.refresh_from_db()
    assert category.game_minutes == 45 and category.time_limit_minutes() == 45

    api = APIClient()
    api.force_authenticate(organizer)
    address = f"/api/categories/{category.pk}/"
    bad = api.patch(address, {"game_minutes": 0}, format="json")
    assert bad.status_code == 400 and "game_minutes" in bad.json()
    cleared = api.patch(address, {"game_minutes": None}, format="json")
    assert cleared.status_code == 200, cleared.json()
    assert cleared.json()["game_minutes"] is None
    category.refresh_from_db()
    assert category.time_limit_minutes() is None  # a game to 100 has no clock of its own


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("system", "minutes", "expected"),
    [
        ("difference-to-100", None, {"time_limit": None, "rules": "family"}),
        ("match-play-to-8", 15, {"time_limit": 15, "rules": "family"}),
        ("nca", None, {"time_limit": 20, "rules": "nca"}),
    ],
)
def test_a_preview_plays_the_category_s_rules_and_clock(system, minutes, expected):
    from simulation.services import previews
    from tournaments.services.draws import draw_stage

    _, category = _family(system, players=2)
    if minutes:
        update_category(category=category, game_minutes=minutes)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    match = stage.matches.exclude(entry_b=None).get()
    preview = previews.create_preview(match=match, games=previews.MIN_GAMES, seed=3)

    job = previews.start(preview.pk)

    assert job is not None
    assert {key: job.spec[key] for key in expected} == expected
    assert job.spec["scoring"] == system
