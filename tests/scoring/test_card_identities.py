"""Nobody acts for someone else through what passes through other hands.

The audit's attacks, each performed and refused: the owner validating her own row with the
opponent's private link (from his card, or photographed), a claim made with a leaked link that
outlived its renewal, and the codes of a card (printed, or shown on the owner's phone) that must
lead the opponent's own phone to the row without making anyone's phone act for the owner. And
what the officials read: which identity signed, and on which phone.
"""

from __future__ import annotations

import re
import time

import pytest
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from rest_framework.authtoken.models import Token

from scoring.models import CardRow
from scoring.scorecards import codes
from scoring.scorecards.services import card_for, fill_row, validate_row
from tests.events import OPPONENT, PLAYER, WIN
from tournaments.private_links import SESSION_KEY
from tournaments.services.links import claim_entry, link_of, renew_link

pytestmark = pytest.mark.django_db
Status = CardRow.Status


def _link(event, entry) -> str:
    return reverse("scoring:private_link", args=[event.tournament.slug, link_of(entry).token])


def _card(event, entry, name: str = "card", game=None) -> str:
    args = [event.tournament.slug, event.stage.id, entry.id]
    if game is not None:
        args.append(game.id)
    return reverse(f"scoring:cards:{name}", args=args)


def _filled(event) -> CardRow:
    card = card_for(event.stage, event.player)
    return fill_row(card=card, game=event.game, rounds=WIN, user=event.users[PLAYER])


def _sign(event, client, row: CardRow):
    return client.post(
        _card(event, event.player, "validate_row", event.game),
        {
            f"v{event.game.id}-opponent_number": str(event.opponent.player.number),
            f"v{event.game.id}-initials": "KN",
            f"v{event.game.id}-version": row.version,
        },
    )


def test_the_owner_holding_the_opponents_link_cannot_sign_her_own_row(small_event, client):
    """M2: Greta, signed in, opens Kai's link (the scan of his card) and signs her row as Kai."""
    event = small_event
    row = _filled(event)
    client.force_login(event.users[PLAYER])
    assert client.get(_link(event, event.opponent)).status_code == 200
    response = _sign(event, client, row)
    assert response.status_code == 403
    assert "acts for" in response.content.decode() and "whose card it is" in (
        response.content.decode()
    )
    row.refresh_from_db()
    assert row.status == Status.FILLED and row.validated_number == ""


def test_a_browser_holding_both_links_cannot_sign_either_row(small_event, client):
    """No login at all: one phone holding the owner's and the opponent's links signs nothing."""
    event = small_event
    row = _filled(event)
    for entry in (event.player, event.opponent):
        assert client.get(_link(event, entry)).status_code == 200
    assert _sign(event, client, row).status_code == 403
    row.refresh_from_db()
    assert row.status == Status.FILLED


def test_the_api_refuses_the_owner_acting_with_the_opponents_link_too(small_event, client):
    """The same attack through the API with the browser's session: refused with the words."""
    event = small_event
    row = _filled(event)
    client.force_login(event.users[PLAYER])
    client.get(_link(event, event.opponent))
    response = client.post(
        f"/api/card-rows/{row.pk}/validate/",
        {
            "opponent_number": str(event.opponent.player.number),
            "initials": "KN",
            "version": row.version,
        },
        content_type="application/json",
    )
    assert response.status_code == 403, response.content
    assert "whose card it is" in response.json()["detail"]
    row.refresh_from_db()
    assert row.status == Status.FILLED


def test_a_claim_made_with_a_leaked_link_ends_when_the_link_is_renewed(
    small_event, client, django_user_model
):
    """M2's claim variant: a stranger opens Kai's link, claims the entry to his login; the
    organizer renews the link: the stranger's login no longer acts for Kai anywhere."""
    event = small_event
    opponent_player = event.opponent.player
    opponent_player.user = None
    opponent_player.save()
    stranger = django_user_model.objects.create_user("otherorg")
    client.force_login(stranger)
    token = link_of(event.opponent).token
    client.post(reverse("scoring:claim_entry", args=[event.tournament.slug, token]))
    opponent_player.refresh_from_db()
    assert opponent_player.user == stranger and opponent_player.claimed_with == token

    renew_link(event.opponent)
    opponent_player.refresh_from_db()
    assert opponent_player.user is None and opponent_player.claimed_with == ""
    row = _filled(event)
    api = Token.objects.create(user=stranger)
    response = client.post(
        f"/api/card-rows/{row.pk}/validate/",
        {
            "opponent_number": str(opponent_player.number),
            "initials": "KN",
            "version": row.version,
        },
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {api.key}",
    )
    assert response.status_code in (403, 404), response.content
    row.refresh_from_db()
    assert row.status == Status.FILLED
    # The history says why the account was unlinked.
    assert "renewed" in opponent_player.history.first().history_change_reason


def test_a_claim_needs_the_current_link(small_event, django_user_model):
    event = small_event
    event.opponent.player.user = None
    event.opponent.player.save()
    old = link_of(event.opponent).token
    renew_link(event.opponent)
    someone = django_user_model.objects.create_user("someone")
    with pytest.raises(ValidationError, match="no longer current"):
        claim_entry(entry=event.opponent, user=someone, token=old)
    event.opponent.player.refresh_from_db()
    assert event.opponent.player.user is None


def test_an_account_linked_another_way_stays_linked_after_renewal(small_event):
    event = small_event
    renew_link(event.opponent)
    event.opponent.player.refresh_from_db()
    assert event.opponent.player.user == event.users[OPPONENT]


def test_the_printed_code_opens_the_card_to_read_and_acts_for_nobody(small_event, client):
    event = small_event
    _filled(event)
    path = codes.card_scan_path(event.tournament.slug, event.stage.id, event.player.id)
    response = client.get(path)
    assert response.status_code == 200
    page = response.content.decode()
    assert event.player.name in page and "To validate a row" in page
    assert 'class="validate-form"' not in page and 'class="row-form"' not in page
    assert not client.session.get(SESSION_KEY)
    # The card's own page and its row history stay closed to this phone.
    assert client.get(_card(event, event.player)).status_code == 302
    assert client.get(_card(event, event.player, "row_history", event.game)).status_code == 302


def test_a_forged_card_code_is_refused(small_event, client):
    event = small_event
    good = codes.card_code(event.stage.id, event.player.id)
    forged = f"{event.stage.id}.{event.opponent.id}:" + good.split(":", 1)[1]
    path = reverse("scoring:card_scan", args=[event.tournament.slug, forged])
    response = client.get(path)
    assert response.status_code == 404
    assert "not one this site printed" in response.content.decode()


def test_the_opponent_scanning_the_printed_code_is_taken_to_the_card(small_event, client):
    event = small_event
    client.get(_link(event, event.opponent))
    path = codes.card_scan_path(event.tournament.slug, event.stage.id, event.player.id)
    response = client.get(path)
    assert response.status_code == 302 and response.url == _card(event, event.player)


def test_the_signing_code_leads_only_the_opponents_own_phone_to_the_row(
    small_event, client, django_user_model
):
    event = small_event
    row = _filled(event)
    owner_phone = client
    owner_phone.get(_link(event, event.player))
    page = owner_phone.get(_card(event, event.player)).content.decode()
    assert "Show the code for your opponent to scan" in page
    # The code the page shows (timed: made as the page was drawn) names this row.
    shown = re.search(rf"/t/{event.tournament.slug}/sign/([^/\"'<\s]+)/", page)
    assert shown is not None and codes.read_signing_code(shown.group(1)) == row.pk
    path = shown.group(0)
    # The owner's own phone: refused, with why.
    refused = owner_phone.get(path)
    assert refused.status_code == 403 and "whose card it is" in refused.content.decode()
    # A phone that is nobody here: told how to prove who it is, acts for nobody.
    owner_phone.logout()
    nobody = owner_phone
    told = nobody.get(path)
    assert told.status_code == 403 and "this phone must first show who you are" in (
        told.content.decode()
    )
    assert not nobody.session.get(SESSION_KEY)
    # The opponent's own phone, on their own link: straight to the row.
    nobody.get(_link(event, event.opponent))
    led = nobody.get(path)
    assert led.status_code == 302 and led.url == _card(event, event.player) + (
        f"#game-{event.game.id}"
    )


def test_an_old_or_forged_signing_code_is_refused(small_event, client, monkeypatch):
    event = small_event
    row = _filled(event)
    old = codes.signing_code(row.pk)
    later = time.time() + codes.SIGNING_CODE_SECONDS + 5
    monkeypatch.setattr(signing.time, "time", lambda: later)
    expired = client.get(reverse("scoring:sign_scan", args=[event.tournament.slug, old]))
    assert expired.status_code == 410 and "expired" in expired.content.decode()
    monkeypatch.undo()
    forged = old.replace(str(row.pk), str(row.pk + 1), 1)
    response = client.get(reverse("scoring:sign_scan", args=[event.tournament.slug, forged]))
    assert response.status_code == 404


def test_the_table_reads_which_identity_signed_and_on_which_phone(small_event, client):
    event = small_event
    row = _filled(event)
    client.get(_link(event, event.opponent))
    assert _sign(event, client, row).status_code == 302
    row.refresh_from_db()
    assert row.status == Status.VALIDATED
    assert row.validated_entry == event.opponent and row.validated_by is None
    device = client.session["device"]
    assert row.validated_device == device
    history = row.history.first().history_change_reason
    assert "with their private link" in history and device in history

    table = event.login(client, "scoring-table")
    page = table.get(reverse("scoring:cards:table", args=[event.tournament.slug]))
    words = page.content.decode()
    assert f"{event.opponent.name} (ID {event.opponent.player.number}) with their private link" in (
        words
    )
    assert f"phone {device}" in words


def test_a_login_signature_names_the_login(small_event):
    event = small_event
    row = _filled(event)
    user = event.users[OPPONENT]
    user.device_label = "ABC123"
    signed = validate_row(
        row=row,
        opponent_number=str(event.opponent.player.number),
        initials="KN",
        user=user,
        version=row.version,
    )
    assert signed.validated_by == user and signed.validated_device == "ABC123"
    assert (
        f"signed in as {user.username}, phone ABC123"
        in signed.history.first().history_change_reason
    )


def test_a_signature_is_made_with_ones_own_id(small_event):
    """In a doubles or three-player game several IDs are at the board; the signer types their
    own. Here the opponent types the owner's ID: refused before anything is written."""
    event = small_event
    row = _filled(event)
    with pytest.raises((ValidationError, PermissionDenied)):
        validate_row(
            row=row,
            opponent_number=str(event.player.player.number),
            initials="KN",
            user=event.users[OPPONENT],
            version=row.version,
        )
    row.refresh_from_db()
    assert row.status == Status.FILLED


def test_every_page_says_whom_the_phone_acts_for_and_each_can_be_dropped(small_event, client):
    """A parent's phone with two juniors' links: both named; dropping one keeps the other."""
    event = small_event
    for entry in (event.player, event.other_player):
        client.get(_link(event, entry))
    page = client.get(event.tournament.get_absolute_url()).content.decode()
    assert "acting-for" in page
    assert event.player.name in page and event.other_player.name in page
    dropped = client.post(
        reverse("scoring:drop_link", args=[event.tournament.slug, event.player.id]),
        {"next": event.tournament.get_absolute_url()},
    )
    assert dropped.status_code == 302
    assert [e for e, _ in client.session[SESSION_KEY]] == [event.other_player.id]
    assert client.get(_card(event, event.player)).status_code == 403


def test_the_opponents_page_lists_rows_waiting_for_them(small_event, client):
    event = small_event
    _filled(event)
    page = client.get(_link(event, event.opponent)).content.decode()
    assert "Waiting for your signature" in page
    assert _card(event, event.player) + f"#game-{event.game.id}" in page
    # The owner's own link lists nothing to sign.
    mine = client.get(_link(event, event.player)).content.decode()
    assert "Waiting for your signature" not in mine


def test_the_dispute_queue_says_how_each_card_was_signed(small_event, client):
    event = small_event
    row = _filled(event)
    opponent_card = card_for(event.stage, event.opponent)
    # The opponent claims the same win on their card, typed in for him by a referee (his own
    # typing would have been a dispute at once): the two cards disagree once both are signed.
    other = fill_row(card=opponent_card, game=event.game, rounds=WIN, user=event.users["referee"])
    client.get(_link(event, event.opponent))
    assert _sign(event, client, row).status_code == 302
    validate_row(
        row=other,
        opponent_number=str(event.player.player.number),
        initials="GG",
        user=event.users[PLAYER],
        version=other.version,
    )
    head = event.login(client, "head-referee")
    page = head.get(reverse("scoring:cards:disputes", args=[event.tournament.slug]))
    words = page.content.decode()
    assert "with their private link" in words
    assert f"signed in as {event.users[PLAYER].username}" in words
