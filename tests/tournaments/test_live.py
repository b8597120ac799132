"""Public pages follow the event by themselves: one version number per tournament goes up after
every committed change they show, public pages carry the version they were drawn with and poll
it, and the poll answers with ``HX-Refresh`` once it moved on (``tournaments.live``)."""

from __future__ import annotations

import re

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.scorecards.services import card_for, fill_row
from tests.events import WIN, build_small_event
from tests.factories import TournamentFactory
from tournaments import live
from tournaments.models import Tournament
from tournaments.services.schedule import schedule_stage

pytestmark = pytest.mark.django_db


def version(event) -> int:
    return Tournament.objects.get(pk=event.tournament.pk).live_version


@pytest.mark.django_db(transaction=True)
def test_each_committed_transaction_bumps_its_tournament_once_and_no_other(no_odds_after_results):
    event, other = build_small_event(), build_small_event(players=4)
    before, other_before = version(event), version(other)
    event.play_and_verify()  # three writes, three transactions
    assert version(event) == before + 3
    with transaction.atomic():  # three writes in one transaction (a request): one bump
        event.game = event.player_games()[1]
        card = card_for(event.stage, event.player)
        fill_row(card=card, game=event.game, rounds=WIN, user=event.users["player"])
        fill_row(card=card, game=event.game, rounds=WIN[:2], user=event.users["player"], version=1)
        fill_row(card=card, game=event.game, rounds=WIN, user=event.users["player"], version=2)
    assert version(event) == before + 4
    assert version(other) == other_before


@pytest.fixture
def no_odds_after_results():
    """The cut odds that follow a verified result are a transaction of their own (a task: in
    place where tasks run eagerly, on a worker under a broker); counting the writes' own
    bumps, the test leaves them out wherever it runs."""
    from scoring.results.signals import official_results_changed

    official_results_changed.disconnect(dispatch_uid="simulation.odds")
    yield
    from simulation.odds.hooks import results_changed

    official_results_changed.connect(results_changed, dispatch_uid="simulation.odds")


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_write_bumps_nothing():
    event = build_small_event()
    before = version(event)
    with pytest.raises(RuntimeError), transaction.atomic():
        fill_row(
            card=card_for(event.stage, event.player),
            game=event.game,
            rounds=WIN,
            user=event.users["player"],
        )
        raise RuntimeError("the request failed after the write")
    assert version(event) == before


@pytest.mark.django_db(transaction=True)
def test_bulk_writes_of_the_schedule_bump_too():
    """The schedule writes its start times with ``bulk_update``, which sends no signal."""
    from datetime import UTC, datetime

    event = build_small_event()
    before = version(event)
    schedule_stage(event.stage, datetime(2026, 6, 6, 9, tzinfo=UTC), 30)
    assert version(event) == before + 1


@pytest.mark.django_db(transaction=True)
def test_a_bump_under_way_is_not_queued_behind():
    """Fifty writes at the end of a round bump one tournament row: a bump that finds another
    under way skips it (that one commits after this writer's data) instead of waiting."""
    if not connection.features.has_select_for_update_skip_locked:
        # SQLite has one writer at a time, so no single row is ever locked there: the bump is
        # the one plain UPDATE.
        event = build_small_event()
        before = version(event)
        with CaptureQueriesContext(connection) as queries:
            live.touch("tournament", [event.tournament.pk])
        assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]
        assert version(event) == before + 1
        return
    import threading

    from django.db import connections

    event = build_small_event()
    before = version(event)
    holding, release = threading.Event(), threading.Event()

    def other_bump() -> None:
        try:
            with transaction.atomic():
                Tournament.objects.select_for_update().filter(pk=event.tournament.pk).update(
                    live_version=F("live_version") + 1
                )
                holding.set()
                release.wait(10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_bump)
    thread.start()
    try:
        assert holding.wait(10)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '1s'")  # a wait would fail the bump
        try:
            live.touch("tournament", [event.tournament.pk])
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
    finally:
        release.set()
        thread.join(10)
    assert version(event) == before + 1  # the bump under way, committed after this one's data


def test_the_poll_costs_one_query_and_asks_for_a_reload_only_when_behind(client, small_event):
    url = reverse("tournaments:live", args=[small_event.tournament.slug])
    current = version(small_event)
    with CaptureQueriesContext(connection) as queries:
        same = client.get(url, {"seen": current}, HTTP_HX_REQUEST="true")
    assert [q["sql"] for q in queries if q["sql"].startswith("SELECT")] == [
        q["sql"] for q in queries if "live_version" in q["sql"]
    ]
    assert len([q for q in queries if q["sql"].startswith("SELECT")]) == 1
    assert same.status_code == 200 and same.json() == {"version": str(current)}
    assert "HX-Refresh" not in same
    assert "no-store" in same["Cache-Control"]
    behind = client.get(url, {"seen": current - 1}, HTTP_HX_REQUEST="true")
    assert behind["HX-Refresh"] == "true"
    missing = client.get(reverse("tournaments:live", args=["no-such-event"]))
    assert missing.status_code == 404


@pytest.mark.parametrize(
    "page",
    ["detail", "standings", "schedule", "pools", "bracket", "player"],
)
def test_public_pages_poll_with_the_version_they_were_drawn_with(client, small_event, page):
    slug, stage = small_event.tournament.slug, small_event.stage.id
    urls = {
        "detail": reverse("tournaments:detail", args=[slug]),
        "standings": reverse("scoring:standings", args=[slug, stage]),
        "schedule": reverse("tournaments:round", args=[slug, stage, 1]),
        "pools": reverse("tournaments:pools", args=[slug, stage]),
        "bracket": reverse("tournaments:bracket", args=[slug, stage]),
        "player": reverse("tournaments:player", args=[slug, small_event.player.player.number]),
    }
    html = client.get(urls[page]).content.decode()
    poll = reverse("tournaments:live", args=[slug])
    assert f'hx-get="{poll}?seen={version(small_event)}"' in html
    assert "data-live-poll" in html and "js/live.js" in html


def test_pages_with_a_form_to_fill_do_not_reload_under_the_hand(client, small_event):
    html = client.get(
        reverse("tournaments:player_lookup", args=[small_event.tournament.slug])
    ).content.decode()
    assert "data-live-poll" not in html


def test_the_front_page_reloads_when_its_list_changes_not_on_results(client, small_event):
    page = client.get(reverse("home"), {"q": "Small"})
    html = page.content.decode()
    poll = page.context["live_poll"]["url"]
    assert "q=Small" in poll and f'hx-get="{poll.replace("&", "&amp;")}"' in html
    assert client.get(poll, HTTP_HX_REQUEST="true").get("HX-Refresh") is None
    small_event.play_and_verify()
    assert client.get(poll, HTTP_HX_REQUEST="true").get("HX-Refresh") is None
    TournamentFactory(name="Small Autumn Open", published=True)
    assert client.get(poll, HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"


def test_touch_refuses_an_unknown_kind():
    with pytest.raises(ValueError, match="unknown kind 'board'"):
        live.touch("board", [1])


def test_standings_are_ranked_once_per_version_however_many_phones_reload(
    client, small_event, settings
):
    """The first visitor after a result ranks the stage; those after read that ranking."""
    settings.LIVE_CACHE_SECONDS = 60
    url = reverse("scoring:standings", args=[small_event.tournament.slug, small_event.stage.id])
    with CaptureQueriesContext(connection) as unranked:
        first = client.get(url)
    with CaptureQueriesContext(connection) as ranked:
        again = client.get(url)
    assert len(ranked) < len(unranked)
    table = re.compile(rb'<table class="standings">.*?</table>', re.S)
    assert table.search(again.content).group() == table.search(first.content).group()
    Tournament.objects.filter(pk=small_event.tournament.pk).update(
        live_version=F("live_version") + 1
    )
    with CaptureQueriesContext(connection) as new_version:
        client.get(url)
    assert len(new_version) == len(unranked)  # a new version is ranked afresh
