"""A voided row written again: the scoring table voids a card it cannot read (WCC), and the row
is then re-opened, by its card's player to fill it on the phone or by staff to type the paper
card in again. It waits for the opponent's signature like any row; its history keeps both the
voided version and the one written after it. Before, a voided row was a dead end."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from scoring.models import CardRow
from scoring.scorecards import table_actions as steps
from scoring.scorecards.selectors import row_versions
from scoring.scorecards.services import card_for, fill_row, validate_row, void_card
from tests.events import WIN
from tournaments.actions import Kind, Refused
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db
Status = CardRow.Status
OTHER = [{"points": [2, 0], "twenties": [2, 0]}] * 4


def _voided(e) -> CardRow:
    card = card_for(e.stage, e.player)
    row = fill_row(card=card, game=e.game, rounds=WIN, user=e.users["player"])
    validate_row(
        row=row,
        opponent_number=str(e.opponent.player.number),
        initials="OP",
        user=e.users["opponent"],
    )
    void_card(card=card, reason="illegible", user=e.users["scoring-table"])
    return CardRow.objects.get(pk=row.pk)


def test_the_player_reopens_a_voided_row_fills_it_again_and_the_history_keeps_both(small_event):
    e = small_event
    e.tournament.count_validated_cards = True
    e.tournament.save()
    row = _voided(e)
    assert not e.game.rounds.exists()
    opened = steps.reopen_row(e.users["player"], row, version=row.version)
    assert opened.status == Status.FILLED
    assert (opened.void_reason, opened.validated_number, opened.validated_initials) == ("", "", "")
    assert opened.validated_at is None and opened.verified_at is None
    assert opened.rounds == row.rounds  # a start for the player, who may change it
    again = fill_row(
        card=row.card, game=e.game, rounds=OTHER, user=e.users["player"], version=opened.version
    )
    validate_row(
        row=again,
        opponent_number=str(e.opponent.player.number),
        initials="OP",
        user=e.users["opponent"],
        version=again.version,
    )
    assert e.game.rounds.count() == 4  # it counts again, once signed
    reasons = [v.reason for v in row_versions(CardRow.objects.get(pk=row.pk))]
    assert any("voided: illegible" in r for r in reasons), reasons
    assert any("re-opened after it was voided (illegible)" in r for r in reasons), reasons


def test_staff_reopen_a_voided_row_and_enter_the_paper_card_again(small_event):
    e = small_event
    row = _voided(e)
    refused = steps.enter_paper_row.refusal(e.users["referee"], row)
    assert refused is not None and "re-open it" in refused.text
    opened = steps.reopen_row(e.users["referee"], row, version=row.version)
    entered = steps.enter_paper_row(
        e.users["referee"],
        opened,
        rounds=WIN,
        opponent_number=str(e.opponent.player.number),
        initials="OP",
        version=opened.version,
    )
    assert (entered.status, entered.validated_how) == (Status.VALIDATED, "paper")


def test_only_a_voided_row_is_reopened_and_only_by_its_player_or_staff(small_event):
    e = small_event
    card = card_for(e.stage, e.player)
    row = fill_row(card=card, game=e.game, rounds=WIN, user=e.users["player"])
    refused = steps.reopen_row.refusal(e.users["player"], row)
    assert refused is not None and refused.kind == Kind.CONFLICT
    assert "not voided" in refused.text
    with pytest.raises(Refused, match="not voided"):
        steps.reopen_row(e.users["player"], row, version=row.version)
    row = _voided(e)
    for role in ("opponent", "other-player", "organizer"):
        refused = steps.reopen_row.refusal(e.users[role], row)
        assert refused is not None and refused.kind == Kind.FORBIDDEN, role
        with pytest.raises(PermissionDenied):
            steps.reopen_row(e.users[role], row, version=row.version)
    # Staff who play in the game leave it to another official; the card's player does not.
    opponent = e.users["opponent"]
    TournamentRole.objects.create(
        tournament=e.tournament, user=opponent, role=TournamentRole.Role.REFEREE
    )
    opponent.__dict__.pop("_tournament_roles", None)
    refused = steps.reopen_row.refusal(opponent, row)
    assert refused is not None and "another official must re-open it" in refused.text
    assert CardRow.objects.get(pk=row.pk).status == Status.VOIDED


def test_a_voided_row_refuses_a_fill_and_says_to_reopen_it(small_event):
    e = small_event
    row = _voided(e)
    refused = steps.reopen_row.refusal(e.users["player"], row)
    assert refused is None
    with pytest.raises(Refused, match="re-open it to write it again"):
        fill_row(
            card=row.card, game=e.game, rounds=WIN, user=e.users["player"], version=row.version
        )


def test_a_stale_reopen_is_refused(small_event):
    e = small_event
    row = _voided(e)
    with pytest.raises(Refused) as refused:
        steps.reopen_row(e.users["player"], row, version=row.version - 1)
    assert refused.value.kind == Kind.STALE


def test_the_card_page_and_the_table_offer_the_button(small_event, client):
    e = small_event
    row = _voided(e)
    card_url = reverse("scoring:cards:card", args=[e.tournament.slug, e.stage.id, e.player.id])
    reopen_url = reverse("scoring:cards:reopen_row", args=[e.tournament.slug, row.id])
    e.login(client, "opponent")
    assert reopen_url not in client.get(card_url).content.decode()
    assert client.post(reopen_url, {"version": row.version}).status_code == 403
    e.login(client, "scoring-table")
    table = client.get(reverse("scoring:cards:table", args=[e.tournament.slug])).content.decode()
    assert "Voided rows" in table and reopen_url in table and "illegible" in table
    e.login(client, "player")
    page = client.get(card_url).content.decode()
    assert reopen_url in page and "re-open it to write it again" in page
    done = client.post(reopen_url, {"version": row.version, "next": card_url}, follow=True)
    assert done.status_code == 200
    assert "Re-opened the row of" in done.content.decode()
    assert CardRow.objects.get(pk=row.pk).status == Status.FILLED
    again = client.post(reopen_url, {"version": row.version + 1}, follow=True)
    assert "not voided" in again.content.decode()


def test_the_api_reopens_a_voided_row(small_event, client):
    e = small_event
    row = _voided(e)
    url = f"/api/card-rows/{row.id}/reopen/"
    client.force_login(e.users["other-player"])
    assert client.post(
        url, {"version": row.version}, content_type="application/json"
    ).status_code in (403, 404)
    client.force_login(e.users["scoring-table"])
    missing = client.post(url, {}, content_type="application/json")
    assert missing.status_code == 400 and "version" in missing.json()
    done = client.post(url, {"version": row.version}, content_type="application/json")
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "filled"
    again = client.post(url, {"version": done.json()["version"]}, content_type="application/json")
    assert again.status_code == 409 and "not voided" in again.json()["detail"]
