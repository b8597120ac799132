"""A whole game in a few taps, and a look before signing, in a real chromium on 390px phones.

The audit's example (Dan v Marc-André: rounds won, lost, tied, won; 20s 6-2) cost its owner 14
taps and the opponent 4 taps, a QR scan and 6 keystrokes. Here the owner, their private link
open, opens the card, taps who won each round and each side's 20s on a chip per count, and
saves: at most 12 taps. The opponent opens their own private link, where the row waits for
their signature with its rounds inline, and taps "Agree": the ID and initials come from the
phone's identity, no keystroke, at most 3 taps. A row with a round the discs cannot make is
flagged on the validator's pages, naming the round; the validator may still sign it (a
warning, never a refusal).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from scoring.models import CardRow
from scoring.scorecards.services import card_for, fill_row
from tests.e2e.browsing import DASH, PHONE, Story, open_private_link, winner_button
from tests.events import build_small_event
from tournaments.services.links import link_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-quick-scoring"),
    pytest.mark.django_db(transaction=True),
]

#: The most taps a whole game may cost its owner, and its opponent (issue: "Fewer taps").
OWNER_TAPS = 12
OPPONENT_TAPS = 3
#: The audit's example, from the owner's side: who won each round, and each side's 20s in it
#: (6-2 in all).
EXAMPLE = [("own", 2, 0), ("opp", 1, 1), ("tie", 1, 1), ("own", 2, 0)]
POINTS = {"own": [2, 0], "tie": [1, 1], "opp": [0, 2]}


class Taps:
    """Every tap the person makes, counted (opening a page from a bookmark counts as one)."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.count += 1


def chip(page: Page, prefix: str, number: int, side: str, count: int) -> Locator:
    """The chip that sets round ``number``'s 20s of ``side`` ("own" or "opp") to ``count``."""
    box = page.locator(f"#id_{prefix}-r{number}_twenties_{side}")
    return box.locator(f'xpath=ancestor::span[@class="stepper"]//button[@data-set="{count}"]')


def test_a_whole_game_costs_its_owner_12_taps_and_the_opponent_3(chromium, server, screenshots):
    event = build_small_event()
    slug, game, stage = event.tournament.slug, event.game, event.stage
    prefix = f"g{game.id}"
    story = Story(chromium, server, screenshots)
    card_path = reverse("scoring:cards:card", args=[slug, stage.id, event.player.id])

    # The owner: private link open (their sheet's QR), then the card, the rounds, save.
    owner = open_private_link(story, "owner", f"/t/{slug}/me/{link_of(event.player).token}/", PHONE)
    page = owner.page
    taps = Taps()
    card_link = page.locator(f'.card-links a[href="{card_path}"]')
    with page.expect_navigation():
        taps.tap(card_link)
    expect(winner_button(page, prefix, 1, "own")).to_be_visible()
    # Chips are big enough for a thumb, and nothing is off-screen.
    for count in range(5):
        box = chip(page, prefix, 1, "own", count).bounding_box()
        assert box and box["height"] >= 48 and box["width"] >= 40, (count, box)
    assert owner.overflow() == 0
    for number, (winner, own, other) in enumerate(EXAMPLE, start=1):
        taps.tap(winner_button(page, prefix, number, winner))
        for side, count in (("own", own), ("opp", other)):
            if count:  # no 20s is the box's default: no tap
                taps.tap(chip(page, prefix, number, side, count))
    total = page.locator(f"#total-{game.id}")
    expect(total).to_have_text(f"5{DASH}3 points · 6{DASH}2 20s")
    expect(chip(page, prefix, 2, "opp", 1)).to_have_attribute("aria-pressed", "true")
    expect(chip(page, prefix, 2, "opp", 0)).to_have_attribute("aria-pressed", "false")
    assert owner.overflow() == 0
    row = page.locator(f"#game-{game.id}")
    owner.shot("quick-owner-rounds", at=row.get_by_role("button", name="Save the row"))
    taps.tap(row.get_by_role("button", name="Save the row"))
    expect(row.locator(".badge")).to_have_text("Filled")
    assert taps.count <= OWNER_TAPS, f"the owner's game cost {taps.count} taps"
    saved = CardRow.objects.get(card__entry=event.player, game=game)
    assert [r["points"] for r in saved.rounds] == [POINTS[w] for w, _, _ in EXAMPLE]
    assert [r["twenties"] for r in saved.rounds] == [[o, t] for _, o, t in EXAMPLE]

    # The opponent: their own private link (a bookmark: one tap), the row inline, one Agree.
    opponent = story.visitor("opponent", PHONE)
    their = Taps()
    opponent.go(f"/t/{slug}/me/{link_of(event.opponent).token}/")
    their.count += 1
    waiting = opponent.page.locator(".to-sign")
    expect(waiting).to_contain_text(event.player.name)
    expect(waiting.locator("table.rounds-view tbody tr")).to_have_count(4)
    expect(waiting.locator(".doubts")).to_have_count(0)  # nothing looks wrong on this row
    expect(opponent.page.locator(".to-sign input[type=text]")).to_have_count(0)  # nothing to type
    assert opponent.overflow() == 0
    agree = waiting.get_by_role("button", name="Agree")
    opponent.shot("quick-opponent-agrees", at=agree)
    with opponent.page.expect_navigation():
        their.tap(agree)
    expect(opponent.message()).to_contain_text("Row validated by the opponent.")
    assert their.count <= OPPONENT_TAPS, f"the opponent's signature cost {their.count} taps"
    signed = CardRow.objects.get(pk=saved.pk)
    assert signed.status == CardRow.Status.VALIDATED
    assert signed.validated_entry_id == event.opponent.id
    assert signed.validated_number == str(event.opponent.player.number)
    person = event.opponent.player
    assert signed.validated_initials == (person.first_name[0] + person.last_name[0]).upper()
    # Back on their page, nothing waits any more.
    expect(opponent.page.locator(".to-sign")).to_have_count(0)
    assert not story.problems, story.problems


def test_a_round_the_discs_cannot_make_is_flagged_on_the_validators_page(
    chromium, server, screenshots
):
    event = build_small_event()
    slug, game, stage = event.tournament.slug, event.game, event.stage
    # Round 2 won with no 20s against six: 8 discs without a 20 make at most 120, which six 20s
    # already make. The engine takes it (it has no board scores); the check flags it.
    planted = [
        {"points": [2, 0], "twenties": [2, 1]},
        {"points": [2, 0], "twenties": [0, 6]},
        {"points": [0, 2], "twenties": [1, 2]},
        {"points": [2, 0], "twenties": [3, 1]},
    ]
    row = fill_row(
        card=card_for(stage, event.player), game=game, rounds=planted, user=event.users["player"]
    )
    story = Story(chromium, server, screenshots)
    validator = open_private_link(
        story, "opponent", f"/t/{slug}/me/{link_of(event.opponent).token}/", PHONE
    )
    page = validator.page
    doubts = page.locator(".to-sign .doubts")
    expect(doubts).to_contain_text("Round 2:")
    expect(doubts).to_contain_text(f"{event.player.name} won it, but with 0 20s")
    expect(doubts.locator(".doubt-impossible")).to_have_count(1)
    assert validator.overflow() == 0
    validator.shot("impossible-round-on-the-private-link-page", at=doubts)

    # The card's row, where the QR or the link leads: the same doubt on the validation form.
    card_path = reverse("scoring:cards:card", args=[slug, stage.id, event.player.id])
    with page.expect_navigation():
        page.locator(f'.to-sign a[href="{card_path}#game-{game.id}"]').click()
    form = page.locator(f"#game-{game.id} form.validate-form")
    expect(form.locator(".doubts")).to_contain_text("Round 2:")
    expect(form.locator('.doubt[data-round="2"]')).to_have_count(1)
    validator.shot("impossible-round-on-the-validation-form", at=form)

    # A warning, never a refusal: the validator agrees, and the row is validated.
    form.get_by_role("button", name="Agree").click()
    expect(page.locator(f"#game-{game.id} .row-head .badge")).to_have_text(
        "Validated by the opponent"
    )
    assert CardRow.objects.get(pk=row.pk).status == CardRow.Status.VALIDATED
    assert not story.problems, story.problems
