"""A three-player game (family rulebook, Three-Player Game, Option Two) on the phones at the board,
in a real chromium: Ann types her rounds into a box per player, the card adds the round lines the
game still needs while she types, the total shows the three players' points, and Cy, the second
opponent, signs her row with his own ID on his phone.

The world (a category, three players with logins, their game at board 2) is made with the ORM;
what is checked goes through the pages.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import expect

from scoring.models import CardRow
from tests.e2e.browsing import DASH, PHONE, Story
from tests.factories import CategoryFactory, EntryFactory, PlayerFactory, StageFactory
from tournaments.models import Board, Category, Game, Match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-three-player-card"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "three-at-a-board"
#: Ann's card: own, then Bob's and Cy's figures (the match's order); she wins 8-4-3.
ROUNDS = [
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
    {"points": [2, 0, 1], "twenties": [1, 0, 0]},
    {"points": [0, 1, 2], "twenties": [0, 0, 1]},
    {"points": [2, 1, 0], "twenties": [1, 0, 0]},
    {"points": [2, 1, 0], "twenties": [2, 1, 0]},
]
SIDES = ("own", "opp", "opp2")


def test_three_players_fill_and_sign_a_card_on_their_phones(
    chromium, server, screenshots, fast_passwords
):
    category = CategoryFactory(
        name="Family triples",
        scoring_system=Category.ScoringSystem.THREE_PLAYER,
        discs_per_player=12,
    )
    tournament = category.tournament
    stage = StageFactory(category=category, name="Triples", games_per_entry=1)
    entries = {}
    for login, first, last in (
        ("ann", "Ann", "Ashby"),
        ("bob", "Bob", "Brant"),
        ("cy", "Cy", "Cole"),
    ):
        user = User.objects.create_user(login, password=PASSWORD)
        player = PlayerFactory(tournament=tournament, first_name=first, last_name=last, user=user)
        entries[login] = EntryFactory(category=category, player=player)
    board = Board.objects.create(tournament=tournament, number=2)
    match = Match.objects.create(
        stage=stage,
        entry_a=entries["ann"],
        entry_b=entries["bob"],
        entry_c=entries["cy"],
        board=board,
    )
    game = Game.objects.create(match=match, number=1)
    card = reverse("scoring:cards:card", args=[tournament.slug, stage.id, entries["ann"].id])
    story = Story(chromium, server, screenshots)

    ann = story.visitor("Ann", PHONE)
    ann.log_in("ann", PASSWORD, then=card)
    row = ann.page.locator(f"#game-{game.id}")
    expect(row.locator(".opponent")).to_contain_text("Bob Brant")
    expect(row.locator(".opponent")).to_contain_text("Cy Cole")
    for number, r in enumerate(ROUNDS, start=1):
        # The line of the round: there from the start, or added while the game is still short.
        expect(ann.page.locator(f"#id_g{game.id}-r{number}_points_opp2")).to_be_visible()
        for what in ("points", "twenties"):
            for side, value in zip(SIDES, r[what], strict=True):
                ann.page.fill(f"#id_g{game.id}-r{number}_{what}_{side}", str(value))
        ann.page.keyboard.press("Tab")
        if number < len(ROUNDS):
            expect(row.locator(".missing")).to_contain_text(f"round {number + 1} is needed")
    total = f"8{DASH}4{DASH}3 points · 6{DASH}2{DASH}1 20s"
    expect(ann.page.locator(f"#total-{game.id}")).to_have_text(total)
    assert ann.overflow() == 0, "the three boxes of a round fit a phone's width"
    ann.shot("three-player-card-typed", at=row)
    row.get_by_role("button", name="Save the row").click()
    expect(row.locator(".badge")).to_have_text("Filled")

    cy = story.visitor("Cy", PHONE)
    cy.log_in("cy", PASSWORD, then=card)
    row = cy.page.locator(f"#game-{game.id}")
    expect(row.locator(".validate-form h4")).to_have_text("Validation by an opponent")
    row.locator(f"#id_v{game.id}-opponent_number").fill(str(entries["cy"].player.number))
    row.locator(f"#id_v{game.id}-initials").fill("CC")
    row.get_by_role("button", name="Validate").click()
    expect(row.locator(".badge")).to_have_text("Validated by the opponent")
    cy.shot("three-player-card-signed", at=row)

    signed = CardRow.objects.get(card__entry=entries["ann"], game=game)
    assert signed.validated_number == str(entries["cy"].player.number)
    assert story.problems == [], story.problems
