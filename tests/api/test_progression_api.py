"""Advancing through the API: the category page's Advance, with its words, its options and its
permission; a tie on the cut line answers 409 with the shoot-out that settles it.

WCC Tie-Breaking Procedure: "If there still is a tie, a Shoot-Out will be conducted"; "Top
scorer(s) after all shots are taken will advance".
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import CategoryFactory, EntryFactory, PlayerFactory, StageFactory
from tests.tournaments.test_stages import record
from tournaments.models import Match, Stage
from tournaments.services.draws import draw_stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client, world):
    client.force_login(world.users["olga"])
    return client


@pytest.fixture
def event(world):
    """Six entries play one preliminary game each (drawn by rotation); two go on to a final."""
    category = CategoryFactory(tournament=world.tournament, name="Open singles")
    entries = [
        EntryFactory(
            category=category,
            player=PlayerFactory(tournament=world.tournament, last_name=f"Open{n}"),
        )
        for n in range(6)
    ]
    prelim = StageFactory(
        category=category,
        name="Prelim",
        kind=Stage.Kind.PRELIMINARY,
        order=1,
        games_per_entry=1,
        advance_count=2,
    )
    final = StageFactory(category=category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    draw_stage(prelim, method="rotation")
    return prelim, final, entries


def page_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def advance_page(world, stage) -> str:
    return reverse("tournaments:manage-stage-advance", args=[world.tournament.slug, stage.pk])


def test_a_tie_on_the_cut_line_answers_409_with_the_shootout(world, page, client_for, event):
    prelim, final, entries = event
    for match in Match.objects.filter(stage=prelim):
        record(match.games.get(), None, (2, 2))  # everybody level on points and 20s
    on_page = page.post(advance_page(world, prelim), follow=True)
    olga = client_for("olga")
    tied = olga.post(f"/api/stages/{prelim.pk}/advance/", {}, format="json")
    assert tied.status_code == 409
    body = tied.json()
    # The page's message puts the stage's name before the step's words; the API answers them.
    assert f"Prelim: {body['detail']}" == page_messages(on_page)[0]
    assert "tie sits on the cut line" in body["detail"]
    shootout = Stage.objects.get(category=prelim.category, kind=Stage.Kind.SHOOTOUT)
    assert body["shootout_stage"] == shootout.pk
    assert body["shootout_page"].endswith(
        reverse("scoring:shootout", args=[world.tournament.slug, shootout.pk])
    )
    assert body["shootout_api"] == f"/api/stages/{shootout.pk}/shootouts/"
    [tie] = body["ties"]
    assert tie["places"] == 2 and tie["seeding"] is False
    assert {e["id"] for e in tie["entries"]} == {e.pk for e in entries}
    # The answer keeps the shoot-out stage: asking again does not make a second one.
    assert olga.post(f"/api/stages/{prelim.pk}/advance/").status_code == 409
    assert Stage.objects.filter(category=prelim.category, kind=Stage.Kind.SHOOTOUT).count() == 1

    # The referee records the shoot-out where the answer says; then the advance goes through.
    made = dict(zip([e.pk for e in entries], [9, 8, 5, 4, 3, 2], strict=True))
    shot = client_for("ref").post(
        body["shootout_api"],
        {"scores": [{"entry": pk, "twenties": n} for pk, n in made.items()]},
        format="json",
    )
    assert shot.status_code == 201, shot.json()
    advanced = olga.post(f"/api/stages/{prelim.pk}/advance/", {}, format="json")
    assert advanced.status_code == 200, advanced.json()
    assert advanced.json()["detail"] == "Prelim: entries advanced; next: Final."
    assert advanced.json()["next_stage"]["id"] == final.pk
    assert advanced.json()["matches"] == 1
    match = Match.objects.get(stage=final)
    assert {match.entry_a, match.entry_b} == set(entries[:2])


def test_an_unfinished_stage_is_refused_in_the_words_of_the_page(world, page, client_for, event):
    prelim, final, _ = event
    on_page = page.post(advance_page(world, prelim), follow=True)
    refused = client_for("olga").post(f"/api/stages/{prelim.pk}/advance/", format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("Not finished: ")
    assert [f"Prelim: {refused.json()['detail']}"] == page_messages(on_page)
    assert not Match.objects.filter(stage=final).exists()


def test_a_knockout_does_not_advance(world, client_for, event):
    _, final, _ = event
    refused = client_for("olga").post(f"/api/stages/{final.pk}/advance/", format="json")
    assert refused.status_code == 409
    assert "winners go on inside its bracket" in refused.json()["detail"]


def test_the_options_of_the_next_stage_are_passed_on(world, client_for, event):
    prelim, final, _ = event
    prelim.advance_count = 4
    prelim.save()
    for n, match in enumerate(Match.objects.filter(stage=prelim).order_by("id")):
        record(match.games.get(), "a", (8 - n, n + 1))  # nobody level: no shoot-out
    olga = client_for("olga")
    bad = olga.post(f"/api/stages/{prelim.pk}/advance/", {"pool_count": 0}, format="json")
    assert bad.status_code == 400 and "pool_count" in bad.json()
    response = olga.post(f"/api/stages/{prelim.pk}/advance/", {"third_place": True}, format="json")
    assert response.status_code == 200, response.json()
    final.refresh_from_db()
    assert final.third_place is True
    assert Match.objects.filter(stage=final).count() == 2  # the semifinals


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 401), ("ann", 403), ("ref", 403), ("table", 403), ("head", 403)],
)
def test_only_organizers_advance(world, client_for, event, who, status):
    prelim, final, _ = event
    for n, match in enumerate(Match.objects.filter(stage=prelim).order_by("id")):
        record(match.games.get(), "a", (8 - n, 0))
    response = client_for(who).post(f"/api/stages/{prelim.pk}/advance/", format="json")
    assert response.status_code == status
    if status == 403:
        assert response.json()["detail"] == "Only the tournament's organizers may change it."
    assert not Match.objects.filter(stage=final).exists()
    assert client_for("olga").post(f"/api/stages/{prelim.pk}/advance/").status_code == 200
