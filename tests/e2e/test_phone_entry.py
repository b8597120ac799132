"""Entering a game on a phone in a few taps, in a real chromium: the player logs in on a 390x844
screen, taps who won each of the four rounds and a few 20s on the steppers, watches the running
total the server adds up, saves, and fixes a round tapped wrongly in place. The card keeps the
screen awake (the Wake Lock API, asked again when the page comes back into view). A referee
types a paper card into the same form from the keyboard alone, and a phone with JavaScript off
posts the same form with plain radios and number boxes.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, Page, expect

from scoring.models import CardRow
from tests.e2e.browsing import DASH, LAPTOP, PHONE, Story, winner_button
from tests.events import OPPONENT, PLAYER, build_small_event

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-phone-entry"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "three-taps-a-round"
#: The most taps a 4-round game may take on a phone, log-in button and save included.
MOST_TAPS = 12
#: Records what the page asks of the Wake Lock API (a headless browser may refuse the real one),
#: and hands back a lock that the test can release as the browser does when the page is hidden.
FAKE_WAKE_LOCK = """
window.__wakeRequests = [];
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request(type) {
      window.__wakeRequests.push(type);
      const lock = new EventTarget();
      lock.released = false;
      lock.release = () => {
        lock.released = true;
        lock.dispatchEvent(new Event("release"));
        return Promise.resolve();
      };
      window.__wakeLock = lock;
      return Promise.resolve(lock);
    },
  },
});
"""


def total_text(points: tuple[int, int], twenties: tuple[int, int]) -> str:
    return f"{points[0]}{DASH}{points[1]} points · {twenties[0]}{DASH}{twenties[1]} 20s"


class Taps:
    """Every click or tap the person makes, counted."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.count += 1


def stepper(page: Page, prefix: str, number: int, side: str, step: int) -> Locator:
    """The + (or -) button beside a round's 20s box of ``side`` ("own" or "opp")."""
    box = page.locator(f"#id_{prefix}-r{number}_twenties_{side}")
    return box.locator(f'xpath=../button[@data-step="{step}"]')


def test_a_player_enters_a_game_in_a_dozen_taps_and_fixes_a_round_in_place(
    chromium, server, screenshots, fast_passwords
):
    event = build_small_event()
    for role in (PLAYER, OPPONENT, "referee"):
        event.users[role].set_password(PASSWORD)
        event.users[role].save()
    slug, game = event.tournament.slug, event.game
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    prefix = f"g{game.id}"
    story = Story(chromium, server, screenshots)

    player = story.visitor("player", PHONE)
    player.context.add_init_script(FAKE_WAKE_LOCK)
    page = player.page
    taps = Taps()
    player.log_in(event.users[PLAYER].username, PASSWORD, then=card)
    taps.count += 1  # the "Log in" button
    row = page.locator(f"#game-{game.id}")
    total = page.locator(f"#total-{game.id}")
    expect(winner_button(page, prefix, 1, "own")).to_be_visible()

    # The screen stays awake while the card is open, and the lock is asked for again when the
    # page comes back into view (the browser drops it whenever the page is hidden).
    page.wait_for_function("window.__wakeRequests.length === 1")
    assert page.evaluate("window.__wakeRequests") == ["screen"]
    page.evaluate(
        "window.__wakeLock.release().then(() => "
        "document.dispatchEvent(new Event('visibilitychange')))"
    )
    page.wait_for_function("window.__wakeRequests.length === 2")

    # Big targets, nothing off-screen, no 5th round in a preliminary game.
    for winner in ("own", "tie", "opp"):
        box = winner_button(page, prefix, 1, winner).bounding_box()
        assert box and box["height"] >= 48 and box["width"] >= 48, (winner, box)
    plus = stepper(page, prefix, 1, "own", 1)
    box = plus.bounding_box()
    assert box and box["height"] >= 48 and box["width"] >= 48, box
    assert player.overflow() == 0
    assert page.locator(f'input[name="{prefix}-r5_winner"]').count() == 0
    player.shot("phone-card-empty")

    # Round 1 won with two 20s against none.
    taps.tap(winner_button(page, prefix, 1, "own"))
    taps.tap(plus)
    taps.tap(plus)
    expect(total).to_contain_text(total_text((2, 0), (2, 0)))
    # Round 2: won it, no 20s (tapped wrongly: it was a tie, fixed below).
    taps.tap(winner_button(page, prefix, 2, "own"))
    expect(total).to_contain_text(total_text((4, 0), (2, 0)))
    # Round 3: lost, the opponent sank one 20.
    taps.tap(winner_button(page, prefix, 3, "opp"))
    taps.tap(stepper(page, prefix, 3, "opp", 1))
    expect(total).to_contain_text(total_text((4, 2), (2, 1)))
    # Round 4: won with one 20.
    taps.tap(winner_button(page, prefix, 4, "own"))
    taps.tap(stepper(page, prefix, 4, "own", 1))
    expect(total).to_have_text(total_text((6, 2), (3, 1)))
    assert player.overflow() == 0
    player.shot("phone-card", at=row.get_by_role("button", name="Save the row"))

    taps.tap(row.get_by_role("button", name="Save the row"))
    expect(row.locator(".badge")).to_have_text("Filled")
    assert taps.count <= MOST_TAPS, f"{taps.count} taps for a 4-round game"
    saved = CardRow.objects.get(card__entry=event.player, game=game)
    assert [r["points"] for r in saved.rounds] == [[2, 0], [2, 0], [0, 2], [2, 0]]
    assert [r["twenties"] for r in saved.rounds] == [[2, 0], [0, 0], [0, 1], [1, 0]]
    player.shot("phone-card-saved")

    # Round 2 was a tie: open the row, tap "Tie" on round 2 and save again, in place.
    row.locator("summary", has_text="Change the row").click()
    tie = winner_button(page, prefix, 2, "tie")
    tie.click()
    expect(total).to_have_text(total_text((5, 3), (3, 1)))
    row.get_by_role("button", name="Save the row").click()
    # The row comes back drawn again (the first save's notice was already on it).
    expect(row.get_by_role("link", name="History (version 2)")).to_be_visible()
    expect(row.locator(".ok")).to_have_text("Row saved.")
    saved.refresh_from_db()
    assert saved.version == 2
    assert [r["points"] for r in saved.rounds] == [[2, 0], [1, 1], [0, 2], [2, 0]]
    assert [r["twenties"] for r in saved.rounds] == [[2, 0], [0, 0], [0, 1], [1, 0]]
    player.shot("phone-card-fixed")
    player.close()

    # The opponent's phone has JavaScript off: plain radios and number boxes post the same form.
    still = story.browser.new_context(
        java_script_enabled=False,
        base_url=server,
        viewport={"width": PHONE.width, "height": PHONE.height},
        is_mobile=True,
        has_touch=True,
    )
    plain = still.new_page()
    their_card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.opponent.id])
    plain.goto(f"/accounts/login/?next={their_card}")
    plain.fill("#id_username", event.users[OPPONENT].username)
    plain.fill("#id_password", PASSWORD)
    with plain.expect_navigation():
        plain.locator("main form").get_by_role("button", name="Log in").click()
    plain.goto(their_card)
    expect(plain.locator(".step").first).to_be_hidden()  # no steppers without the script
    for number, (winner, own, other) in enumerate(
        [("opp", 0, 2), ("tie", 0, 0), ("own", 1, 0), ("opp", 0, 1)], start=1
    ):
        winner_button(plain, prefix, number, winner).click()
        plain.fill(f"#id_{prefix}-r{number}_twenties_own", str(own))
        plain.fill(f"#id_{prefix}-r{number}_twenties_opp", str(other))
    with plain.expect_navigation():
        plain.locator(f"#game-{game.id}").get_by_role("button", name="Save the row").click()
    # The opponent's own row says what the player's row says: the two cards validate each
    # other (both entered by their own players), and the page says so.
    expect(plain.locator("ul.messages")).to_contain_text("Row saved, and validated")
    theirs = CardRow.objects.get(card__entry=event.opponent, game=game)
    assert theirs.status == CardRow.Status.VALIDATED
    assert theirs.validated_how == CardRow.ValidatedHow.AGREEMENT
    assert [r["points"] for r in theirs.rounds] == [[0, 2], [1, 1], [2, 0], [0, 2]]
    assert [r["twenties"] for r in theirs.rounds] == [[0, 2], [0, 0], [1, 0], [0, 1]]
    story.screenshots.take(plain, "phone-card-no-javascript")
    still.close()

    # The referee types a paper card of the player's next game from the keyboard: the cursor
    # starts on round 1's winner, arrow keys choose, tab goes on to the 20s, enter saves.
    second = event.player_games()[1]
    opponent = next(e for e in second.match.entries if e.id != event.player.id)
    referee = story.visitor("referee", LAPTOP)
    paper = reverse(
        "scoring:cards:paper_row", args=[slug, event.stage.id, event.player.id, second.id]
    )
    referee.log_in(event.users["referee"].username, PASSWORD, then=paper)
    keys = referee.page.keyboard
    focused = "document.activeElement.name + '=' + document.activeElement.value"
    assert referee.page.evaluate(focused) == "paper-r1_winner=own"
    for number, (arrows, own, other) in enumerate(
        [(0, "2", "1"), (2, "", "3"), (1, "1", "1"), (0, "4", "")], start=1
    ):
        keys.press("Space")  # select the focused answer (own side)
        for _ in range(arrows):
            keys.press("ArrowRight")
        tab_to = f"paper-r{number}_twenties_own"
        keys.press("Tab")
        assert referee.page.evaluate("document.activeElement.name") == tab_to
        keys.type(own)
        keys.press("Tab")
        keys.type(other)
        keys.press("Tab")
    referee.page.fill("#id_paper-opponent_number", str(opponent.player.number))
    referee.page.fill("#id_paper-initials", "OK")
    referee.shot("paper-card-keyboard")
    with referee.page.expect_navigation():
        keys.press("Enter")
    expect(referee.message()).to_contain_text("validated on paper")
    entered = CardRow.objects.get(card__entry=event.player, game=second)
    assert [r["points"] for r in entered.rounds] == [[2, 0], [0, 2], [1, 1], [2, 0]]
    assert [r["twenties"] for r in entered.rounds] == [[2, 1], [0, 3], [1, 1], [4, 0]]
    referee.close()

    assert not story.problems, story.problems
