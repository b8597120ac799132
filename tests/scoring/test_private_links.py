"""Private links: a player without an account opens their scorecards by their entry's link,
fills their rows and validates their opponents'; renewing the link locks the old one out; the
owner never validates their own row; the organizer shows, renews and prints the link."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import CardRow
from scoring.printing.cards import round_cards
from scoring.printing.options import PrintOptions
from scoring.printing.render import render_cards
from scoring.scorecards.codes import card_scan_path
from scoring.scorecards.services import card_for, fill_row
from tests.events import SmallEvent
from tournaments.models import EntryLink, Player
from tournaments.private_links import SESSION_KEY
from tournaments.services.links import claim_entry, link_of, renew_link

pytestmark = pytest.mark.django_db
Status = CardRow.Status

WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def boxes(prefix: str, rounds, **extra) -> dict:
    data = {}
    for n, r in enumerate(rounds, start=1):
        for what in ("points", "twenties"):
            data[f"{prefix}-r{n}_{what}_own"], data[f"{prefix}-r{n}_{what}_opp"] = r[what]
    data.update({f"{prefix}-{k}": v for k, v in extra.items()})
    return data


def link_url(event: SmallEvent, entry) -> str:
    return reverse("scoring:private_link", args=[event.tournament.slug, link_of(entry).token])


def card_url(event: SmallEvent, entry, name: str = "card", game=None) -> str:
    args = [event.tournament.slug, event.stage.id, entry.id]
    if game is not None:
        args.append(game.id)
    return reverse(f"scoring:cards:{name}", args=args)


def unlink_logins(event: SmallEvent) -> None:
    """The players of the event's game have no account: only their links."""
    Player.objects.filter(pk__in=[event.player.player_id, event.opponent.player_id]).update(
        user=None
    )


def validate_data(event: SmallEvent, number, version) -> dict:
    g = event.game.id
    return {f"v{g}-opponent_number": number, f"v{g}-initials": "OP", f"v{g}-version": version}


def test_tokens_are_long_random_and_unique(small_event):
    links = [link_of(e) for e in small_event.entries]
    tokens = {link.token for link in links}
    assert len(tokens) == len(links)
    assert all(len(t) >= 40 and re.fullmatch(r"[A-Za-z0-9_-]+", t) for t in tokens)
    assert (
        link_of(small_event.player).token
        == links[small_event.entries.index(small_event.player)].token
    )


def test_the_link_opens_the_cards_and_fills_without_an_account(small_event, client):
    unlink_logins(small_event)
    event = small_event
    assert client.get(card_url(event, event.player)).status_code == 302  # to the login page
    page = client.get(link_url(event, event.player))
    assert page.status_code == 200
    assert card_url(event, event.player).encode() in page.content
    assert client.get(card_url(event, event.player)).status_code == 200
    response = client.post(
        card_url(event, event.player, "fill_row", event.game),
        boxes(f"g{event.game.id}", WIN, version=0),
    )
    assert response.status_code == 302, response.content[:300]
    row = CardRow.objects.get(card__entry=event.player, game=event.game)
    assert row.status == Status.FILLED and row.filled_by is None
    # The cards index lists the linked entry's card too.
    index = client.get(reverse("scoring:cards:index", args=[event.tournament.slug]))
    assert card_url(event, event.player).encode() in index.content


def test_the_link_of_one_entry_does_not_fill_another_card(small_event, client):
    event = small_event
    client.get(link_url(event, event.other_player))
    response = client.post(
        card_url(event, event.player, "fill_row", event.game),
        boxes(f"g{event.game.id}", WIN, version=0),
    )
    assert response.status_code == 403
    assert not CardRow.objects.filter(card__entry=event.player).exists()


def test_the_owner_cannot_validate_their_own_row_by_link_or_login(small_event, client):
    event = small_event
    row = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        user=event.users["player"],
    )
    opponent_number = event.opponent.player.number
    url = card_url(event, event.player, "validate_row", event.game)
    client.force_login(event.users["player"])
    assert client.post(url, validate_data(event, opponent_number, row.version)).status_code == 403
    client.logout()
    client.get(link_url(event, event.player))
    assert client.post(url, validate_data(event, opponent_number, row.version)).status_code == 403
    row.refresh_from_db()
    assert row.status == Status.FILLED
    # Nor is the validation form offered to the owner on their card.
    assert b"opponent_number" not in client.get(card_url(event, event.player)).content


def test_the_opponent_validates_through_their_own_link(small_event, client):
    unlink_logins(small_event)
    event = small_event
    row = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=WIN,
        user=event.users["referee"],
    )
    client.get(link_url(event, event.opponent))
    card = client.get(card_url(event, event.player))
    assert card.status_code == 200 and b"opponent_number" in card.content
    response = client.post(
        card_url(event, event.player, "validate_row", event.game),
        validate_data(event, event.opponent.player.number, row.version),
    )
    assert response.status_code == 302, response.content[:300]
    row.refresh_from_db()
    assert row.status == Status.VALIDATED and row.validated_initials == "OP"


def test_renewing_kills_the_old_link(small_event, client):
    event = small_event
    old_url = link_url(event, event.player)
    assert client.get(old_url).status_code == 200
    assert client.get(card_url(event, event.player)).status_code == 200
    renew_link(event.player)
    # The session still holds the old token: it opens nothing any more.
    assert client.session[SESSION_KEY]
    unlink_logins(event)
    assert client.get(card_url(event, event.player)).status_code == 302
    gone = client.get(old_url)
    assert gone.status_code == 404 and b"renewed" in gone.content
    assert client.get(link_url(event, event.player)).status_code == 200
    assert client.get(card_url(event, event.player)).status_code == 200


def test_a_wrong_token_is_a_clear_404(small_event, client):
    url = reverse("scoring:private_link", args=[small_event.tournament.slug, "x" * 43])
    response = client.get(url)
    assert response.status_code == 404
    assert b"not valid" in response.content and b"organizer" in response.content
    assert SESSION_KEY not in client.session


def test_a_token_of_another_tournament_is_refused(small_event, client):
    from tests.events import build_small_event

    other = build_small_event()
    url = reverse(
        "scoring:private_link", args=[small_event.tournament.slug, link_of(other.player).token]
    )
    assert client.get(url).status_code == 404


def test_a_logged_in_player_links_their_account(small_event, client, django_user_model):
    event = small_event
    unlink_logins(event)
    user = django_user_model.objects.create_user("newcomer")
    client.force_login(user)
    page = client.get(link_url(event, event.player))
    assert b"This is me" in page.content
    claim = reverse(
        "scoring:claim_entry", args=[event.tournament.slug, link_of(event.player).token]
    )
    assert client.post(claim).status_code == 302
    event.player.player.refresh_from_db()
    assert event.player.player.user == user
    # Now the login alone opens the card, in a fresh browser without the link.
    client.logout()
    client.force_login(user)
    assert SESSION_KEY not in client.session
    assert client.get(card_url(event, event.player)).status_code == 200


def test_linking_is_refused_when_another_account_holds_the_player(small_event, django_user_model):
    event = small_event
    intruder = django_user_model.objects.create_user("intruder")
    with pytest.raises(Exception, match="already linked"):
        claim_entry(entry=event.player, user=intruder, token=link_of(event.player).token)
    event.player.player.refresh_from_db()
    assert event.player.player.user == event.users["player"]
    # The same account again is harmless.
    assert (
        claim_entry(
            entry=event.player, user=event.users["player"], token=link_of(event.player).token
        ).pk
        == event.player.player_id
    )


def test_organizer_shows_renews_and_prints_the_link(small_event, client):
    event = small_event
    client.force_login(event.users["organizer"])
    slug = event.tournament.slug
    players = client.get(reverse("tournaments:manage-players", args=[slug]))
    page_url = reverse("tournaments:manage-entry-link", args=[slug, event.player.id])
    assert page_url.encode() in players.content
    page = client.get(page_url)
    token = link_of(event.player).token
    assert page.status_code == 200 and token.encode() in page.content and b"<svg" in page.content
    renewed = client.post(
        reverse("tournaments:manage-entry-link-renew", args=[slug, event.player.id])
    )
    assert renewed.status_code == 302
    assert EntryLink.objects.get(entry=event.player).token != token
    sheet = client.get(reverse("scoring:print-player-sheet", args=[slug, event.player.id]))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
    text = "".join(p.extract_text() for p in PdfReader(_bytes(sheet)).pages)
    assert link_of(event.player).token in text.replace("\n", "")
    assert _strokes(sheet.content) > 100


def test_players_cannot_renew_or_print_links(small_event, client):
    event = small_event
    client.force_login(event.users["player"])
    slug = event.tournament.slug
    token = link_of(event.player).token
    assert (
        client.post(
            reverse("tournaments:manage-entry-link-renew", args=[slug, event.player.id])
        ).status_code
        == 403
    )
    assert (
        client.get(reverse("scoring:print-player-sheet", args=[slug, event.player.id])).status_code
        == 403
    )
    assert link_of(event.player).token == token


def test_round_cards_carry_their_card_code_never_the_private_link(small_event, client):
    """The card goes across the board to be signed: its QR names the card, not the owner."""
    event = small_event
    cards = round_cards(event.stage, 1)
    paths = {c.people[0].number: c.link_path for c in cards}
    mine = paths[str(event.player.player.number)]
    assert mine == card_scan_path(event.tournament.slug, event.stage.id, event.player.id)
    tokens = {link_of(e).token for e in (event.player, event.opponent)}
    assert not any(token in path for token in tokens for path in paths.values())
    client.force_login(event.users["scoring-table"])
    pdf = client.get(
        reverse("scoring:print-round-cards", args=[event.tournament.slug, event.stage.id, 1])
    )
    assert pdf.status_code == 200
    options = PrintOptions(site="http://testserver")
    bare = [dataclasses.replace(c, link_path="") for c in cards]
    with_qr, without = (
        render_cards(cards, options, title="t"),
        render_cards(bare, options, title="t"),
    )
    assert _strokes(pdf.content) == _strokes(with_qr) > _strokes(without) + 100


def _bytes(response):
    return io.BytesIO(response.content)


def _strokes(content: bytes) -> int:
    """Line segments drawn on page 1 (a QR code's SVG is drawn as hundreds of them)."""
    page = PdfReader(io.BytesIO(content)).pages[0]
    return sum(1 for op in page.get_contents().get_data().split(b"\n") if op.endswith(b" l"))


def test_the_api_shows_and_renews_a_link_for_organizers_only(small_event, client):
    event = small_event
    url = f"/api/entries/{event.player.id}/private-link/"
    client.force_login(event.users["player"])
    assert client.get(url).status_code == 403
    assert client.post(url + "renew/").status_code == 403
    client.force_login(event.users["organizer"])
    shown = client.get(url)
    assert shown.status_code == 200
    old = link_of(event.player).token
    assert shown.json()["url"].endswith(f"/me/{old}/")
    renewed = client.post(url + "renew/")
    assert renewed.status_code == 200
    new = link_of(event.player).token
    assert new != old and renewed.json()["url"].endswith(f"/me/{new}/")
