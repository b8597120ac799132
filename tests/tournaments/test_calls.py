"""Calls to players: recorded by each step that makes one, shown on the hall screen, the player
page and the private link's page, and pushed to the phones that follow them as Web Push.

The push service is the one part that is not ours: a small HTTP server in the test plays it. It
receives what the site sends, the test decrypts the payload with the phone's private key
(RFC 8291, ``http_ece``) and reads the call's words; answered 410, the site forgets the phone.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.urls import reverse

from scoring.models import CardRow
from scoring.rulings.actions import forfeit_game
from scoring.scorecards.services import card_for
from tests.events import OPPONENT, OTHER_PLAYER, PLAYER, WIN
from tournaments.call_actions import follow_calls
from tournaments.models import Call, Match, PushSubscription
from tournaments.services.calls import record_call
from tournaments.services.links import link_of
from tournaments.tasks import push_call

pytestmark = pytest.mark.django_db


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_raw(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


@pytest.fixture
def vapid(settings):
    """The site's VAPID key pair, as the environment would give it."""
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_PUBLIC_KEY = b64url(public_raw(key))
    settings.VAPID_SUBJECT = "mailto:tests@example.org"
    return key


class Phone:
    """What a phone's browser holds for one subscription: its key pair and auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    @property
    def keys(self) -> dict[str, str]:
        return {"p256dh": b64url(public_raw(self.key)), "auth": b64url(self.auth)}

    def read(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


class PushService:
    """A push service on localhost: records each POST, answers the statuses it is given."""

    def __init__(self, answers: list[int]) -> None:
        self.answers = list(answers)
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append((self.path, headers, body))
                self.send_response(service.answers.pop(0) if service.answers else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/push/{name}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service():
    services: list[PushService] = []

    def start(answers: list[int]) -> PushService:
        services.append(PushService(answers))
        return services[-1]

    yield start
    for service in services:
        service.close()


def calls_of(entry, kind=None) -> list[Call]:
    found = Call.objects.filter(entry=entry)
    if kind:
        found = found.filter(kind=kind)
    return list(found)


# Each trigger -------------------------------------------------------------------------------


def test_a_filled_row_calls_its_opponent_to_validate(
    small_event, client, django_capture_on_commit_callbacks
):
    event = small_event
    link = link_of(event.player)
    client.get(reverse("scoring:private_link", args=[event.tournament.slug, link.token]))
    g = event.game.id
    data = {f"g{g}-version": 0}
    for n, r in enumerate(WIN, start=1):
        data[f"g{g}-r{n}_points_own"], data[f"g{g}-r{n}_points_opp"] = r["points"]
        data[f"g{g}-r{n}_twenties_own"], data[f"g{g}-r{n}_twenties_opp"] = r["twenties"]
    url = reverse(
        "scoring:cards:fill_row", args=[event.tournament.slug, event.stage.id, event.player.id, g]
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, data)
    assert response.status_code in (200, 302), response.content[:300]
    assert CardRow.objects.get(card=card_for(event.stage, event.player), game=event.game)
    (call,) = calls_of(event.opponent, Call.Kind.TO_VALIDATE)
    assert call.text == (
        f"{event.opponent.name}: {event.player.name}'s card of game 1 waits for your validation."
    )
    assert call.url.startswith(
        reverse("scoring:cards:card", args=[event.tournament.slug, event.stage.id, event.player.id])
    )
    assert calls_of(event.player) == []  # the one who filled it is not called


def test_a_ruling_calls_both_sides(small_event, django_capture_on_commit_callbacks):
    event = small_event
    with django_capture_on_commit_callbacks(execute=True):
        forfeit_game(event.users["head-referee"], event.game, side="b", reason="late to the board")
    for entry, other in ((event.player, event.opponent), (event.opponent, event.player)):
        (call,) = calls_of(entry, Call.Kind.RULING)
        assert call.game_id == event.game.id
        assert call.text == (
            f"{entry.name}: the head referee ruled on your game 1 against {other.name}."
        )


def test_calling_a_round_tells_every_player_their_board(
    small_event, client, django_capture_on_commit_callbacks
):
    event = small_event
    client.force_login(event.users["referee"])
    url = reverse("tournaments:call_round", args=[event.tournament.slug, event.stage.id, 1])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, follow=True)
    assert "Called: " in response.content.decode()
    for match in Match.objects.filter(stage=event.stage, round_of_play=1, entry_b__isnull=False):
        for entry in match.entries:
            (call,) = calls_of(entry, Call.Kind.BOARD)
            assert call.board_number == match.board.number
            assert f"is on board {match.board.number}." in call.text


def test_a_player_may_not_call_a_round_and_is_told_who_may(small_event, client):
    client.force_login(small_event.users[PLAYER])
    url = reverse(
        "tournaments:call_round", args=[small_event.tournament.slug, small_event.stage.id, 1]
    )
    response = client.post(url)
    assert response.status_code == 403
    assert "Only the officials who run the hall" in response.content.decode()
    assert not Call.objects.exists()


# Shown where phones without notifications read them ------------------------------------------


def test_the_hall_screen_and_the_player_page_show_the_calls(small_event, client):
    event = small_event
    record_call(entry=event.player, kind=Call.Kind.BOARD, board_number=7, other="Somebody")
    screen = client.get(
        reverse("tournaments:screen", args=[event.tournament.slug]), {"show": "calls,now"}
    ).content.decode()
    assert 'data-panel="calls"' in screen
    words = f"{event.player.name}: your match against Somebody is on board 7."
    assert words in screen
    page = client.get(
        reverse("tournaments:player", args=[event.tournament.slug, event.player.player.number])
    ).content.decode()
    assert words in page
    # Only the player's own calls on their page.
    record_call(entry=event.other_player, kind=Call.Kind.BOARD, board_number=2)
    assert (
        "is on board 2."
        not in client.get(
            reverse("tournaments:player", args=[event.tournament.slug, event.player.player.number])
        ).content.decode()
    )


def test_without_keys_the_private_link_page_says_notifications_are_off(small_event, client):
    token = link_of(small_event.player).token
    text = client.get(
        reverse("scoring:private_link", args=[small_event.tournament.slug, token])
    ).content.decode()
    assert "Notifications to phones are off on this server" in text
    assert "data-push-follow" not in text


# Following the calls: the entry's own identity alone -----------------------------------------


def _follow(client, event, entry, endpoint: str, phone: Phone):
    url = reverse("tournaments:follow_calls", args=[event.tournament.slug, entry.id])
    body = {"endpoint": endpoint, "keys": phone.keys}
    return client.post(url, body, content_type="application/json")


def test_the_entry_s_own_link_follows_its_calls(small_event, client, vapid):
    event = small_event
    token = link_of(event.player).token
    text = client.get(reverse("scoring:private_link", args=[event.tournament.slug, token]))
    assert b"Notify me on this phone" in text.content
    phone = Phone()
    response = _follow(client, event, event.player, "https://push.example.org/send/1", phone)
    assert response.status_code == 200, response.content
    assert event.player.name in response.json()["detail"]
    stored = PushSubscription.objects.get(entry=event.player)
    assert (stored.endpoint, stored.p256dh, stored.auth) == (
        "https://push.example.org/send/1",
        phone.keys["p256dh"],
        phone.keys["auth"],
    )
    stop = reverse("tournaments:stop_calls", args=[event.tournament.slug, event.player.id])
    body = {"endpoint": "https://push.example.org/send/1"}
    assert client.post(stop, body, content_type="application/json").status_code == 200
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("who", [OPPONENT, OTHER_PLAYER, "referee", "organizer", "opponent-link"])
def test_nobody_else_follows_an_entry_s_calls(small_event, client, vapid, who):
    event = small_event
    if who == "opponent-link":
        token = link_of(event.opponent).token
        client.get(reverse("scoring:private_link", args=[event.tournament.slug, token]))
    else:
        client.force_login(event.users[who])
    response = _follow(client, event, event.player, "https://push.example.org/send/2", Phone())
    assert response.status_code == 403
    assert response.json()["detail"] == str(follow_calls.who)
    assert "Only the entry's own players receive its calls" in response.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_a_subscription_without_its_keys_is_refused_in_words(small_event, client, vapid):
    token = link_of(small_event.player).token
    client.get(reverse("scoring:private_link", args=[small_event.tournament.slug, token]))
    url = reverse(
        "tournaments:follow_calls", args=[small_event.tournament.slug, small_event.player.id]
    )
    response = client.post(
        url, {"endpoint": "https://push.example.org/x"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "subscription is incomplete" in response.json()["detail"]


# Delivered to the phone ----------------------------------------------------------------------


def test_a_call_reaches_the_phone_encrypted_and_a_gone_phone_is_forgotten(
    small_event, vapid, push_service
):
    event = small_event
    service = push_service([201, 410])
    phone = Phone()
    PushSubscription.objects.create(
        entry=event.player, endpoint=service.endpoint("phone-1"), language="en", **phone.keys
    )
    call = record_call(entry=event.player, kind=Call.Kind.BOARD, board_number=7, other="Bob")

    assert push_call.apply(args=[call.pk]).get() == {"delivered": 1, "gone": 0, "failed": 0}
    path, headers, body = service.received[0]
    assert path == "/push/phone-1"
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["authorization"].startswith("vapid t=")
    assert f"k={settings_public_key(vapid)}" in headers["authorization"]
    shown = phone.read(body)
    assert shown["body"] == f"{event.player.name}: your match against Bob is on board 7."
    assert shown["title"] == event.tournament.name
    # Not readable by anyone without the phone's key.
    assert b"board 7" not in body

    # The push service says the phone is gone: the site forgets it.
    assert push_call.apply(args=[call.pk]).get() == {"delivered": 0, "gone": 1, "failed": 0}
    assert not PushSubscription.objects.exists()


def settings_public_key(key: ec.EllipticCurvePrivateKey) -> str:
    return b64url(public_raw(key))


@pytest.fixture
def eager_tasks():
    """Tasks run where they are sent, whatever broker the run has (CI has Redis, no worker)."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


def test_recording_a_call_queues_its_push_after_the_commit(
    small_event, vapid, push_service, django_capture_on_commit_callbacks, eager_tasks
):
    """Through the step's path: the ruling's call is written after its commit, and the push
    task is sent once that call's own transaction commits (run here, eagerly, as the tests run
    tasks without a worker)."""
    service = push_service([201])
    phone = Phone()
    PushSubscription.objects.create(
        entry=small_event.opponent, endpoint=service.endpoint("op"), **phone.keys
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        forfeit_game(small_event.users["head-referee"], small_event.game, side="a", reason="x")
    assert service.received == [] and not Call.objects.exists()  # nothing before the commit
    with django_capture_on_commit_callbacks(execute=True):
        for callback in callbacks:
            callback()
    assert Call.objects.filter(kind=Call.Kind.RULING).count() == 2
    (received,) = service.received  # the opponent's phone; the player has none
    words = phone.read(received[2])["body"]
    assert words == (
        f"{small_event.opponent.name}: the head referee ruled on your game 1 against "
        f"{small_event.player.name}."
    )
