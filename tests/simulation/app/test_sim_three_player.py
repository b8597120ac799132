"""The app's simulated play deals out games of two sides (singles, doubles); a three-player
category (family rulebook, Option Two) is refused before anything is queued, with the reason,
on every path: auto-play, a match preview, a dry run, and the pages that start them."""

import pytest
from django.urls import reverse

from simulation.models import AutoPlay, DryRun, MatchPreview
from simulation.services import autoplay, dryrun, previews
from tests.simulation.app.support import add_stage, make_tournament, organizer_of
from tournaments.models import Category, Game, Match, Stage

pytestmark = pytest.mark.django_db

REASON = "simulated play deals out games of two sides only"


@pytest.fixture
def triples():
    tournament, category = make_tournament("triples-night", players=6)
    category.scoring_system = Category.ScoringSystem.THREE_PLAYER
    category.discs_per_player = 12
    category.save()
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    a, b, c = category.entries.order_by("id")[:3]
    match = Match.objects.create(stage=stage, entry_a=a, entry_b=b, entry_c=c)
    Game.objects.create(match=match, number=1)
    return tournament, category, stage, match


def test_auto_play_of_a_three_player_category_stage_or_match_is_refused(triples):
    tournament, category, stage, match = triples
    for scope, target in (
        (AutoPlay.Scope.CATEGORY, {"category": category}),
        (AutoPlay.Scope.STAGE, {"stage": stage}),
        (AutoPlay.Scope.MATCH, {"match": match}),
    ):
        with pytest.raises(autoplay.AutoPlayError, match=REASON) as refused:
            autoplay.create_autoplay(tournament=tournament, scope=scope, **target)
        assert "Competitive Singles plays three-player games" in str(refused.value)
    assert not AutoPlay.objects.exists()


def test_a_preview_of_a_three_player_match_is_refused(triples):
    _, _, _, match = triples
    with pytest.raises(previews.PreviewError, match=f"cannot preview {match}"):
        previews.create_preview(match=match, games=10)
    assert not MatchPreview.objects.exists()


def test_a_dry_run_of_a_three_player_category_is_refused(triples):
    tournament, category, _, _ = triples
    with pytest.raises(dryrun.DryRunError, match="cannot rehearse it in a dry run"):
        dryrun.create_dry_run(source=tournament, category=category)
    assert not DryRun.objects.exists()


def test_the_auto_play_page_says_why_it_did_not_start(client, triples):
    tournament, category, _, _ = triples
    client.force_login(organizer_of(tournament))
    response = client.post(
        reverse("simulation:autoplay_start", args=[tournament.slug]),
        {"scope": "category", "category": category.id},
        follow=True,
    )
    assert response.status_code == 200
    assert "Auto-play was not started" in response.content.decode()
    assert REASON in response.content.decode()
    assert not AutoPlay.objects.exists()
