"""Three-player categories (family rulebook, Option Two: three players alone at a board, scored
2-1-0 by rank): auto-play and dry runs play their games through the three cards of each game,
like people's; a preview, which gives two sides' chances, is refused with the reason."""

import pytest
from django.urls import reverse

from scoring.models import CardRow
from scoring.standings.selectors import stage_standings
from simulation.models import AutoPlay, MatchPreview, SimulatedGame, Status
from simulation.services import autoplay, dryrun, previews
from simulation.services.dryrun import play_statistics
from simulation.tasks import run_autoplay, run_dry_run
from tests.simulation.app.support import add_stage, make_tournament, organizer_of
from tournaments.models import Category, Game, Match, Stage

pytestmark = pytest.mark.django_db

REASON = "a preview gives the chances of two sides"


@pytest.fixture
def triples():
    tournament, category = make_tournament("triples-night", players=6)
    category.scoring_system = Category.ScoringSystem.THREE_PLAYER
    category.discs_per_player = 3  # the rulebook's 12 each; fewer keep the test quick
    category.save()
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    a, b, c = category.entries.order_by("id")[:3]
    match = Match.objects.create(stage=stage, entry_a=a, entry_b=b, entry_c=c)
    Game.objects.create(match=match, number=1)
    return tournament, category, stage, match


def test_auto_play_plays_a_three_player_game_through_its_three_cards(triples, eager):
    tournament, _, stage, match = triples
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.MATCH, stage=stage, match=match, seed=4
    )
    run_autoplay(run.pk)
    run.refresh_from_db()

    assert run.status == Status.DONE, run.error
    game = Game.objects.get(match=match)
    rows = list(game.card_rows.select_related("card__entry"))
    assert sorted(r.card.entry_id for r in rows) == sorted(e.id for e in match.entries)
    assert {r.status for r in rows} == {CardRow.Status.VERIFIED}
    record = SimulatedGame.objects.get(game=game)
    assert record.sides == 3 and record.players_per_side == 1
    played = record.record_json()
    assert played["three_player"] == "alone" and played["scoring"] == "three-player"
    assert [record.twenties_a, record.twenties_b, record.twenties_c] == played["twenties"]
    # Every card says the same from its own side; the official rounds are the card of entry A.
    official = [[r.points_a, r.points_b, r.points_c] for r in game.rounds.order_by("number")]
    assert official == [r["points"] for r in played["rounds"]]
    by_entry = {r.card.entry_id: r for r in rows}
    for index, entry in enumerate(match.entries):
        own = [r["points"][0] for r in by_entry[entry.id].rounds]
        assert own == [r[index] for r in official]
    points = {line.entry.id: line.points for line in stage_standings(stage).lines}
    assert points[match.entry_a_id] == sum(r[0] for r in official)
    assert sum(points[e.id] for e in match.entries) == sum(sum(r) for r in official)
    stats = play_statistics(tournament)["overall"]
    assert stats["twenties"] == sum(played["twenties"])


def test_a_dry_run_of_a_three_player_category_plays_it_through(triples, eager):
    tournament, category, _, _ = triples
    run = dryrun.create_dry_run(source=tournament, category=category, seed=3)
    run_dry_run(run.pk)
    run.refresh_from_db()
    assert run.status == Status.DONE, run.error
    copied = SimulatedGame.objects.filter(
        game__match__stage__category__tournament=run.copy
    ).exclude(sides=3)
    assert not copied.exists()
    assert SimulatedGame.objects.filter(game__match__stage__category__tournament=run.copy)


def test_a_preview_of_a_three_player_match_is_refused(triples):
    _, _, _, match = triples
    with pytest.raises(previews.PreviewError, match=f"cannot preview {match}"):
        previews.create_preview(match=match, games=10)
    assert not MatchPreview.objects.exists()


def test_the_preview_form_says_why_it_did_not_start(client, triples):
    tournament, _, _, match = triples
    client.force_login(organizer_of(tournament))
    response = client.post(
        reverse("simulation:preview_start", args=[tournament.slug, match.id]),
        {"games": 20},
        follow=True,
    )
    assert response.status_code == 200
    assert "The preview was not started" in response.content.decode()
    assert REASON in response.content.decode()
    assert not MatchPreview.objects.exists()


def test_the_organizer_auto_plays_a_drawn_three_player_stage_from_its_page(
    eager, client, django_capture_on_commit_callbacks
):
    """A three-player stage drawn by the app (groups of three), auto-played from the simulation's
    stage page: every game is played and its three cards verified, and the stage's pages show
    the results."""
    from tournaments.services.draws import draw_stage

    tournament, category = make_tournament("triples-drawn", players=6)
    category.scoring_system = Category.ScoringSystem.THREE_PLAYER
    category.discs_per_player = 2
    category.save()
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    assert stage.matches.exclude(entry_c=None).count() == 2
    client.force_login(organizer_of(tournament))
    stage_url = reverse("simulation:stage", args=[tournament.slug, stage.id])

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("simulation:autoplay_start", args=[tournament.slug]),
            {"scope": "stage", "stage": stage.id, "next": stage_url},
        )

    run = AutoPlay.objects.get()
    assert response.status_code == 302, response.content.decode()[:500]
    assert run.status == Status.DONE, run.error
    games = Game.objects.filter(match__stage=stage)
    assert run.games_played == games.count() == 2
    for game in games:
        assert game.card_rows.filter(status=CardRow.Status.VERIFIED).count() == 3
    assert client.get(stage_url).status_code == 200
    page = client.get(reverse("simulation:autoplay", args=[tournament.slug, run.pk]))
    assert page.status_code == 200
    standings = client.get(f"/t/{tournament.slug}/stages/{stage.id}/standings/")
    assert standings.status_code == 200
    assert all(e.name in standings.content.decode() for e in category.entries.all())
