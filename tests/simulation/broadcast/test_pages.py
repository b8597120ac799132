"""The broadcast kit's pages, feed and stream: the feed says what the pages say, the win chance
moves with the score, the stream sends the state then a change, refusals are pages in words."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from simulation.broadcast import events
from simulation.broadcast.selectors import live_state
from simulation.models import FeaturedMatch, LiveRound
from tests.simulation.broadcast.support import featured_event, play

pytestmark = pytest.mark.django_db


def feed(client, slug):
    response = client.get(reverse("api:overlay-feed", args=[slug]))
    assert response.status_code == 200
    return response.json()


def test_the_feed_says_what_the_overlay_and_the_match_page_say():
    event, featured = featured_event()
    play(featured, event.users["referee"], (2, 0), (1, 1))
    client = Client()
    data = feed(client, event.tournament.slug)
    assert data["featured"] == featured.pk
    assert data["games"][0]["rounds"][0]["points"] == [2, 0]
    assert data["games"][0]["points"] == [3, 1]
    assert data["hammer"] == "b"  # round 3: A shoots first again
    assert len(data["course"]) == 3
    assert data["note"] == "Live score: the scorecard is official."
    page = client.get(reverse("broadcast:match", args=[event.tournament.slug, featured.pk]))
    overlay = client.get(reverse("broadcast:overlay", args=[event.tournament.slug]))
    for response in (page, overlay):
        text = response.content.decode()
        assert response.status_code == 200
        assert f"{data['win_chance']['a_percent']}%" in text
        assert str(data["names"][0]) in text
        assert data["note"] in text
    assert f"data-ov-points-a>{data['games'][0]['points'][0]}<" in overlay.content.decode()
    assert "X-Frame-Options" not in overlay  # a browser source may frame it
    lower = client.get(
        reverse("broadcast:overlay", args=[event.tournament.slug]), {"layout": "lower-third"}
    )
    assert "layout-lower-third" in lower.content.decode()


def test_the_win_chance_moves_with_the_score():
    event, featured = featured_event()
    referee = event.users["referee"]
    start = live_state(featured, event.tournament)["win_chance"]["a"]
    play(featured, referee, (0, 2))
    behind = live_state(featured, event.tournament)["win_chance"]["a"]
    play(featured, referee, (2, 0), (2, 0))
    ahead = live_state(featured, event.tournament)["win_chance"]["a"]
    play(featured, referee, (2, 0))
    end = live_state(FeaturedMatch.objects.get(pk=featured.pk), event.tournament)
    assert behind < start - 0.1
    assert ahead > start + 0.1
    assert end["over"] and end["win_chance"]["a"] == 1.0 and end["win_chance"]["a_percent"] == 100
    assert end["course"][:2] == [round(start, 3), round(behind, 3)]
    assert len(end["course"]) == 5


def test_the_hall_panel_and_an_empty_overlay_speak_in_words():
    event, _featured = featured_event()
    client = Client()
    panel = client.get(reverse("broadcast:hall_panel", args=[event.tournament.slug]))
    assert panel.status_code == 200 and "Featured match" in panel.content.decode()
    FeaturedMatch.objects.all().delete()
    data = feed(client, event.tournament.slug)
    assert data["featured"] is None and data["empty"] == "No match is featured yet."
    overlay = client.get(reverse("broadcast:overlay", args=[event.tournament.slug]))
    assert "No match is featured yet." in overlay.content.decode()
    assert feed_404(client)


def feed_404(client) -> bool:
    return client.get(reverse("api:overlay-feed", args=["nowhere"])).status_code == 404


def test_the_scorer_page_saves_a_round_and_refuses_a_bad_one_in_words():
    event, featured = featured_event()
    client = event.login(Client(), "referee")
    url = reverse("broadcast:score", args=[event.tournament.slug, featured.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"points": "2-0", "twenties_a": "2", "twenties_b": "0"})
    assert response.status_code == 302
    assert LiveRound.objects.get().twenties_a == 2
    bad = client.post(url, {"points": "2-0", "twenties_a": "12", "twenties_b": "0"})
    assert bad.status_code == 400 and "Not saved" in bad.content.decode()
    worse = client.post(url, {"points": "2-0", "twenties_a": "x"})
    assert worse.status_code == 400 and "whole number" in worse.content.decode()
    client.post(url, {"undo": "1"})
    assert not LiveRound.objects.exists()


def test_the_scorer_page_refuses_a_referee_who_plays_and_sends_visitors_to_log_in():
    event, featured = featured_event()
    url = reverse("broadcast:score", args=[event.tournament.slug, featured.pk])
    assert "/accounts/login/" in Client().get(url)["Location"]
    from tournaments.models import TournamentRole

    TournamentRole.objects.create(
        tournament=event.tournament, user=event.users["opponent"], role="referee"
    )
    client = event.login(Client(), "opponent")
    response = client.post(url, {"points": "2-0"})
    assert response.status_code == 403
    assert "You play in this match" in response.content.decode()
    assert not LiveRound.objects.exists()


def test_the_queue_page_is_the_organizers():
    event, _featured = featured_event()
    url = reverse("broadcast:queue", args=[event.tournament.slug])
    assert event.login(Client(), "referee").get(url).status_code == 403
    client = event.login(Client(), "organizer")
    page = client.get(url)
    assert page.status_code == 200
    other = page.context["candidates"][0]
    assert client.post(url, {"match": other.pk}).status_code == 302
    added = FeaturedMatch.objects.get(match=other)
    assert client.post(url, {"featured": added.pk, "move": "on_air"}).status_code == 302
    added.refresh_from_db()
    assert added.state == "live"
    bad = client.post(url, {"match": "abc"})
    assert bad.status_code == 400 and "no match abc" in bad.content.decode()


# --- the stream ---------------------------------------------------------------------------


@pytest.fixture
def shared_watcher() -> Iterator[threading.Lock]:
    """The watcher reads through the test's connection, under a lock the test's writes take
    (as ``tests/tournaments/test_clock_events.py`` does for the clock's)."""
    lock = threading.Lock()
    shared = connections["default"]
    shared.inc_thread_sharing()

    @contextmanager
    def around_fetch() -> Iterator[None]:
        with lock:
            connections["default"] = shared
            yield

    events.WATCHER.around_fetch = around_fetch
    try:
        yield lock
    finally:
        assert events.WATCHER.join(timeout=5), "the watcher outlived its last stream"
        events.WATCHER.around_fetch = nullcontext
        shared.dec_thread_sharing()


def events_of(chunks: Iterator[bytes], count: int, within: float) -> list[dict]:
    found: list[dict] = []
    deadline = time.monotonic() + within
    while len(found) < count:
        assert time.monotonic() < deadline, f"only {found} within {within} s"
        text = next(chunks).decode()
        found += [
            json.loads(line.removeprefix("data: "))
            for line in text.splitlines()
            if line.startswith("data: ")
        ]
    return found


@pytest.mark.django_db(transaction=True)
def test_the_stream_sends_the_state_then_a_round_as_it_is_entered(shared_watcher):
    event, featured = featured_event()
    response = Client().get(reverse("broadcast:events", args=[event.tournament.slug]))
    try:
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/event-stream")
        chunks = iter(response.streaming_content)
        assert next(chunks).decode().startswith("retry: ")
        [first] = events_of(chunks, 1, within=2)
        assert first["featured"] == featured.pk and first["games"][0]["rounds"] == []
        with shared_watcher:
            play(featured, event.users["referee"], (0, 2))
        entered = time.monotonic()
        [changed] = events_of(chunks, 1, within=2)
        assert time.monotonic() - entered < 1.5
        assert changed["version"] > first["version"]
        assert changed["games"][0]["rounds"][0]["points"] == [0, 2]
        assert changed["win_chance"]["a"] < first["win_chance"]["a"]
        assert changed == feed(Client(), event.tournament.slug)
    finally:
        response.close()
    assert events.WATCHER.open_streams == 0


def test_a_process_with_its_fill_of_streams_sends_the_overlay_to_its_polls(settings):
    event, _featured = featured_event()
    settings.BROADCAST_STREAMS_PER_PROCESS = 0
    response = Client().get(reverse("broadcast:events", args=[event.tournament.slug]))
    assert response.status_code == 503 and response["Retry-After"] == "60"
    assert Client().get(reverse("broadcast:events", args=["nowhere"])).status_code == 404
