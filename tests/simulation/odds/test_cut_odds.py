"""Live cut odds: the service on a preliminary in progress, the task after verified results,
the pages, the hall screen's panel and the API, and the stages that have no odds (in words)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from simulation.models import CutOdds
from simulation.odds import services, words
from simulation.odds.selectors import stage_odds
from simulation.odds.tasks import refresh_stage_odds
from tests.simulation.odds.support import games_to_play, play_round, preliminary
from tests.tournaments.test_stages import record
from tournaments.models import Category

pytestmark = pytest.mark.django_db

FEW = 400  # finishes: enough for the figures to be checked, quick enough for a test


def by_entry(odds: CutOdds) -> dict[int, dict]:
    return {row["entry"]: row for row in odds.figures["entries"]}


def test_every_entry_of_a_preliminary_in_progress_gets_its_odds():
    stage, entries = preliminary(8, advance=4)
    play_round(stage, 1)
    odds = services.refresh_cut_odds(stage, finishes=FEW)
    assert odds.figures["status"] == services.OK
    assert odds.figures["cut"] == 4 and odds.figures["places"] == 3
    rows = by_entry(odds)
    assert set(rows) == {e.id for e in entries}
    assert odds.results_seen == 4 and odds.finishes == FEW and odds.computed_at is not None
    for row in rows.values():
        assert 0 <= row["cut"] <= 1 and 0 <= row["shootout"] <= 1
        assert len(row["places"]) == 3
    # Each finish fills the cut and each place once (a shoot-out shares what it decides).
    assert sum(row["cut"] for row in rows.values()) == pytest.approx(4, abs=0.05)
    for place in range(3):
        assert sum(row["places"][place] for row in rows.values()) == pytest.approx(1, abs=0.05)
    # Round 1's winners (8 points) are likelier to make the cut than its losers (0).
    read = stage_odds(stage)
    winners = [x.cut for x in read.lines if x.line.points == 8]
    losers = [x.cut for x in read.lines if x.line.points == 0]
    assert min(winners) > max(losers)


def test_the_odds_move_after_a_verified_result_and_say_how_fresh_they_are():
    stage, _ = preliminary(8, advance=4)
    play_round(stage, 1)
    before = by_entry(services.refresh_cut_odds(stage, finishes=FEW))
    game = games_to_play(stage)[0]
    record(game, "b", (0, 3))
    after_odds = services.refresh_cut_odds(stage, finishes=FEW)
    after = by_entry(after_odds)
    winner = game.match.entry_b_id
    loser = game.match.entry_a_id
    assert after[winner]["cut"] > before[winner]["cut"]
    assert after[loser]["cut"] < before[loser]["cut"]
    assert after_odds.results_seen == 5
    assert stage_odds(stage).freshness == words.freshness(5) == "after 5 results"


def test_the_task_recomputes_only_when_the_results_changed(tasks_in_place):
    stage, _ = preliminary(6, advance=2)
    play_round(stage, 1)
    refresh_stage_odds.delay(stage.id)
    first = CutOdds.objects.get(stage=stage)
    refresh_stage_odds.delay(stage.id)  # a second result of the same burst: nothing new
    assert CutOdds.objects.get(stage=stage).computed_at == first.computed_at
    record(games_to_play(stage)[0], "a", (1, 0))
    assert services.stale(stage)
    refresh_stage_odds.delay(stage.id)
    again = CutOdds.objects.get(stage=stage)
    assert again.computed_at > first.computed_at and again.results_seen == first.results_seen + 1


def test_a_verified_result_queues_the_odds_of_its_stage(
    tasks_in_place, django_capture_on_commit_callbacks
):
    stage, _ = preliminary(6, advance=2)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(stage, 1)
    odds = CutOdds.objects.get(stage=stage)
    assert odds.figures["status"] == services.OK and odds.results_seen == 3


def test_a_stage_that_cuts_to_nothing_says_so(client):
    stage, _ = preliminary(6, advance=None, cut_to=None)
    play_round(stage, 1)
    odds = services.refresh_cut_odds(stage, finishes=FEW)
    assert odds.figures == {"status": services.NO_CUT}
    slug = stage.category.tournament.slug
    page = client.get(reverse("odds:stage", args=[slug, stage.id])).content.decode()
    said = "No cut odds: no later stage takes entries from Preliminary, so there is no cut to make."
    assert said in page
    api = client.get(reverse("api:stage-cut-odds", args=[stage.id])).json()
    assert api["status"] == "no-cut" and api["reason"] == said and api["entries"] == []


def test_other_scoring_systems_have_no_odds_in_words(client):
    stage, _ = preliminary(6, advance=2)
    Category.objects.filter(pk=stage.category_id).update(
        scoring_system=Category.ScoringSystem.DIFFERENCE_TO_100
    )
    stage.refresh_from_db()
    odds = services.refresh_cut_odds(stage)
    assert odds.figures["status"] == services.NOT_NCA
    api = client.get(reverse("api:stage-cut-odds", args=[stage.id])).json()
    assert api["reason"].startswith("No cut odds: the outcome model knows 2-1-0 games of 4 rounds")
    assert "Family rulebook: difference, play to 100" in api["reason"]
    slug = stage.category.tournament.slug
    block = client.get(reverse("odds:block", args=[slug, stage.id])).content.decode()
    assert api["reason"] in block.replace("&#x27;", "'")


def test_odds_not_worked_out_yet_say_when_they_will_be(client):
    stage, _ = preliminary(6, advance=2)
    api = client.get(reverse("api:stage-cut-odds", args=[stage.id])).json()
    assert api["status"] == "missing"
    assert api["reason"] == "No cut odds yet: they are worked out after each verified result."


def test_the_page_and_the_api_show_the_same_figures(client):
    stage, _ = preliminary(8, advance=4)
    play_round(stage, 1)
    services.refresh_cut_odds(stage, finishes=FEW)
    slug = stage.category.tournament.slug
    page = client.get(reverse("odds:stage", args=[slug, stage.id])).content.decode()
    api = client.get(reverse("api:stage-cut-odds", args=[stage.id])).json()
    assert api["status"] == "ok" and len(api["entries"]) == 8
    assert "after 4 results" in page and api["freshness"] == "after 4 results"
    for row in api["entries"]:
        assert f'data-entry="{row["entry"]}"' in page
        assert f"<b data-odds-cut>{row['cut_percent']}%</b>" in page
        assert row["sentence"].replace("'", "&#x27;") in page
    assert page.count('<svg class="odds-bar"') == 8


def test_the_fragments_of_the_standings_player_page_and_hall_screen(client):
    stage, entries = preliminary(8, advance=4)
    play_round(stage, 1)
    services.refresh_cut_odds(stage, finishes=FEW)
    slug = stage.category.tournament.slug
    standings = client.get(reverse("scoring:standings", args=[slug, stage.id])).content.decode()
    assert reverse("odds:block", args=[slug, stage.id]) in standings
    block = client.get(reverse("odds:block", args=[slug, stage.id])).content.decode()
    assert block.count("data-entry=") == 8
    entry = entries[0]
    line = client.get(reverse("odds:entry", args=[slug, stage.id, entry.id])).content.decode()
    assert f'data-odds-entry="{entry.id}"' in line and "Makes the top 4 in" in line
    player = client.get(reverse("tournaments:player", args=[slug, entry.player.number]))
    assert reverse("odds:entry", args=[slug, stage.id, entry.id]) in player.content.decode()
    hall = client.get(reverse("odds:hall", args=[slug, stage.id])).content.decode()
    assert hall.count('<tr class="line') == 8
    screen = client.get(
        reverse("tournaments:screen", args=[slug]), {"show": "odds,featured", "stage": stage.id}
    )
    assert screen.status_code == 200
    assert reverse("odds:hall", args=[slug, stage.id]) in screen.content.decode()
    refused = client.get(reverse("tournaments:screen", args=[slug]), {"show": "odds"})
    assert refused.status_code == 400
    assert "the odds panel needs the stage" in refused.content.decode()


def test_the_page_costs_the_same_queries_whatever_the_field(client):
    counts = []
    for size in (6, 12):
        stage, _ = preliminary(size, advance=4)
        play_round(stage, 1)
        services.refresh_cut_odds(stage, finishes=FEW)
        url = reverse("odds:stage", args=[stage.category.tournament.slug, stage.id])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] and counts[1] <= 20, counts


def test_an_unknown_stage_is_a_404_not_a_500(client):
    stage, _ = preliminary(6, advance=2)
    slug = stage.category.tournament.slug
    assert client.get(reverse("odds:stage", args=[slug, stage.id + 999])).status_code == 404
    assert client.get(reverse("api:stage-cut-odds", args=[stage.id + 999])).status_code == 404


@pytest.mark.parametrize(
    ("chance", "said"), [(0, "0"), (0.004, "<1"), (0.64, "64"), (0.996, ">99"), (1, "100")]
)
def test_percents_never_claim_a_certainty_the_finishes_do_not_show(chance, said):
    assert words.percent(chance) == said


def test_the_needs_sentence():
    needs = {"points": 5, "of_points": 8, "twenties": 6}
    assert words.needs_sentence(16, 0.64, needs) == (
        "Makes the top 16 in 64% of finishes; needs 5 of its last 8 points or 4 and 6 more 20s."
    )
    assert words.needs_sentence(16, 1.0, None) == "Makes the top 16 in 100% of finishes."


@given(st.floats(min_value=0, max_value=1))
def test_a_percent_says_0_or_100_only_when_the_finishes_all_agree(chance):
    said = words.percent(chance)
    assert (said == "0") == (chance == 0)
    assert (said == "100") == (chance == 1)
    if said not in ("<1", ">99"):
        assert abs(int(said) - 100 * chance) <= 0.5


def test_a_finished_preliminary_has_certain_odds_but_its_ties_across_the_cut():
    stage, _ = preliminary(6, advance=3)
    for round_of_play in (1, 2, 3):
        play_round(stage, round_of_play)
    odds = services.refresh_cut_odds(stage, finishes=FEW)
    assert odds.figures["remaining"] == 0
    for row in odds.figures["entries"]:
        assert row["needs"] is None
        if row["shootout"] == 0:
            assert row["cut"] in (0, 1)


def test_only_the_games_of_a_preliminary_queue_odds():
    from simulation.odds.hooks import stages_with_odds
    from tournaments.models import Game, Match, Stage

    stage, entries = preliminary(6, advance=2)
    knockout = Stage.objects.get(category=stage.category, kind="knockout")
    final = Match.objects.create(stage=knockout, entry_a=entries[0], entry_b=entries[1])
    final_game = Game.objects.create(match=final, number=1)
    prelim_games = list(Game.objects.filter(match__stage=stage).values_list("id", flat=True))
    assert stages_with_odds([*prelim_games, final_game.id]) == [stage.id]
    assert stages_with_odds([final_game.id]) == []
