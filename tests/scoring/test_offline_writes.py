"""A phone's outbox sends an entry again when it never saw the answer: with its idempotency key
the row is written once, a replay answers with the row as it is now, and an entry based on an
old version is refused as stale, never written over a newer row (the card page's form field and
the API's ``Idempotency-Key`` header alike). The opponent's "Agree" kept offline is such an entry
too: signed once, refused when the row changed since it was read, its key never one of a fill."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import CardRow, RowSubmission
from scoring.scorecards import offline
from scoring.scorecards.services import card_for, fill_row
from tests.scoring.test_card_pages import HX, WIN, World, form_data, mirror
from tournaments.services.links import link_of

pytestmark = pytest.mark.django_db

ALREADY = "Already saved: this entry reached the server before"
ALREADY_SIGNED = "Already validated: this signature reached the server before"


@pytest.fixture
def w() -> World:
    return World()


def keyed(w: World, rounds, *, version: int, key: str) -> dict:
    return {**form_data(w.prefix(), rounds, version=version), offline.FORM_FIELD: key}


def versions(row: CardRow) -> int:
    return CardRow.history.filter(id=row.pk).count()


def test_an_entry_sent_twice_is_written_once_and_the_replay_says_already_saved(client, w):
    client.force_login(w.users["ann"])
    key = str(uuid.uuid4())
    first = client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=key), headers=HX)
    assert first.status_code == 200 and "Row saved." in first.content.decode()
    row = w.row()
    assert row.version == 1 and versions(row) == 1
    recorded = RowSubmission.objects.get(key=key)
    assert (recorded.row, recorded.based_on, recorded.wrote) == (row, 0, 1)

    again = client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=key), headers=HX)
    body = again.content.decode()
    assert again.status_code == 200 and ALREADY in body
    assert "Changed by someone else" not in body  # not taken for a stale save
    row.refresh_from_db()
    assert row.version == 1 and versions(row) == 1
    assert RowSubmission.objects.count() == 1


def test_a_replay_after_a_newer_save_shows_the_row_as_it_is_now_and_writes_nothing(client, w):
    """The phone's entry was applied, then a referee changed the row: the late replay of the
    entry neither writes it again over the referee's nor calls itself stale."""
    client.force_login(w.users["ann"])
    key = str(uuid.uuid4())
    client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=key), headers=HX)
    fill_row(card=w.row().card, game=w.game, rounds=mirror(WIN), user=w.users["ref"], version=1)

    again = client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=key))
    assert again.status_code == 302  # without htmx: back to the card, with the notice
    page = client.get(again.headers["Location"]).content.decode()
    assert ALREADY in page
    row = w.row()
    assert row.version == 2 and row.rounds[0]["points"] == [0, 2] and versions(row) == 2


def test_a_new_entry_on_an_old_version_is_refused_as_stale_and_records_no_key(client, w):
    """Two phones offline: the second's entry, made on version 0, reaches the server after the
    first's. It is refused with both versions side by side, and its key stays unused."""
    client.force_login(w.users["ann"])
    client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=str(uuid.uuid4())), headers=HX)
    late = str(uuid.uuid4())
    refused = client.post(w.url("fill_row"), keyed(w, mirror(WIN), version=0, key=late), headers=HX)
    body = refused.content.decode()
    assert "Changed by someone else — reload" in body and "Saved now (version" in body
    row = w.row()
    assert row.version == 1 and row.rounds[0]["points"] == [2, 0] and versions(row) == 1
    assert not RowSubmission.objects.filter(key=late).exists()


def test_a_key_used_for_another_row_is_refused_in_words(client, w):
    client.force_login(w.users["ann"])
    key = str(uuid.uuid4())
    client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=key), headers=HX)
    bob = client.post(
        w.url("fill_row", entry=w.b), keyed(w, mirror(WIN), version=0, key=key), headers=HX
    )
    assert bob.status_code == 403  # Ann may not fill Bob's card: refused before the key
    client.force_login(w.users["bob"])
    reused = client.post(
        w.url("fill_row", entry=w.b), keyed(w, mirror(WIN), version=0, key=key), headers=HX
    )
    assert "already used for another row; nothing was saved" in reused.content.decode()
    assert not CardRow.objects.filter(card__entry=w.b).exists()


@pytest.mark.parametrize("key", ["short", "x" * 65, "spaces are not allowed"])
def test_a_key_that_cannot_be_one_is_refused_and_nothing_is_saved(client, w, key):
    client.force_login(w.users["ann"])
    answer = client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=key), headers=HX)
    assert "must be 8 to 64 letters, digits, dashes or underscores" in answer.content.decode()
    assert not CardRow.objects.exists()


def test_an_entry_without_a_key_is_saved_as_before(client, w):
    client.force_login(w.users["ann"])
    client.post(w.url("fill_row"), form_data(w.prefix(), WIN, version=0), headers=HX)
    assert w.row().version == 1 and not RowSubmission.objects.exists()


def test_once_writes_nothing_for_a_key_already_recorded(w):
    """The look-up under the game's lock: a send that finds its key recorded (by another send
    that got there first) does not run its write at all."""
    card = card_for(w.stage, w.a)
    row = fill_row(card=card, game=w.game, rounds=WIN, user=w.users["ann"])
    RowSubmission.objects.create(key="first-send-key", row=row, based_on=0, wrote=1)

    def write() -> CardRow:
        raise AssertionError("a replayed entry must not be written")

    with pytest.raises(offline.AlreadyApplied) as replay:
        offline.once("first-send-key", write, card=card, game=w.game, based_on=0)
    assert replay.value.applied.row == row


def test_the_api_honours_the_idempotency_key_header(w):
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=w.users["ann"])
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    card = card_for(w.stage, w.a)
    body = {"game": w.game.id, "rounds": WIN, "version": 0}
    key = str(uuid.uuid4())
    first = client.post(
        f"/api/scorecards/{card.id}/fill/", body, format="json", headers={"Idempotency-Key": key}
    )
    assert first.status_code == 201 and first.json()["version"] == 1
    again = client.post(
        f"/api/scorecards/{card.id}/fill/", body, format="json", headers={"Idempotency-Key": key}
    )
    assert again.status_code == 200 and again.json()["version"] == 1
    row = w.row()
    assert versions(row) == 1 and RowSubmission.objects.get().key == key
    # A different entry on the same old version is a conflict, as without a key.
    other = client.post(
        f"/api/scorecards/{card.id}/fill/",
        body,
        format="json",
        headers={"Idempotency-Key": str(uuid.uuid4())},
    )
    assert other.status_code == 409 and w.row().version == 1
    bad = client.post(
        f"/api/scorecards/{card.id}/fill/", body, format="json", headers={"Idempotency-Key": "no"}
    )
    assert bad.status_code == 400 and "8 to 64" in str(bad.json())


def filled(w: World) -> CardRow:
    """Ann's row of the game, filled on her phone and waiting for Bob's signature."""
    return fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ann"])


def agree(w: World, *, version: int, key: str) -> dict:
    """What Bob's "Agree" posts (his login implies his ID and initials), with its key."""
    return {f"v{w.game.id}-version": version, offline.FORM_FIELD: key}


def test_a_validation_sent_twice_signs_once_and_the_replay_says_already_validated(client, w):
    row = filled(w)
    before = versions(row)
    client.force_login(w.users["bob"])
    key = str(uuid.uuid4())
    first = client.post(w.url("validate_row"), agree(w, version=1, key=key), headers=HX)
    assert first.status_code == 200 and "Row validated by the opponent." in first.content.decode()
    row.refresh_from_db()
    assert row.status == CardRow.Status.VALIDATED and versions(row) == before + 1
    recorded = RowSubmission.objects.get(key=key)
    assert (recorded.row, recorded.kind, recorded.based_on, recorded.wrote) == (
        row,
        RowSubmission.Write.VALIDATE,
        1,
        row.version,
    )

    again = client.post(w.url("validate_row"), agree(w, version=1, key=key), headers=HX)
    body = again.content.decode()
    assert again.status_code == 200 and ALREADY_SIGNED in body
    assert "Changed by someone else" not in body and "row-errors" not in body
    row.refresh_from_db()
    assert row.status == CardRow.Status.VALIDATED and versions(row) == before + 1
    assert RowSubmission.objects.count() == 1

    # From the private-link page's "Agree" (no htmx): back to the page, with the same words.
    back = client.post(
        w.url("validate_row"), {**agree(w, version=1, key=key), "next": w.url("index")}
    )
    assert back.status_code == 302 and back.headers["Location"] == w.url("index")
    assert ALREADY_SIGNED in client.get(back.headers["Location"]).content.decode()
    assert versions(row) == before + 1


def test_a_validation_of_a_row_changed_since_it_was_read_is_refused_and_records_no_key(client, w):
    """Bob read version 1 and tapped Agree offline; meanwhile a referee changed the row. His
    signature reaches the server and is refused as stale: he never signs what he did not read."""
    row = filled(w)
    fill_row(card=row.card, game=w.game, rounds=mirror(WIN), user=w.users["ref"], version=1)
    row.refresh_from_db()
    assert row.version == 2
    client.force_login(w.users["bob"])
    late = str(uuid.uuid4())
    refused = client.post(w.url("validate_row"), agree(w, version=1, key=late), headers=HX)
    body = refused.content.decode()
    assert "row-errors" in body and "Changed by someone else — reload before you sign" in body
    row.refresh_from_db()
    assert row.status == CardRow.Status.FILLED and row.version == 2 and versions(row) == 2
    assert not RowSubmission.objects.filter(key=late).exists()


def test_a_key_used_to_fill_the_row_is_refused_for_its_validation_in_words(client, w):
    client.force_login(w.users["ann"])
    key = str(uuid.uuid4())
    client.post(w.url("fill_row"), keyed(w, WIN, version=0, key=key), headers=HX)
    row = w.row()
    client.force_login(w.users["bob"])
    reused = client.post(w.url("validate_row"), agree(w, version=1, key=key), headers=HX)
    body = reused.content.decode()
    assert "already used for another entry on this row (one that filled the row)" in body
    row.refresh_from_db()
    assert row.status == CardRow.Status.FILLED and versions(row) == 1
    assert RowSubmission.objects.get().kind == RowSubmission.Write.FILL


def test_a_key_used_to_validate_the_row_is_refused_for_a_fill_in_words(client, w):
    filled(w)
    client.force_login(w.users["bob"])
    key = str(uuid.uuid4())
    client.post(w.url("validate_row"), agree(w, version=1, key=key), headers=HX)
    client.force_login(w.users["ann"])
    reused = client.post(w.url("fill_row"), keyed(w, mirror(WIN), version=2, key=key), headers=HX)
    assert "(one that validated the row); nothing was saved" in reused.content.decode()
    assert w.row().rounds[0]["points"] == [2, 0]


def test_the_api_signs_once_with_the_idempotency_key_header(w):
    row = filled(w)
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=w.users["bob"])
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/card-rows/{row.id}/validate/"
    key = str(uuid.uuid4())
    first = client.post(url, {"version": 1}, format="json", headers={"Idempotency-Key": key})
    assert first.status_code == 200 and first.json()["status"] == "validated"
    signed = first.json()["version"]
    again = client.post(url, {"version": 1}, format="json", headers={"Idempotency-Key": key})
    assert again.status_code == 200 and again.json()["version"] == signed
    assert versions(row) == 2 and RowSubmission.objects.get().kind == RowSubmission.Write.VALIDATE
    # The key of that signature cannot fill the row.
    card = card_for(w.stage, w.b)
    reused = client.post(
        f"/api/scorecards/{card.id}/fill/",
        {"game": w.game.id, "rounds": mirror(WIN), "version": 0},
        format="json",
        headers={"Idempotency-Key": key},
    )
    assert reused.status_code == 409 and "already used for another row" in str(reused.json())


def test_the_app_can_be_installed_and_its_worker_controls_every_page(client):
    """The manifest names the app and gives icons the site has; the service worker is served
    from the root (scope "/"), never kept stale by a cache, and imports the outbox."""
    manifest = client.get(reverse("manifest"))
    assert manifest.status_code == 200
    assert manifest.headers["Content-Type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["name"] == "Crokinole Tournament Manager" and data["display"] == "standalone"
    assert data["start_url"] == reverse("landing") + "?app=1"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix(settings.STATIC_URL).lstrip("/")), icon

    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in worker.headers["Cache-Control"]
    body = worker.content.decode()
    assert 'importScripts("/static/js/outbox.js")' in body
    assert re.search(r'var VERSION = "[0-9a-f]{12}";', body)
    assert 'var START = "/me/?app=1";' in body


def test_every_page_links_the_manifest_and_registers_the_worker(client, w):
    page = client.get(reverse("home")).content.decode()
    assert f'<link rel="manifest" href="{reverse("manifest")}">' in page
    assert 'data-sw="/sw.js"' in page
    client.force_login(w.users["ann"])
    card = client.get(w.url("card")).content.decode()
    assert "js/outbox.js" in card
    # The row's form carries what the outbox needs: its marker, its game, the key's field.
    assert re.search(rf'data-outbox data-outbox-game="{w.game.id}"', card)
    assert 'name="idempotency_key"' in card and "data-outbox-notice" in card


def test_the_opponents_agree_carries_what_the_outbox_needs(client, w):
    """On the card and on the private link's rows to sign, the opponent's "Agree" is an outbox form:
    its marker, its key's field, a notice in its row; the pages load the outbox."""
    filled(w)
    client.force_login(w.users["bob"])
    card = client.get(w.url("card")).content.decode()
    form = re.search(r'<form[^>]*class="validate-form"[^>]*>', card)
    assert form and "data-outbox " in form.group(0)
    assert "data-outbox-notice" in card and 'name="idempotency_key"' in card
    me = reverse("scoring:private_link", args=[w.tournament.slug, link_of(w.b).token])
    listed = client.get(me).content.decode()
    assert "js/outbox.js" in listed
    form = re.search(r'<form[^>]*class="agree-form"[^>]*>', listed)
    assert form and 'data-outbox-answer="words"' in form.group(0)
    assert "data-outbox-row" in listed and 'name="idempotency_key"' in listed
