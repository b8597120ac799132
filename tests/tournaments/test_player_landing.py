"""A player's page is where a logged-in player or a private link lands: what they play now or
next (board, time, opponent), where they stand, and their own cards."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from scoring.results.players import player_page
from tournaments.services.schedule import schedule_stage

pytestmark = pytest.mark.django_db


def page_of(client, event, entry):
    url = reverse("tournaments:player", args=[event.tournament.slug, entry.player.number])
    return client.get(url)


def test_the_next_game_is_the_first_one_to_play_with_its_board_and_time(client, small_event):
    e = small_event
    schedule_stage(e.stage, datetime(2026, 6, 6, 9, tzinfo=UTC), 30)
    games = e.player_games()
    page = player_page(e.tournament, e.player.player.number)
    assert page.next_game.match == games[0].match
    # Once the first game is played and verified, the next one is the second.
    assert games[0] == e.game
    e.play_and_verify()
    page = player_page(e.tournament, e.player.player.number)
    following = page.next_game.match
    assert following == games[1].match
    html = page_of(client, e, e.player).content.decode()
    assert "Next" in html and f"Board <strong>{following.board.number}</strong>" in html
    assert following.starts_at.strftime("%H:%M") in html


def test_the_page_says_where_the_player_stands(client, small_event):
    html = page_of(client, small_event, small_event.player).content.decode()
    assert f"{small_event.stage.name}</a>: <strong>" in html
    assert "points ·" in html and "\u00d7 20" in html


def test_a_player_signed_in_sees_their_own_cards_and_nobody_elses(client, small_event):
    e = small_event
    card = reverse("scoring:cards:card", args=[e.tournament.slug, e.stage.id, e.player.id])
    e.login(client, "player")
    assert f'href="{card}"' in page_of(client, e, e.player).content.decode()
    assert f'href="{card}"' not in page_of(client, e, e.opponent).content.decode()
    client.logout()
    assert f'href="{card}"' not in page_of(client, e, e.player).content.decode()
