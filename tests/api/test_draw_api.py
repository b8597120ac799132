"""Draws through the API: the draw, undo and swap of the stage and draw pages, with the same
check-in gate, the same refusals in the same words, and the same permission (organizers)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import CategoryFactory, EntryFactory, PlayerFactory, StageFactory
from tests.tournaments.test_stages import record
from tournaments.models import Entry, Match, Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def page(client, world):
    """Olga's browser on the organizer pages."""
    client.force_login(world.users["olga"])
    return client


@pytest.fixture
def open_(world):
    """A category of six entries, all checked in but one, with an undrawn preliminary and a
    knockout after it."""
    category = CategoryFactory(tournament=world.tournament, name="Open singles")
    entries = [
        EntryFactory(
            category=category,
            checked_in=n != 2,
            player=PlayerFactory(tournament=world.tournament, last_name=f"Open{n}"),
        )
        for n in range(6)
    ]
    prelim = StageFactory(
        category=category, name="Prelim", kind=Stage.Kind.PRELIMINARY, order=1, games_per_entry=2
    )
    final = StageFactory(category=category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    return category, entries, prelim, final


def page_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def manage(name: str, world, *args) -> str:
    return reverse(f"tournaments:{name}", args=[world.tournament.slug, *args])


def test_the_draw_waits_for_check_in_and_lists_who_is_missing_as_the_page(
    world, page, client_for, open_
):
    """Rule: a first draw is refused while an active entry is neither checked in nor
    withdrawn; the API names them in the page's words and lists them to check in."""
    category, entries, prelim, _ = open_
    on_page = page.post(manage("manage-stage-draw", world, prelim.pk), follow=True)
    olga = client_for("olga")
    refused = olga.post(f"/api/stages/{prelim.pk}/draw/", {}, format="json")
    assert refused.status_code == 400
    body = refused.json()
    # The page's message puts the stage's name before the step's words; the API answers them.
    assert f"Prelim: {body['detail']}" in page_messages(on_page)
    assert "not checked in" in body["detail"] and entries[2].name in body["detail"]
    assert [e["id"] for e in body["not_checked_in"]] == [entries[2].pk]
    assert not Match.objects.filter(stage=prelim).exists()

    # Checked in through the bulk endpoint (the draw page's "Check in all"), it draws.
    checked = olga.post(f"/api/categories/{category.pk}/check-in/", {"all": True}, format="json")
    assert checked.status_code == 200, checked.json()
    assert [e["id"] for e in checked.json()["checked_in"]] == [entries[2].pk]
    assert len(checked.json()["already"]) == 5
    drawn = olga.post(f"/api/stages/{prelim.pk}/draw/", {"method": "rotation"}, format="json")
    assert drawn.status_code == 201, drawn.json()
    assert drawn.json()["matches"] == Match.objects.filter(stage=prelim).count() > 0
    assert drawn.json()["detail"] == f"Prelim: drawn ({drawn.json()['matches']} matches)."


def test_drawing_twice_is_refused_in_the_words_of_the_page(world, page, client_for, open_):
    category, _, prelim, _ = open_
    Entry.objects.filter(category=category).update(checked_in=True)
    olga = client_for("olga")
    assert olga.post(f"/api/stages/{prelim.pk}/draw/", format="json").status_code == 201
    matches = set(Match.objects.filter(stage=prelim).values_list("pk", flat=True))
    on_page = page.post(manage("manage-stage-draw", world, prelim.pk), follow=True)
    again = olga.post(f"/api/stages/{prelim.pk}/draw/", format="json")
    assert again.status_code == 409
    assert again.json()["detail"] == "Already drawn; undo the draw to draw again."
    assert f"Prelim: {again.json()['detail']}" in page_messages(on_page)
    assert set(Match.objects.filter(stage=prelim).values_list("pk", flat=True)) == matches


def test_a_stage_after_another_is_filled_by_the_advance_not_drawn(world, client_for, open_):
    category, _, _, final = open_
    Entry.objects.filter(category=category).update(checked_in=True)
    refused = client_for("olga").post(f"/api/stages/{final.pk}/draw/", format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "Filled by the Advance of Prelim, once that stage is finished."
    )
    assert not Match.objects.filter(stage=final).exists()


def test_bad_options_say_which(world, client_for, open_):
    _, _, prelim, _ = open_
    response = client_for("olga").post(
        f"/api/stages/{prelim.pk}/draw/", {"method": "lottery", "pool_count": 0}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()) == {"method", "pool_count"}


def test_undo_is_refused_once_a_result_is_recorded_as_on_the_page(world, page, client_for):
    """Rule: a draw is taken back only while nothing of it is played."""
    record(world.game, "a", (3, 1))
    on_page = page.post(manage("manage-stage-undo", world, world.stage.pk), follow=True)
    refused = client_for("olga").post(f"/api/stages/{world.stage.pk}/undo-draw/")
    assert refused.status_code == 409
    assert "official result is recorded" in refused.json()["detail"]
    assert [f"{world.stage.name}: {refused.json()['detail']}"] == page_messages(on_page)
    assert Match.objects.filter(stage=world.stage).exists()


def test_undo_then_draw_again(world, client_for):
    Entry.objects.filter(category=world.stage.category).update(checked_in=True)
    olga = client_for("olga")
    undone = olga.post(f"/api/stages/{world.stage.pk}/undo-draw/")
    assert undone.status_code == 200, undone.json()
    assert undone.json() == {
        "stage": world.stage.pk,
        "matches_removed": 1,
        "detail": f"{world.stage.name}: draw undone (1 matches removed).",
    }
    assert not Match.objects.filter(stage=world.stage).exists()
    again = olga.post(f"/api/stages/{world.stage.pk}/undo-draw/")
    assert again.status_code == 409 and "nothing to undo" in again.json()["detail"]
    assert olga.post(f"/api/stages/{world.stage.pk}/draw/").status_code == 201


def test_swap_brings_an_entry_into_the_draw_and_refuses_played_matches(world, page, client_for):
    olga = client_for("olga")
    url = f"/api/stages/{world.stage.pk}/swap/"
    swapped = olga.post(url, {"entry_a": world.b.pk, "entry_b": world.c.pk}, format="json")
    assert swapped.status_code == 200, swapped.json()
    assert swapped.json()["matches"] == 1
    world.match.refresh_from_db()
    assert (world.match.entry_a, world.match.entry_b) == (world.a, world.c)

    record(world.game, "a", (3, 1))
    on_page = page.post(
        manage("manage-stage-swap", world, world.stage.pk),
        {"a": world.c.pk, "b": world.b.pk},
        follow=True,
    )
    refused = olga.post(url, {"entry_a": world.c.pk, "entry_b": world.b.pk}, format="json")
    assert refused.status_code == 409
    assert [f"{world.stage.name}: {refused.json()['detail']}"] == page_messages(on_page)
    assert "Cannot swap" in refused.json()["detail"]
    unknown = olga.post(url, {"entry_a": world.a.pk, "entry_b": 999999}, format="json")
    assert unknown.status_code == 400 and unknown.json() == {
        "entry_b": ["There is no entry 999999."]
    }


@pytest.mark.parametrize(
    ("who", "status"),
    [(None, 401), ("ann", 403), ("ref", 403), ("table", 403), ("head", 403)],
)
@pytest.mark.parametrize("action", ["draw", "undo-draw", "swap"])
def test_only_organizers_draw(world, client_for, open_, who, status, action):
    category, _, prelim, _ = open_
    Entry.objects.filter(category=category).update(checked_in=True)
    stage = prelim if action == "draw" else world.stage
    body = {"entry_a": world.b.pk, "entry_b": world.c.pk} if action == "swap" else {}
    response = client_for(who).post(f"/api/stages/{stage.pk}/{action}/", body, format="json")
    assert response.status_code == status
    if status == 403:
        assert response.json()["detail"] == "Only the tournament's organizers may change it."
    assert Match.objects.filter(stage=prelim).count() == 0
    world.match.refresh_from_db()
    assert Match.objects.filter(stage=world.stage).count() == 1
    assert world.match.entry_b == world.b


def test_the_schema_documents_the_event_day_endpoints(api_schema):
    schema = api_schema
    paths = schema["paths"]
    expected = {
        "/api/stages/{id}/draw/": "post",
        "/api/stages/{id}/undo-draw/": "post",
        "/api/stages/{id}/swap/": "post",
        "/api/stages/{id}/advance/": "post",
        "/api/stages/{id}/pools/": "post",
        "/api/categories/{id}/check-in/": "post",
        "/api/categories/{id}/seeds/": "patch",
        "/api/tournaments/{slug}/clock/": "patch",
        "/api/tournaments/{slug}/clock/start/": "post",
        "/api/tournament-creators/": "post",
        "/api/tournament-creators/{username}/": "delete",
    }
    for path, method in expected.items():
        assert method in paths.get(path, {}), path
        assert {"401", "403"} <= set(paths[path][method]["responses"]), path
    assert "not_checked_in" in schema["components"]["schemas"]["NotCheckedIn"]["properties"]
    assert "409" in paths["/api/stages/{id}/advance/"]["post"]["responses"]
