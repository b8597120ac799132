"""WCC: "Any corrections made on your score card must be initialled by a referee."

A row its player has saved is theirs to change only until someone else has seen it: the
opponent opened the card to sign it, or staff entered the game's paper card. After that a change
is a correction, and a referee initials it at the board; saving the row unchanged needs nothing.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import CardRow
from scoring.scorecards.services import (
    ScorecardError,
    card_for,
    enter_paper_row,
    fill_row,
)
from tests.events import OPPONENT, PLAYER, WIN, SmallEvent

pytestmark = pytest.mark.django_db

OTHER = [{"points": [2, 0], "twenties": [2, 0]}] * 4
SEEN_WORDS = "a referee initials it"


def mirror(rounds):
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


def _filled(event: SmallEvent) -> CardRow:
    card = card_for(event.stage, event.player)
    return fill_row(card=card, game=event.game, rounds=WIN, user=event.users[PLAYER])


def _card_url(event: SmallEvent, entry) -> str:
    return reverse("scoring:cards:card", args=[event.tournament.slug, event.stage.id, entry.id])


def _boxes(game_id: int, rounds, **extra) -> dict:
    data = {}
    for n, r in enumerate(rounds, start=1):
        for what in ("points", "twenties"):
            data[f"g{game_id}-r{n}_{what}_own"], data[f"g{game_id}-r{n}_{what}_opp"] = r[what]
    data.update({f"g{game_id}-{k}": v for k, v in extra.items()})
    return data


def test_before_anyone_else_saw_it_the_player_changes_the_row_freely(small_event):
    row = _filled(small_event)
    assert row.seen_at is None
    again = fill_row(
        card=row.card,
        game=small_event.game,
        rounds=OTHER,
        user=small_event.users[PLAYER],
        version=row.version,
    )
    assert again.rounds[0]["twenties"] == [2, 0] and again.referee_initials == ""


def test_the_opponent_opening_the_card_to_sign_makes_a_change_a_correction(small_event, client):
    row = _filled(small_event)
    client.force_login(small_event.users[OPPONENT])
    page = client.get(_card_url(small_event, small_event.player))
    assert page.status_code == 200 and b"Validate" in page.content
    row.refresh_from_db()
    assert row.seen_at is not None
    version = row.version  # a mark, not a change: the player's page is not made stale

    with pytest.raises(ScorecardError, match=SEEN_WORDS):
        fill_row(
            card=row.card,
            game=small_event.game,
            rounds=OTHER,
            user=small_event.users[PLAYER],
            version=version,
        )
    row.refresh_from_db()
    assert row.rounds[0]["twenties"] == [3, 1] and row.version == version

    # Saving it as it stands is no change and needs nobody.
    fill_row(
        card=row.card,
        game=small_event.game,
        rounds=WIN,
        user=small_event.users[PLAYER],
        version=version,
    )
    changed = fill_row(
        card=row.card,
        game=small_event.game,
        rounds=OTHER,
        user=small_event.users[PLAYER],
        version=CardRow.objects.get(pk=row.pk).version,
        referee_initials="jr",
    )
    assert changed.referee_initials == "JR" and changed.status == CardRow.Status.FILLED
    assert "initialled JR" in changed.history.first().history_change_reason


def test_the_players_page_asks_for_the_referees_initials_once_the_row_was_seen(small_event, client):
    row = _filled(small_event)
    opponent = client.__class__()
    opponent.force_login(small_event.users[OPPONENT])
    assert opponent.get(_card_url(small_event, small_event.player)).status_code == 200

    client.force_login(small_event.users[PLAYER])
    page = client.get(_card_url(small_event, small_event.player)).content.decode()
    assert "a change is now a correction, initialled by a referee" in page
    assert f'name="g{small_event.game.id}-referee_initials"' in page

    url = reverse(
        "scoring:cards:fill_row",
        args=[
            small_event.tournament.slug,
            small_event.stage.id,
            small_event.player.id,
            row.game_id,
        ],
    )
    refused = client.post(url, _boxes(row.game_id, OTHER, version=row.version))
    assert SEEN_WORDS in refused.content.decode()
    assert CardRow.objects.get(pk=row.pk).rounds[0]["twenties"] == [3, 1]
    saved = client.post(url, _boxes(row.game_id, OTHER, version=row.version, referee_initials="RF"))
    assert saved.status_code == 302
    assert CardRow.objects.get(pk=row.pk).referee_initials == "RF"


def test_staff_entering_the_games_paper_card_have_seen_the_players_phone_row(small_event):
    # The player has saved two rounds on the phone (a complete row agreeing with the paper card
    # would be validated by it, see tests/scoring/test_reconciliation.py).
    card = card_for(small_event.stage, small_event.player)
    row = fill_row(card=card, game=small_event.game, rounds=WIN[:2], user=small_event.users[PLAYER])
    theirs = card_for(small_event.stage, small_event.opponent)
    enter_paper_row(
        card=theirs,
        game=small_event.game,
        rounds=mirror(WIN),
        opponent_number=str(small_event.player.player.number),
        initials="PL",
        user=small_event.users["scoring-table"],
    )
    row.refresh_from_db()
    assert row.seen_at is not None and row.status == CardRow.Status.FILLED
    with pytest.raises(ScorecardError, match=SEEN_WORDS):
        fill_row(
            card=row.card,
            game=small_event.game,
            rounds=WIN,
            user=small_event.users[PLAYER],
            version=row.version,
        )


def test_the_player_looking_at_their_own_card_does_not_make_it_seen(small_event, client):
    row = _filled(small_event)
    client.force_login(small_event.users[PLAYER])
    assert client.get(_card_url(small_event, small_event.player)).status_code == 200
    row.refresh_from_db()
    assert row.seen_at is None
