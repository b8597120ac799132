"""The WCC card's rules on two phones, in a real chromium: a player's row is theirs to change
until the opponent has opened it to sign, and then the phone asks for a referee's initials; with
the cards kept in order, the next game's row waits until the opponent signed the one before, and
the card says which row waits.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import CardRow
from tests.e2e.browsing import PHONE, Story, fill_row, validate_row
from tests.events import OPPONENT, PLAYER, WIN, build_small_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-card-rules"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "initialled-by-a-referee"
OTHER = [{"points": [2, 0], "twenties": [2, 0]}] * 4


def test_a_seen_row_needs_a_referees_initials_and_the_next_game_waits(
    chromium, server, screenshots, fast_passwords
):
    event = build_small_event()
    event.tournament.cards_in_order = True
    event.tournament.save()
    for role in (PLAYER, OPPONENT):
        event.users[role].set_password(PASSWORD)
        event.users[role].save()
    slug = event.tournament.slug
    first, second = event.player_games()[:2]
    assert first.id == event.game.id
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    story = Story(chromium, server, screenshots)

    player = story.visitor("player", PHONE)
    player.log_in(event.users[PLAYER].username, PASSWORD, then=card)
    page = player.page
    fill_row(page, first.id, WIN)
    row = page.locator(f"#game-{first.id}")
    expect(row.locator(".badge")).to_have_text("Filled")
    # The next game waits for the opponent's signature of this one, and the card says so.
    nxt = page.locator(f"#game-{second.id}")
    player.go(card)
    expect(nxt.locator(".why-not")).to_contain_text("must be validated first")
    expect(nxt.locator(f'[name="g{second.id}-r1_twenties_own"]')).to_have_count(0)
    assert player.overflow() == 0
    player.shot("card-rules-next-game-waits", at=nxt)

    # The opponent opens the card on their own phone to sign it: from now on it is seen.
    opponent = story.visitor("opponent", PHONE)
    opponent.log_in(event.users[OPPONENT].username, PASSWORD, then=card)
    expect(
        opponent.page.locator(f"#game-{first.id}").get_by_role("button", name="Validate")
    ).to_be_visible()
    assert CardRow.objects.get(card__entry=event.player, game=first).seen_at is not None

    # The player's change now asks for a referee's initials, and is refused without them.
    player.go(card)
    row.locator("summary", has_text="Change the row").click()
    expect(row.locator(".needs-initials")).to_be_visible()
    fill_row(page, first.id, OTHER)
    expect(row.locator(".row-errors")).to_contain_text("a referee initials it")
    assert CardRow.objects.get(card__entry=event.player, game=first).rounds[0]["twenties"] == [3, 1]
    player.shot("card-rules-initials-asked", at=row)
    row.locator(f'[name="g{first.id}-referee_initials"]').fill("JR")
    row.get_by_role("button", name="Save the row").click()
    expect(row.get_by_role("link", name="History (version 2)")).to_be_visible()
    saved = CardRow.objects.get(card__entry=event.player, game=first)
    assert saved.referee_initials == "JR" and saved.rounds[0]["twenties"] == [2, 0]

    # The opponent signs; the player's next game opens.
    opponent.go(card)
    validate_row(opponent.page, first.id, event.opponent.player.number, "OP")
    player.go(card)
    expect(nxt.locator(f'[name="g{second.id}-r1_twenties_own"]').first).to_be_attached()
    expect(nxt.locator(".why-not")).to_have_count(0)
    player.shot("card-rules-next-game-open", at=nxt)
    opponent.close()
    player.close()
    assert not story.problems, story.problems
