"""The seed and pool editor of a stage: seeds typed in one table and saved at once, entries
moved between round-robin pools while nothing is played; the page and the API call the same
service and refuse in the same words; every change is in the history."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import CategoryFactory, EntryFactory, PlayerFactory, StageFactory
from tests.tournaments.test_stages import record
from tournaments.models import Board, Entry, Match, Stage, TournamentRole
from tournaments.services import seeding
from tournaments.services.draws import draw_stage, undo_draw
from tournaments.services.schedule import schedule_stage

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


@pytest.fixture
def organizer(small_event) -> User:
    return small_event.users["organizer"]


@pytest.fixture
def org(client, organizer):
    client.force_login(organizer)
    return client


@pytest.fixture
def api(organizer) -> APIClient:
    client = APIClient()
    client.force_authenticate(organizer)
    return client


@pytest.fixture
def pools(small_event):
    """A round robin of eight entries in two pools of four, drawn (single round robin)."""
    category = CategoryFactory(tournament=small_event.tournament, name="Pools singles")
    entries = [
        EntryFactory(
            category=category,
            seed=n + 1,
            player=PlayerFactory(
                tournament=small_event.tournament, last_name=f"Pool{n}", club=f"Club {n}"
            ),
        )
        for n in range(8)
    ]
    stage = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=1)
    draw_stage(stage, pool_count=2)
    return stage, entries


def seeds_url(event, stage) -> str:
    return reverse("tournaments:manage-stage-seeding", args=[event.tournament.slug, stage.pk])


def members(stage) -> dict[str, set[int]]:
    return {line.name: {e.pk for e in line.entries} for line in seeding.stage_pools(stage)}


def page_messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


# --- seeds ---------------------------------------------------------------------------------------


def test_the_seeds_table_saves_every_seed_at_once(small_event, org):
    entries = small_event.entries
    page = org.get(seeds_url(small_event, small_event.stage))
    assert page.status_code == 200
    html = page.content.decode()
    for entry in entries:
        assert f'name="seed-{entry.pk}"' in html
    data = {"action": "seeds"} | {
        f"seed-{e.pk}": str(len(entries) - n) for n, e in enumerate(entries)
    }
    data[f"seed-{entries[0].pk}"] = ""  # no seed, as before: not a change
    saved = org.post(seeds_url(small_event, small_event.stage), data, follow=True)
    assert "Competitive Singles: seeds saved (5 changed)." in page_messages(saved)
    seeds = dict(Entry.objects.filter(pk__in=[e.pk for e in entries]).values_list("pk", "seed"))
    assert seeds[entries[0].pk] is None
    assert [seeds[e.pk] for e in entries[1:]] == [5, 4, 3, 2, 1]
    # Told in each entry's history, by whom and why.
    last = entries[1].history.first()
    assert last.seed == 5 and last.history_change_reason == seeding.SEED_REASON
    assert last.history_user == small_event.users["organizer"]
    # The table lists them seeded first, by seed.
    assert [e.pk for e in seeding.seed_table(small_event.category)][:2] == [
        entries[5].pk,
        entries[4].pk,
    ]


def test_a_seed_given_twice_saves_nothing_and_reads_the_same_in_the_api(small_event, org, api):
    """Rule: each seed goes to one active entry; a clash names both and saves nothing."""
    a, b = small_event.entries[:2]
    data = {"action": "seeds"} | {f"seed-{e.pk}": "" for e in small_event.entries}
    data |= {f"seed-{a.pk}": "3", f"seed-{b.pk}": "3"}
    page = org.post(seeds_url(small_event, small_event.stage), data)
    assert page.status_code == 400
    html = page.content.decode()
    assert f'name="seed-{a.pk}" value="3"' in html  # the table comes back as typed
    through_api = api.patch(
        f"/api/categories/{small_event.category.pk}/seeds/",
        {"seeds": [{"entry": a.pk, "seed": 3}, {"entry": b.pk, "seed": 3}]},
        format="json",
    )
    assert through_api.status_code == 400
    words = through_api.json()["detail"]
    assert words == page.context["seed_error"]
    assert words.startswith("Seed 3 is given to") and a.name in words and b.name in words
    assert not Entry.objects.filter(category=small_event.category, seed__isnull=False).exists()


def test_a_box_that_is_not_a_seed_is_named(small_event, org):
    entry = small_event.entries[0]
    data = {"action": "seeds", f"seed-{entry.pk}": "first"}
    page = org.post(seeds_url(small_event, small_event.stage), data)
    assert page.status_code == 400
    assert (
        f"Seed of {entry.name} ({entry.number}): “first” is not a whole number from 1."
        in (page.context["seed_error"])
    )


def test_the_api_sets_seeds_in_bulk(small_event, api):
    a, b, c = small_event.entries[:3]
    url = f"/api/categories/{small_event.category.pk}/seeds/"
    response = api.patch(
        url, {"seeds": [{"entry": a.pk, "seed": 2}, {"entry": b.pk, "seed": 1}]}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json()["changed"] == 2
    assert [(e["id"], e["seed"]) for e in response.json()["entries"][:2]] == [(b.pk, 1), (a.pk, 2)]
    other = EntryFactory()
    refused = api.patch(url, {"seeds": [{"entry": other.pk, "seed": 3}]}, format="json")
    assert refused.status_code == 400 and "has no entry" in refused.json()["detail"]
    bad = api.patch(url, {"seeds": [{"entry": c.pk, "seed": 0}]}, format="json")
    assert bad.status_code == 400 and "seeds" in bad.json()
    assert Entry.objects.get(pk=c.pk).seed is None


def test_seeds_feed_the_next_draw(small_event, org):
    """Seeds place the entries in a knockout drawn from them: seed 1 meets the last seed."""
    category = CategoryFactory(tournament=small_event.tournament, name="Knockout singles")
    entries = [EntryFactory(category=category) for _ in range(4)]
    stage = StageFactory(category=category, name="KO", kind=Stage.Kind.KNOCKOUT, order=1)
    seeding.set_seeds(category=category, seeds={e.pk: 4 - n for n, e in enumerate(entries)})
    page = org.get(seeds_url(small_event, stage)).content.decode()
    assert "is drawn already" not in page
    draw_stage(stage)
    first = Match.objects.get(stage=stage, bracket_slot="SF1")
    assert {first.entry_a_id, first.entry_b_id} == {entries[3].pk, entries[0].pk}
    assert "KO is drawn already" in org.get(seeds_url(small_event, stage)).content.decode()


# --- pools ---------------------------------------------------------------------------------------


def test_moving_an_entry_redraws_the_pools(small_event, org, pools):
    stage, entries = pools
    before = members(stage)
    mover = next(e for e in entries if e.pk in before["A"])
    page = org.get(seeds_url(small_event, stage)).content.decode()
    assert 'name="action" value="move"' in page and "Pool A" in page
    moved = org.post(
        seeds_url(small_event, stage),
        {"action": "move", "entry": mover.pk, "pool": "B"},
        follow=True,
    )
    assert page_messages(moved) == [
        f"{mover.name} moved from pool A to pool B; the pools' matches are drawn again "
        "(21 matches)."
    ]
    after = members(stage)
    assert after == {"A": before["A"] - {mover.pk}, "B": before["B"] | {mover.pk}}
    # Three entries play 3 games (and sit out a round each), five play 10 (5 byes).
    for pool, games, byes in (("A", 3, 3), ("B", 10, 5)):
        matches = Match.objects.filter(stage=stage, pool__name=pool)
        assert matches.filter(entry_b__isnull=False).count() == games
        assert matches.filter(entry_b__isnull=True).count() == byes
        played = {e for m in matches for e in (m.entry_a_id, m.entry_b_id) if e}
        assert played == after[pool]
    history = stage.history.first()
    assert history.history_change_reason.startswith(f"Pools: {mover.name} moved from pool A")
    assert history.history_user == small_event.users["organizer"]


def test_a_double_round_robin_stays_double(small_event, pools):
    stage, _ = pools
    undo_draw(stage)
    draw_stage(stage, pool_count=2, double=True)
    mover = next(iter(seeding.stage_pools(stage)[1].entries))
    done = seeding.move_to_pool(stage=stage, entry=mover, pool="a")
    assert done.matches == 2 * (3 + 3 + 10 + 5)  # every game and bye twice
    pairs = Match.objects.filter(stage=stage, entry_b__isnull=False)
    assert pairs.filter(entry_a=mover).count() + pairs.filter(entry_b=mover).count() == 2 * 4


def test_start_times_are_cleared_and_said(small_event, pools):
    stage, _ = pools
    Board.objects.filter(tournament=stage.category.tournament).update(in_service=True)
    schedule_stage(stage, datetime(2026, 6, 6, 9, tzinfo=UTC), 30)
    mover = seeding.stage_pools(stage)[0].entries[0]
    done = seeding.move_to_pool(stage=stage, entry=mover, pool="B")
    assert done.describe().endswith("; set the start times again.")
    assert not Match.objects.filter(stage=stage, starts_at__isnull=False).exists()


def test_pools_are_fixed_once_a_result_is_recorded_on_every_path(small_event, org, api, pools):
    """Rule: entries move between pools only while nothing of the stage is played."""
    stage, entries = pools
    before = members(stage)
    record(Match.objects.filter(stage=stage).first().games.get(), "a", (3, 1))
    page = org.get(seeds_url(small_event, stage)).content.decode()
    assert "The pools cannot change any more" in page
    assert 'name="action" value="move"' not in page
    mover = entries[0]
    target = "B" if mover.pk in before["A"] else "A"
    on_page = org.post(
        seeds_url(small_event, stage),
        {"action": "move", "entry": mover.pk, "pool": target},
        follow=True,
    )
    through_api = api.post(
        f"/api/stages/{stage.pk}/pools/", {"entry": mover.pk, "pool": target}, format="json"
    )
    assert through_api.status_code == 409
    # The page's message puts the stage's name before the step's words; the API answers them.
    assert [f"{stage.name}: {through_api.json()['detail']}"] == page_messages(on_page)
    assert "an official result is recorded" in through_api.json()["detail"]
    assert members(stage) == before
    state = api.get(f"/api/stages/{stage.pk}/pools/").json()
    assert state["editable"] is False and "cannot change" in state["refusal"]


@pytest.mark.parametrize(
    ("pool", "words"),
    [
        ("C", "There is no pool “C”; the pools are A, B."),
        ("same", "is in pool {} already."),
    ],
)
def test_a_move_that_cannot_be_made_says_why(small_event, pools, pool, words):
    stage, _ = pools
    lines = seeding.stage_pools(stage)
    mover = lines[0].entries[0]
    target = lines[0].name if pool == "same" else pool
    with pytest.raises(ValidationError) as refused:
        seeding.move_to_pool(stage=stage, entry=mover, pool=target)
    assert words.format(lines[0].name) in " ".join(refused.value.messages)


def test_a_pool_keeps_two_entries(small_event, api, pools):
    stage, _ = pools
    url = f"/api/stages/{stage.pk}/pools/"
    for _ in range(2):
        mover = seeding.stage_pools(stage)[0].entries[0]
        assert api.post(url, {"entry": mover.pk, "pool": "B"}, format="json").status_code == 200
    last = seeding.stage_pools(stage)[0].entries[0]
    refused = api.post(url, {"entry": last.pk, "pool": "B"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "Pool A would keep 1 entry; a round robin needs at least two in each pool."
    )
    assert len(seeding.stage_pools(stage)[0].entries) == 2


def test_the_pools_endpoint(small_event, api, pools):
    stage, _ = pools
    before = members(stage)
    state = APIClient().get(f"/api/stages/{stage.pk}/pools/")  # public, like the pools page
    assert state.status_code == 200
    body = state.json()
    assert body["editable"] is True and body["refusal"] == ""
    assert {p["name"]: {e["id"] for e in p["entries"]} for p in body["pools"]} == before
    mover = next(iter(before["B"]))
    moved = api.post(f"/api/stages/{stage.pk}/pools/", {"entry": mover, "pool": "A"}, format="json")
    assert moved.status_code == 200, moved.json()
    assert "moved from pool B to pool A" in moved.json()["detail"]
    assert {e["id"] for e in moved.json()["pools"][0]["entries"]} == before["A"] | {mover}


def test_a_stage_not_in_pools_has_no_pool_editor(small_event, org, api):
    page = org.get(seeds_url(small_event, small_event.stage)).content.decode()
    assert "Pools" not in page.split("<h2>Seeds</h2>")[1]
    refused = api.post(
        f"/api/stages/{small_event.stage.pk}/pools/",
        {"entry": small_event.player.pk, "pool": "B"},
        format="json",
    )
    assert refused.status_code == 400
    assert "Only a round robin is played in pools" in refused.json()["detail"]


# --- who, and where from -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "role", ["head-referee", "referee", "scoring-table", "player", "anonymous"]
)
def test_only_organizers_edit_seeds_and_pools(small_event, client, pools, role):
    stage, entries = pools
    before = members(stage)
    small_event.login(client, role)
    page = client.get(seeds_url(small_event, stage))
    posted = client.post(
        seeds_url(small_event, stage), {"action": "seeds", f"seed-{entries[0].pk}": "9"}
    )
    api = APIClient()
    if role != "anonymous":
        api.force_authenticate(small_event.users[role])
    seeds = api.patch(
        f"/api/categories/{stage.category_id}/seeds/",
        {"seeds": [{"entry": entries[0].pk, "seed": 9}]},
        format="json",
    )
    move = api.post(
        f"/api/stages/{stage.pk}/pools/", {"entry": entries[0].pk, "pool": "B"}, format="json"
    )
    if role == "anonymous":
        assert page.status_code == posted.status_code == 302
        assert seeds.status_code == move.status_code == 401
    else:
        assert page.status_code == posted.status_code == 403
        assert seeds.status_code == move.status_code == 403
        assert move.json()["detail"] == "Only the tournament's organizers may change it."
    assert Entry.objects.get(pk=entries[0].pk).seed == 1
    assert members(stage) == before


def test_the_editor_is_linked_from_the_category_and_draw_pages(small_event, org, pools):
    stage, _ = pools
    slug = small_event.tournament.slug
    category = org.get(
        reverse("tournaments:manage-category", args=[slug, stage.category_id])
    ).content.decode()
    assert f'href="{seeds_url(small_event, stage)}">seeds and pools</a>' in category
    draw = org.get(reverse("tournaments:manage-stage-draw", args=[slug, stage.pk])).content.decode()
    assert f'href="{seeds_url(small_event, stage)}">Seeds and pools</a>' in draw
    prelim = org.get(
        reverse("tournaments:manage-category", args=[slug, small_event.category.pk])
    ).content.decode()
    assert f'href="{seeds_url(small_event, small_event.stage)}">seeds</a>' in prelim
