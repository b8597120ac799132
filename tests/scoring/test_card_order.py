"""WCC: the opponent "records their ID number and initials before moving to the next game".

Where the tournament keeps its cards in order (``cards_in_order``), a game's row is written once
every earlier row of the card is signed; the card page says which row must be validated first.
Elsewhere (a club night) rows are written in any order, as before.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import CardRow
from scoring.scorecards import actions as row_steps
from scoring.scorecards.services import ScorecardError, card_for, fill_row, validate_row
from tests.events import PLAYER, WIN, SmallEvent

pytestmark = pytest.mark.django_db


def _in_order(event: SmallEvent) -> None:
    event.tournament.cards_in_order = True
    event.tournament.save()


def _opponent_of(event: SmallEvent, game):
    match = game.match
    return match.entry_b if match.entry_a_id == event.player.id else match.entry_a


def _user_of(entry):
    return entry.player.user


def _fill(event: SmallEvent, game) -> CardRow:
    card = card_for(event.stage, event.player)
    return fill_row(card=card, game=game, rounds=WIN, user=event.users[PLAYER])


def test_the_next_games_row_waits_for_the_signature_of_the_one_before(small_event):
    _in_order(small_event)
    first, second = small_event.player_games()[:2]
    row = _fill(small_event, first)
    with pytest.raises(ScorecardError, match="must be validated first") as refused:
        _fill(small_event, second)
    assert "round of play 1" in str(refused.value)
    assert not CardRow.objects.filter(game=second).exists()

    opponent = _opponent_of(small_event, first)
    validate_row(
        row=row,
        opponent_number=str(opponent.player.number),
        initials="OP",
        user=_user_of(opponent),
    )
    assert _fill(small_event, second).game_id == second.id


def test_the_card_page_says_which_row_to_validate_first(small_event, client):
    _in_order(small_event)
    first, second = small_event.player_games()[:2]
    _fill(small_event, first)
    client.force_login(small_event.users[PLAYER])
    url = reverse(
        "scoring:cards:card",
        args=[small_event.tournament.slug, small_event.stage.id, small_event.player.id],
    )
    page = client.get(url).content.decode()
    assert "must be validated first" in page
    assert f'name="g{second.id}-r1_points_own"' not in page  # no form for the next game yet
    step = row_steps.fill_row.refusal(
        small_event.users[PLAYER],
        CardRow(card=card_for(small_event.stage, small_event.player), game=second),
    )
    assert step is not None and "must be validated first" in step.text


def test_a_game_decided_without_this_cards_row_waits_for_nothing(small_event):
    """The first game's result came from the opponent's card (or paper): this card has no row
    for it, and the next game is written as usual."""
    _in_order(small_event)
    first, second = small_event.player_games()[:2]
    assert _fill(small_event, second).game_id == second.id
    assert not CardRow.objects.filter(game=first, card__entry=small_event.player).exists()


def test_without_the_option_rows_are_written_in_any_order(small_event):
    first, second = small_event.player_games()[:2]
    _fill(small_event, first)
    assert _fill(small_event, second).status == CardRow.Status.FILLED


def test_the_organizer_sets_it_on_the_tournament_form_and_the_api(small_event, client):
    client.force_login(small_event.users["organizer"])
    answer = client.patch(
        f"/api/tournaments/{small_event.tournament.slug}/",
        {"cards_in_order": True},
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    small_event.tournament.refresh_from_db()
    assert small_event.tournament.cards_in_order is True
