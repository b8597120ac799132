"""Saving a row that contradicts an official or validated result warns before it is saved and,
if saved, opens a dispute; a paper card that would replace a player's own phone row shows both
and asks first (on the card page, the paper page and the API alike)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import CardRow
from scoring.results.services import record_game
from scoring.scorecards.services import (
    ContradictionError,
    card_for,
    enter_paper_row,
    fill_row,
    validate_row,
)
from tests.scoring.test_card_pages import DASH, HX, WIN, World, form_data, login, mirror

pytestmark = pytest.mark.django_db
Status = CardRow.Status

#: Bob's row of the game: he says he won round 4, 2-0 with one 20 less than Ann's card says.
CLAIM = [*mirror(WIN[:3]), {"points": [2, 0], "twenties": [1, 1]}]


@pytest.fixture
def w():
    return World()


def _validated_ann(w: World) -> CardRow:
    """Ann's row of the game, filled by her and validated by Bob."""
    row = fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ann"])
    return validate_row(
        row=row, opponent_number=str(w.b.player.number), initials="BB", user=w.users["bob"]
    )


# The service ----------------------------------------------------------------------------------


def test_a_row_contradicting_the_validated_card_is_refused_then_saved_as_a_dispute(w):
    w.tournament.count_validated_cards = True
    w.tournament.save()
    _validated_ann(w)
    assert w.game.rounds.count() == 4  # official from Ann's validated card
    with pytest.raises(ContradictionError) as warned:
        fill_row(card=card_for(w.stage, w.b), game=w.game, rounds=CLAIM, user=w.users["bob"])
    words = warned.value.text
    assert "Ann Ashby's card (validated by the opponent)" in words
    assert f"Round 4: your row 2{DASH}0, 20s 1{DASH}1; Ann Ashby's card 2{DASH}0, 20s 2{DASH}1" in (
        words
    )
    assert "Round 1" not in words and "opens a dispute" in words
    assert warned.value.status == 409 and [d.number for d in warned.value.diffs] == [4]
    assert not CardRow.objects.filter(card__entry=w.b).exists()  # nothing saved

    saved = fill_row(
        card=card_for(w.stage, w.b),
        game=w.game,
        rounds=CLAIM,
        user=w.users["bob"],
        confirm_contradiction=True,
    )
    assert saved.status == Status.DISPUTED and w.row().status == Status.DISPUTED
    assert not w.game.rounds.exists()  # the official result is withdrawn until the ruling


def test_a_row_saying_the_same_as_the_validated_card_is_not_a_contradiction(w):
    _validated_ann(w)
    row = fill_row(
        card=card_for(w.stage, w.b), game=w.game, rounds=mirror(WIN), user=w.users["bob"]
    )
    assert (row.status, row.validated_how) == (Status.VALIDATED, CardRow.ValidatedHow.AGREEMENT)


def test_a_row_contradicting_the_official_result_alone_opens_a_dispute_of_its_own(w):
    """A result recorded without rows (an import, a result typed in): the player's row that
    says otherwise is warned, and saved it is in dispute alone; the result is withdrawn."""
    record_game(w.game, WIN)
    with pytest.raises(ContradictionError, match="the official result"):
        fill_row(card=card_for(w.stage, w.b), game=w.game, rounds=CLAIM, user=w.users["bob"])
    row = fill_row(
        card=card_for(w.stage, w.b),
        game=w.game,
        rounds=CLAIM,
        user=w.users["bob"],
        confirm_contradiction=True,
    )
    assert row.status == Status.DISPUTED and not w.game.rounds.exists()


def test_a_referee_typing_a_row_for_the_player_is_not_warned(w):
    """A row a referee types for the player is not the player's word: it waits for the
    opponent's signature, which compares it (as before)."""
    _validated_ann(w)
    row = fill_row(card=card_for(w.stage, w.b), game=w.game, rounds=CLAIM, user=w.users["ref"])
    assert row.status == Status.FILLED


# The card page --------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_the_card_page_warns_shows_both_and_saves_on_confirmation(client, w, htmx):
    _validated_ann(w)
    login(client, w, "bob")
    url = w.url("fill_row", entry=w.b)
    data = form_data(w.prefix(), CLAIM, version=0)
    headers = HX if htmx else {}
    warned = client.post(url, data, headers=headers)
    assert warned.status_code == 200
    body = warned.content.decode().replace("&#x27;", "'")
    assert "your row contradicts Ann Ashby's card (validated by the opponent)" in body
    assert "Round 4: your row 2" in body
    # Both versions side by side: what Bob typed (round 4 marked), and Ann's card as it stands.
    assert "What you typed" in body and "Ann Ashby's card (validated by the opponent)</h4>" in body
    assert re.search(r'class="[^"]*saved-now contradicts', body)
    box = re.search(
        rf'<input type="checkbox" name="{w.prefix()}-confirm_contradiction"[^>]*>', body
    )
    assert box and "checked" not in box.group(0)
    assert "Save anyway: this opens a dispute for the head referee" in body
    assert not CardRow.objects.filter(card__entry=w.b).exists()

    saved = client.post(url, {**data, f"{w.prefix()}-confirm_contradiction": "on"}, headers=HX)
    assert saved.status_code == 200
    said = saved.content.decode()
    assert "another card of this game says otherwise: the game went to the head referee" in said
    assert w.row(w.b).status == Status.DISPUTED and w.row().status == Status.DISPUTED


def test_the_card_page_says_when_the_other_card_validated_the_row(client, w):
    fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ann"])
    login(client, w, "bob")
    saved = client.post(
        w.url("fill_row", entry=w.b), form_data(w.prefix(), mirror(WIN), version=0), headers=HX
    )
    assert "Row saved, and validated: Ann Ashby&#x27;s own card says the same." in (
        saved.content.decode()
    )
    assert w.row(w.b).status == Status.VALIDATED


# The API --------------------------------------------------------------------------------------


def test_the_api_answers_the_warning_with_409_and_takes_the_confirmation(w):
    from rest_framework.test import APIClient

    _validated_ann(w)
    api = APIClient()
    api.force_authenticate(w.users["bob"])
    card = card_for(w.stage, w.b)
    body = {"game": w.game.id, "rounds": CLAIM}
    warned = api.post(f"/api/scorecards/{card.id}/fill/", body, format="json")
    assert warned.status_code == 409
    assert "Round 4: your row 2" in warned.json()["detail"]
    assert not CardRow.objects.filter(card=card).exists()
    saved = api.post(
        f"/api/scorecards/{card.id}/fill/",
        {**body, "confirm_contradiction": True},
        format="json",
    )
    assert saved.status_code == 201 and saved.json()["status"] == "disputed"


# Paper over a phone row ----------------------------------------------------------------------


def _phone_row(w: World) -> CardRow:
    """Ann saved her row on her phone; nobody has signed it."""
    return fill_row(card=card_for(w.stage, w.a), game=w.game, rounds=WIN, user=w.users["ann"])


PAPER = [*WIN[:3], {"points": [1, 1], "twenties": [1, 2]}]


def test_paper_over_a_differing_phone_row_asks_first(w):
    phone = _phone_row(w)
    args = {
        "card": card_for(w.stage, w.a),
        "game": w.game,
        "rounds": PAPER,
        "opponent_number": str(w.b.player.number),
        "initials": "BB",
        "user": w.users["table"],
        "version": phone.version,
    }
    with pytest.raises(ContradictionError) as asked:
        enter_paper_row(**args)
    assert "already holds a row entered on the phone" in asked.value.text
    assert f"Round 4: the phone row 0{DASH}2, 20s 1{DASH}2; the paper card 1{DASH}1" in (
        asked.value.text
    )
    assert asked.value.against == phone.rounds
    assert w.row().status == Status.FILLED and w.row().rounds == phone.rounds
    row = enter_paper_row(**args, confirm_replace=True)
    assert (row.status, row.validated_how) == (Status.VALIDATED, CardRow.ValidatedHow.PAPER)
    # The history keeps the phone row.
    assert row.history.order_by("history_date").first().rounds == phone.rounds


def test_paper_saying_what_the_phone_row_says_replaces_it_without_asking(w):
    phone = _phone_row(w)
    row = enter_paper_row(
        card=card_for(w.stage, w.a),
        game=w.game,
        rounds=WIN,
        opponent_number=str(w.b.player.number),
        initials="BB",
        user=w.users["table"],
        version=phone.version,
    )
    assert row.status == Status.VALIDATED and row.validated_how == CardRow.ValidatedHow.PAPER


def _paper_post(client, w, rounds, *, version, **extra):
    data = {
        "paper-version": version,
        "paper-opponent_number": w.b.player.number,
        "paper-initials": "bb",
        **extra,
    }
    for n, r in enumerate(rounds, start=1):
        data[f"paper-r{n}_points_own"], data[f"paper-r{n}_points_opp"] = r["points"]
        data[f"paper-r{n}_twenties_own"], data[f"paper-r{n}_twenties_opp"] = r["twenties"]
    url = reverse(
        "scoring:cards:paper_row", args=[w.tournament.slug, w.stage.id, w.a.id, w.game.id]
    )
    return client.post(url, data)


def test_the_paper_page_shows_both_rows_and_asks_to_replace(client, w):
    phone = _phone_row(w)
    login(client, w, "table")
    asked = _paper_post(client, w, PAPER, version=phone.version)
    assert asked.status_code == 409
    body = asked.content.decode().replace("&#x27;", "'")
    assert "Ann Ashby's row, entered on the phone" in body and "The paper card" in body
    # The phone row's round 4 as saved, beside the paper card's boxes.
    phone_side = re.search(r'<aside class="saved-now phone-row">.*?</aside>', body, re.S).group(0)
    assert f"<td>0{DASH}2</td>" in phone_side
    assert 'name="paper-confirm_replace" value="on"' in body
    assert "Replace the phone row with the paper card" in body
    assert w.row().status == Status.FILLED and w.row().version == phone.version

    done = _paper_post(client, w, PAPER, version=phone.version, **{"paper-confirm_replace": "on"})
    assert done.status_code == 302
    assert w.row().status == Status.VALIDATED and w.row().rounds[3]["points"] == [1, 1]


def test_the_api_asks_before_paper_replaces_a_phone_row(w):
    from rest_framework.test import APIClient

    phone = _phone_row(w)
    api = APIClient()
    api.force_authenticate(w.users["table"])
    card = card_for(w.stage, w.a)
    body = {
        "game": w.game.id,
        "rounds": PAPER,
        "opponent_number": str(w.b.player.number),
        "initials": "BB",
        "version": phone.version,
    }
    asked = api.post(f"/api/scorecards/{card.id}/paper/", body, format="json")
    assert asked.status_code == 409 and "the phone row" in asked.json()["detail"]
    done = api.post(
        f"/api/scorecards/{card.id}/paper/", {**body, "confirm_replace": True}, format="json"
    )
    assert done.status_code == 200 and done.json()["status"] == "validated"
