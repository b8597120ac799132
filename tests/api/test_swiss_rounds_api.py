"""A Swiss stage is paired round by round from the results so far: the category page's
"Draw round N of M" button and ``POST /api/stages/{id}/next-round/`` call the same service, with
the same words and the same permission (the organizers)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import CategoryFactory, EntryFactory, PlayerFactory, StageFactory
from tests.tournaments.test_stages import record
from tournaments.models import Match
from tournaments.services.draws import draw_stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss(world):
    category = CategoryFactory(tournament=world.tournament, name="Swiss singles")
    for n in range(6):
        EntryFactory(
            category=category,
            player=PlayerFactory(tournament=world.tournament, last_name=f"Swiss{n}"),
        )
    stage = StageFactory(category=category, name="Swiss", kind="swiss", games_per_entry=3)
    draw_stage(stage)
    return stage


def play_round(stage, number: int) -> None:
    for match in Match.objects.filter(stage=stage, round_of_play=number, entry_b__isnull=False):
        record(match.games.get(), "a")


def category_page(world, stage) -> str:
    return reverse("tournaments:manage-category", args=[world.tournament.slug, stage.category_id])


def test_the_category_page_offers_the_next_round_and_refuses_it_until_the_round_is_played(
    world, client, swiss
):
    client.force_login(world.users["olga"])
    page = client.get(category_page(world, swiss))
    assert "Draw round 2 of 3" in page.content.decode()
    url = reverse("tournaments:manage-stage-next-round", args=[world.tournament.slug, swiss.pk])
    refused = client.post(url, follow=True)
    words = [str(m) for m in refused.context["messages"]]
    assert any(w.startswith("Swiss: Round 1 is not finished") for w in words), words
    assert not Match.objects.filter(stage=swiss, round_of_play=2).exists()

    play_round(swiss, 1)
    client.post(url)
    assert Match.objects.filter(stage=swiss, round_of_play=2).count() == 3
    assert "Draw round 3 of 3" in client.get(category_page(world, swiss)).content.decode()


def test_the_api_pairs_the_next_round_with_the_page_words(world, client_for, swiss):
    api = client_for("olga")
    refused = api.post(f"/api/stages/{swiss.pk}/next-round/", format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("Round 1 is not finished")

    play_round(swiss, 1)
    drawn = api.post(f"/api/stages/{swiss.pk}/next-round/", format="json")
    assert drawn.status_code == 200, drawn.json()
    assert drawn.json()["round_of_play"] == 2
    assert drawn.json()["matches"] == Match.objects.filter(stage=swiss, round_of_play=2).count()


@pytest.mark.parametrize("who,status", [(None, 401), ("ann", 403), ("ref", 403)])
def test_only_organizers_pair_the_next_round(world, client_for, swiss, who, status):
    play_round(swiss, 1)
    answer = client_for(who).post(f"/api/stages/{swiss.pk}/next-round/", format="json")
    assert answer.status_code == status
    assert not Match.objects.filter(stage=swiss, round_of_play=2).exists()
