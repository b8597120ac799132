"""The rulings as steps (``scoring.rulings.actions``): each page asks the step whether its button
or form applies and, where it does not, shows the step's own words; the refusals have the kind a
client acts on (the role, the input, the state).

WCC Tournament Rules: "Careless or deliberate contravention of the rules may result in the
forfeiture of a round or a game and possible disqualification from the tournament."
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from scoring.results.services import record_game
from scoring.rulings import actions as steps
from tests.events import PLAYER, SmallEvent
from tests.factories import MatchFactory, StageFactory
from tournaments.actions import Kind
from tournaments.models import Category, Entry, TournamentRole
from tournaments.services import forfeits

pytestmark = pytest.mark.django_db

A_WINS = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def page(client, event: SmallEvent, role: str, name: str, *args) -> str:
    event.login(client, role)
    response = client.get(reverse(name, args=[event.tournament.slug, *args]))
    assert response.status_code == 200, response.content[:400]
    return response.content.decode().replace("&#x27;", "'")


def organizer_who_plays(event: SmallEvent):
    """The player's login, given the organizer's role: they run the event and play in it."""
    user = event.users[PLAYER]
    TournamentRole.objects.create(
        tournament=event.tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    return user


# --- refusals, as words of a kind --------------------------------------------------------------


def test_each_refusal_has_its_kind(small_event):
    organizer = small_event.users["organizer"]
    opponent = small_event.opponent
    nothing = steps.reinstate_entry.refusal(organizer, opponent)
    assert nothing.kind == Kind.CONFLICT
    assert nothing.text == f"{opponent.name} has not withdrawn; there is nothing to reinstate."
    referee = steps.withdraw_entry.refusal(small_event.users["referee"], opponent)
    assert referee.kind == Kind.FORBIDDEN
    assert referee.text == "Only the tournament's organizers may withdraw an entry or reinstate it."
    steps.withdraw_entry(organizer, opponent, reason="flight home")
    again = steps.withdraw_entry.refusal(organizer, Entry.objects.get(pk=opponent.pk))
    assert again.kind == Kind.CONFLICT and "has withdrawn already" in again.text
    # the input is the service's to judge: a disqualification without its reason
    with pytest.raises(forfeits.Refused) as refused:
        steps.disqualify_entry(organizer, small_event.player, reason=" ")
    assert refused.value.kind == Kind.INVALID and refused.value.field == "reason"


def test_a_reinstatement_a_later_draw_used_is_refused_before_it_is_tried(small_event, client):
    opponent = small_event.opponent
    forfeits.withdraw_entry(entry=opponent)
    final = StageFactory(category=small_event.category, name="Final", order=2)
    MatchFactory(stage=final, entry_a=small_event.player, entry_b=small_event.other_player)
    refused = steps.reinstate_entry.refusal(small_event.users["organizer"], opponent)
    assert refused.kind == Kind.CONFLICT
    assert refused.text.startswith(f"{opponent.name} cannot be reinstated: ")
    # The entry's page shows those words where the reinstate button would be.
    text = page(client, small_event, "organizer", "scoring:rulings:entry", opponent.id)
    assert escape(refused.text).replace("&#x27;", "'") in text
    assert (
        reverse("scoring:rulings:reinstate", args=[small_event.tournament.slug, opponent.id])
        not in text
    )


# --- the organizer's check-in rows ---------------------------------------------------------------


def test_the_check_in_row_says_why_an_organizer_who_plays_has_no_withdraw_button(
    small_event, client
):
    organizer_who_plays(small_event)
    opponent = small_event.opponent
    text = page(client, small_event, PLAYER, "tournaments:manage-checkin")
    withdraw = reverse(
        "tournaments:manage-entry-withdraw", args=[small_event.tournament.slug, opponent.id]
    )
    assert f'action="{withdraw}"' not in text
    assert f"You play {opponent.name} in " in text and "another official must do it." in text
    # Their own entry they may withdraw (their own choice), never disqualify.
    own = reverse(
        "tournaments:manage-entry-withdraw",
        args=[small_event.tournament.slug, small_event.player.id],
    )
    assert f'action="{own}"' in text
    assert f"{small_event.player.name} is your own entry: another official must rule on it." in text
    # The toggle itself takes the step: refused in the same words.
    response = client.post(withdraw, {"withdrawn": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "another official must do it." in response.content.decode().replace("&#x27;", "'")
    assert not Entry.objects.get(pk=opponent.pk).withdrawn


# --- the entry's ruling page ---------------------------------------------------------------------


def test_the_entry_page_offers_the_kinds_the_user_may_record_and_says_why_not_the_other(
    small_event, client
):
    player = small_event.player
    organizer_who_plays(small_event)
    text = page(client, small_event, PLAYER, "scoring:rulings:entry", player.id)
    assert 'value="withdrawal"' in text and 'value="disqualification"' not in text
    assert f"Disqualification: {player.name} is your own entry: another official must" in text
    # The head referee disqualifies, and may not withdraw: the page says so.
    text = page(client, small_event, "head-referee", "scoring:rulings:entry", player.id)
    assert 'value="disqualification"' in text and 'value="withdrawal"' not in text
    assert "Withdrawal: Only the tournament's organizers may withdraw an entry" in text


def test_the_entry_page_refuses_whoever_may_record_nothing_in_the_steps_words(small_event, client):
    small_event.login(client, "referee")
    url = reverse(
        "scoring:rulings:entry", args=[small_event.tournament.slug, small_event.player.id]
    )
    response = client.get(url)
    assert response.status_code == 403
    assert "Only the head referee or the tournament&#x27;s organizers may disqualify" in (
        response.content.decode()
    )


# --- the game's ruling page ----------------------------------------------------------------------


def test_the_game_page_says_why_no_ruling_is_offered(small_event, client):
    game = small_event.game
    record_game(game, A_WINS)
    text = page(client, small_event, "referee", "scoring:rulings:game", game.id)
    assert "Forfeit game</button>" not in text and "Forfeit round</button>" not in text
    assert text.count("Only the head referee forfeits a round or a game.") == 1
    # Disqualifying is the head referee's or the organizers': the referee is told so.
    assert "may disqualify an entry or reinstate it." in text


def test_the_game_page_says_why_a_round_cannot_be_forfeited_in_a_game_to_100(small_event, client):
    category = small_event.category
    category.scoring_system = Category.ScoringSystem.DIFFERENCE_TO_100
    category.save(update_fields=["scoring_system"])
    game = small_event.game
    record_game(game, [{"score": [100, 0], "twenties": [5, 0]}])
    text = page(client, small_event, "head-referee", "scoring:rulings:game", game.id)
    assert "Forfeit game</button>" in text and "Forfeit round</button>" not in text
    assert "Forfeit round: " in text and "forfeit the game instead." in text


def test_a_game_not_played_yet_can_be_forfeited_but_none_of_its_rounds(small_event, client):
    game = small_event.game
    text = page(client, small_event, "head-referee", "scoring:rulings:game", game.id)
    assert "Forfeit game</button>" in text and "Forfeit round</button>" not in text
    refused = steps.forfeit_round.refusal(small_event.users["head-referee"], game)
    assert refused.kind == Kind.CONFLICT
    # a one-game match is named by its players: no "game 1" to look for a game 2 after
    assert refused.text.startswith(f"{small_event.match} in round of play 1 has no round yet")
    assert f"Forfeit round: {refused.text}" in text


def test_a_forfeited_game_takes_no_second_ruling_in_the_cards_words(small_event):
    game = small_event.game
    head = small_event.users["head-referee"]
    steps.forfeit_game(head, game, side="a", reason="coaching")
    game.refresh_from_db()
    refused = steps.forfeit_game.refusal(head, game)
    assert refused.kind == Kind.CONFLICT
    assert refused.text == (
        f"{game.forfeit_refusal} ({small_event.match}, round of play 1); nothing more is "
        "written on its cards."
    )
    assert steps.forfeit_round.refusal(head, game).text == refused.text


# --- the dispute queue ---------------------------------------------------------------------------


def test_the_dispute_queue_says_who_rules_where_it_offers_no_form(small_event, client):
    from scoring.scorecards.services import card_for, fill_row, validate_row

    event = small_event
    mine = fill_row(
        card=card_for(event.stage, event.player),
        game=event.game,
        rounds=A_WINS,
        user=event.users[PLAYER],
    )
    validate_row(
        row=mine,
        opponent_number=str(event.opponent.player.number),
        initials="OP",
        user=event.users["opponent"],
    )
    other = [{"points": [0, 2], "twenties": [1, 3]}] * 4
    # The opponent's own card contradicts the row he validated: saved anyway, a dispute.
    fill_row(
        card=card_for(event.stage, event.opponent),
        game=event.game,
        rounds=other,
        user=event.users["opponent"],
        confirm_contradiction=True,
    )
    text = page(client, event, "referee", "scoring:cards:disputes")
    assert 'class="dispute"' in text and f'name="d{event.game.id}-initials"' not in text
    assert "Only the head referee settles disputes." in text
    text = page(client, event, "head-referee", "scoring:cards:disputes")
    assert f'name="d{event.game.id}-initials"' in text
    assert "Only the head referee settles disputes." not in text
