"""A phone at the board with the hall's Wi-Fi gone, in a real chromium: the card is kept on the
phone by the site's service worker, a row saved offline waits in the phone's outbox saying so,
survives a reload and the browser being closed, and reaches the server once when the network is
back; a save whose answer is lost on the way is sent again and recognised; two phones offline
that say different things about one game end in a dispute that names the round.

Playwright's offline mode (``set_offline``, ``offline=True``) cuts the page and its service
worker alike in this chromium: the worker's network-first fetch fails and it answers from what
it kept (checked below: a name changed on the server meanwhile is not on the page read offline).
The server itself keeps running, so every "not yet sent" is also checked in the database: no row
while offline, then exactly one row of one version.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scoring.models import CardRow, RowSubmission
from scoring.scorecards.services import card_for, fill_row
from tests.e2e.browsing import PHONE, WAIT_MS, Story, type_rounds
from tests.e2e.conftest import CHROMIUM_ARGS
from tests.events import OPPONENT, PLAYER, WIN, build_small_event
from tournaments.services.links import link_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-offline-card"),
    pytest.mark.django_db(transaction=True),
]

WAITING = "Saved on this phone, not yet sent"
#: The opponent's card of the same game, from their side, differing from WIN in round 2 only.
THEIRS = [
    {"points": [0, 2], "twenties": [1, 3]},
    {"points": [1, 1], "twenties": [1, 1]},
    {"points": [0, 2], "twenties": [1, 3]},
    {"points": [2, 0], "twenties": [2, 1]},
]


class Phone:
    """A phone's browser with its own profile on disk: closing it closes the browser, and opening
    it again finds what the browser kept (the service worker, its copies, the outbox)."""

    def __init__(self, story: Story, profile: Path, *, background_sync: bool = True) -> None:
        self.story = story
        self.profile = profile
        self.background_sync = background_sync
        self.context: BrowserContext | None = None
        self.page: Page | None = None
        self.problems: list[str] = []

    def open(self, *, offline: bool = False) -> Page:
        self.context = self.story.browser.browser_type.launch_persistent_context(
            str(self.profile),
            executable_path=shutil.which("chromium"),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": PHONE.width, "height": PHONE.height},
            is_mobile=True,
            has_touch=True,
            base_url=self.story.base_url,
            offline=offline,
        )
        self.context.set_default_timeout(WAIT_MS)
        if not self.background_sync:
            # Playwright's offline mode is the page's and its worker's, not the browser's: the
            # browser, seeing the machine online, fires a Background Sync at once, and again
            # when it starts, before Playwright reaches the worker. A phone whose browser has no
            # Background Sync (Safari, Firefox) is shown this way: the page alone sends.
            self.context.add_init_script("delete ServiceWorkerRegistration.prototype.sync;")
        self.page = self.context.pages[0] if self.context.pages else self.context.new_page()
        self.page.on("pageerror", lambda exc: self.problems.append(f"script error: {exc}"))
        self.page.on("response", self._on_response)
        return self.page

    def _on_response(self, response) -> None:
        if response.status >= 400 and not response.url.endswith("favicon.ico"):
            self.problems.append(f"{response.status} for {response.request.method} {response.url}")

    def close(self) -> None:
        assert self.context is not None
        self.context.close()
        self.context = self.page = None

    def controlled(self) -> None:
        """Wait until the site's service worker is active, then load the page once more through
        it: from now on it runs the page, and the phone keeps a copy of it."""
        assert self.page is not None
        active = self.page.evaluate(
            "ms => Promise.race([navigator.serviceWorker.ready.then(() => true),"
            " new Promise(done => setTimeout(() => done(false), ms))])",
            WAIT_MS,
        )
        assert active, "the service worker did not start"
        self.page.reload()
        self.page.wait_for_function(
            "() => navigator.serviceWorker.controller !== null", polling=100
        )

    def outbox(self) -> list[dict]:
        assert self.page is not None
        return self.page.evaluate("self.CrokiOutbox.all()")


def overflow(page: Page) -> int:
    return page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


def history(row: CardRow) -> int:
    return CardRow.history.filter(id=row.pk).count()


def test_a_row_saved_offline_survives_reload_and_closing_and_is_sent_once(
    chromium, server, screenshots, tmp_path
):
    event = build_small_event()
    slug, game = event.tournament.slug, event.game
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    link = reverse("scoring:private_link", args=[slug, link_of(event.player).token])
    story = Story(chromium, server, screenshots)
    phone = Phone(story, tmp_path / "phone", background_sync=False)
    prefix = f"g{game.id}"

    # Online: the player opens their private link, then their card, which the phone now keeps.
    page = phone.open()
    page.goto(link)
    expect(page.locator(".private-link")).to_be_visible()
    manifest = page.locator('link[rel="manifest"]').get_attribute("href")
    assert manifest == reverse("manifest")
    page.goto(card)
    phone.controlled()
    row = page.locator(f"#game-{game.id}")
    expect(row.get_by_role("button", name="Save the row")).to_be_visible()

    # Offline, the player enters the game and saves: the row says it is kept on the phone.
    phone.context.set_offline(True)
    assert page.evaluate("navigator.onLine") is False
    type_rounds(page, game.id, WIN)
    row.get_by_role("button", name="Save the row").click()
    notice = row.locator("[data-outbox-notice]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(WAITING)
    box = notice.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE.width, box
    assert overflow(page) == 0
    story.screenshots.take(page, "offline-row-kept-on-the-phone")
    assert not CardRow.objects.filter(game=game).exists()
    kept = phone.outbox()
    assert len(kept) == 1 and kept[0]["state"] == "pending"
    key = kept[0]["key"]
    assert re.fullmatch(r"[0-9a-f-]{36}", key), key
    assert [f"{prefix}-version", "0"] in kept[0]["fields"]

    # Meanwhile the player's name changes on the server: a page read offline does not know it.
    event.player.player.first_name = "Renamed"
    event.player.player.save(update_fields=["first_name"])

    # Reloaded offline: the kept card, with the row's notice and what was typed in its boxes.
    page.reload()
    expect(notice).to_contain_text(WAITING)
    expect(page.locator(".card-header")).not_to_contain_text("Renamed")
    expect(page.locator(f'input[name="{prefix}-r1_winner"][value="own"]')).to_be_checked()
    expect(page.locator(f'input[name="{prefix}-r4_winner"][value="opp"]')).to_be_checked()
    expect(page.locator(f"#id_{prefix}-r1_twenties_own")).to_have_value("3")
    expect(page.locator(f"#id_{prefix}-r4_twenties_opp")).to_have_value("2")
    assert not CardRow.objects.filter(game=game).exists()

    # The browser is closed, and opened again the next morning still without network.
    phone.close()
    page = phone.open(offline=True)
    page.goto(card)
    row = page.locator(f"#game-{game.id}")
    expect(row.locator("[data-outbox-notice]")).to_contain_text(WAITING)
    # The row's header says where the row is, not the server's last word ("Not filled").
    expect(row.locator(".on-phone")).to_have_text("On this phone, not sent yet")
    expect(row.locator("header .badge")).to_be_hidden()
    expect(page.locator(f"#id_{prefix}-r1_twenties_own")).to_have_value("3")
    assert [entry["key"] for entry in phone.outbox()] == [key]
    assert not CardRow.objects.filter(game=game).exists()

    # The network is back: the row is sent, drawn again as the server has it, and written once.
    phone.context.set_offline(False)
    expect(row.locator(".badge")).to_have_text("Filled")
    expect(row.locator(".on-phone")).to_be_hidden()
    expect(row.locator(".ok")).to_have_text("Row saved.")
    expect(row.locator("[data-outbox-notice]")).to_be_hidden()
    story.screenshots.take(page, "offline-row-sent-when-the-network-returned")
    saved = CardRow.objects.get(game=game, card__entry=event.player)
    assert [(r["points"], r["twenties"]) for r in saved.rounds] == [
        (r["points"], r["twenties"]) for r in WIN
    ]
    assert saved.version == 1 and history(saved) == 1
    assert RowSubmission.objects.get().key == key
    assert phone.outbox() == []

    # The next visit, online: the saved row, no notice, nothing sent again.
    page.reload()
    expect(page.locator(".card-header")).to_contain_text("Renamed")
    expect(row.locator(".badge")).to_have_text("Filled")
    expect(row.locator("[data-outbox-notice]")).to_be_hidden()
    saved.refresh_from_db()
    assert saved.version == 1 and history(saved) == 1
    assert CardRow.objects.filter(game=game).count() == 1

    # The app added to the home screen starts on this card, online and offline alike.
    start = phone.context.request.get(manifest).json()["start_url"]
    for offline in (False, True):
        phone.context.set_offline(offline)
        page.goto(start)
        assert urlsplit(page.url).path == card, (offline, page.url)
        expect(row.locator(".badge")).to_have_text("Filled")
    phone.close()
    assert not phone.problems, phone.problems


def test_a_save_whose_answer_was_lost_is_sent_again_and_written_once(
    chromium, server, screenshots, tmp_path
):
    """The request reached the server and the row was written, but the answer never reached the
    phone (the Wi-Fi dropped on the way back): the phone keeps the entry with the key it was
    sent with, sends it again, and the server recognises it: "already saved", one version."""
    event = build_small_event()
    slug, game = event.tournament.slug, event.game
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    link = reverse("scoring:private_link", args=[slug, link_of(event.player).token])
    story = Story(chromium, server, screenshots)
    # The page alone sends (the worker's Background Sync would send it again at once, as the
    # next story shows, and the row would be drawn "already saved" before it could be looked at).
    phone = Phone(story, tmp_path / "phone", background_sync=False)
    page = phone.open()
    page.goto(link)
    page.goto(card)
    phone.controlled()
    row = page.locator(f"#game-{game.id}")

    fill_url = reverse(
        "scoring:cards:fill_row", args=[slug, event.stage.id, event.player.id, game.id]
    )
    delivered: list[int] = []

    def lose_the_answer(route) -> None:
        answer = route.fetch()  # the request reaches the server, which writes the row
        delivered.append(answer.status)
        route.abort("internetdisconnected")  # ... and the answer is lost on the way back

    page.route(f"**{fill_url}", lose_the_answer)
    type_rounds(page, game.id, WIN)
    row.get_by_role("button", name="Save the row").click()
    expect(row.locator("[data-outbox-notice]")).to_contain_text(WAITING)
    assert delivered == [200]
    saved = CardRow.objects.get(game=game, card__entry=event.player)
    assert saved.version == 1 and history(saved) == 1
    key = RowSubmission.objects.get(row=saved).key
    assert [entry["key"] for entry in phone.outbox()] == [key]
    page.unroute(f"**{fill_url}")

    # The phone notices the network again: the entry goes once more, with the same key.
    phone.context.set_offline(True)
    phone.context.set_offline(False)
    expect(row.locator(".ok")).to_contain_text("Already saved")
    expect(row.locator(".badge")).to_have_text("Filled")
    story.screenshots.take(page, "offline-answer-lost-already-saved")
    saved.refresh_from_db()
    assert saved.version == 1 and history(saved) == 1
    assert RowSubmission.objects.count() == 1 and phone.outbox() == []

    # The phone stops acting for the player (handed to someone else): the pages it kept go.
    assert page.evaluate("() => caches.has('crokinole-pages')") is True
    with page.expect_navigation():
        page.get_by_role("button", name=re.compile("Stop acting for")).click()
    assert page.evaluate("() => caches.has('crokinole-pages')") is False
    phone.close()
    assert not phone.problems, phone.problems


def test_a_kept_row_based_on_an_old_version_is_refused_never_written_over_the_newer(
    chromium, server, screenshots, tmp_path
):
    """While the phone was offline, a referee at the board wrote the player's row: the phone's
    entry, made on the row as it was before, reaches the server and is refused with both
    versions side by side and the typed values kept; it leaves the outbox (never sent again by
    itself), and the referee's row stands."""
    event = build_small_event()
    slug, game = event.tournament.slug, event.game
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    link = reverse("scoring:private_link", args=[slug, link_of(event.player).token])
    story = Story(chromium, server, screenshots)
    phone = Phone(story, tmp_path / "phone", background_sync=False)
    page = phone.open()
    page.goto(link)
    page.goto(card)
    phone.controlled()
    phone.context.set_offline(True)
    type_rounds(page, game.id, WIN)
    row = page.locator(f"#game-{game.id}")
    row.get_by_role("button", name="Save the row").click()
    expect(row.locator("[data-outbox-notice]")).to_contain_text(WAITING)

    theirs = [{"points": [0, 2], "twenties": [0, 4]}] * 3 + [{"points": [2, 0], "twenties": [2, 0]}]
    written = fill_row(
        card=card_for(event.stage, event.player),
        game=game,
        rounds=theirs,
        user=event.users["referee"],
        version=0,
    )

    phone.context.set_offline(False)
    errors = row.locator(".row-errors")
    expect(errors).to_contain_text("Changed by someone else")
    expect(row.locator(".saved-now")).to_contain_text("Saved now")
    expect(page.locator(f"#id_g{game.id}-r1_twenties_own")).to_have_value("3")
    assert overflow(page) == 0
    story.screenshots.take(page, "offline-entry-refused-side-by-side")
    assert phone.outbox() == []
    written.refresh_from_db()
    assert written.version == 1 and history(written) == 1
    assert written.rounds[0]["points"] == [0, 2]
    assert not RowSubmission.objects.exists()
    phone.close()
    assert not phone.problems, phone.problems


def test_the_service_worker_sends_a_kept_row_with_no_card_page_open(
    chromium, server, screenshots, tmp_path
):
    """Background Sync: the row saved offline is sent by the service worker when the browser
    finds the network again, with none of the site's pages open: the player put the phone away
    after saving. (Chromium and Edge on Android have Background Sync; Safari and Firefox do
    not, and send on the next visit, as the first story shows.)"""
    event = build_small_event()
    slug, game = event.tournament.slug, event.game
    card = reverse("scoring:cards:card", args=[slug, event.stage.id, event.player.id])
    link = reverse("scoring:private_link", args=[slug, link_of(event.player).token])
    story = Story(chromium, server, screenshots)
    phone = Phone(story, tmp_path / "phone")
    page = phone.open()
    page.goto(link)
    page.goto(card)
    phone.controlled()
    phone.context.set_offline(True)
    type_rounds(page, game.id, WIN)
    row = page.locator(f"#game-{game.id}")
    row.get_by_role("button", name="Save the row").click()
    expect(row.locator("[data-outbox-notice]")).to_contain_text(WAITING)
    assert page.evaluate("() => navigator.serviceWorker.ready.then(r => r.sync.getTags())") == [
        "crokinole-outbox"
    ]
    key = phone.outbox()[0]["key"]
    assert not CardRow.objects.filter(game=game).exists()
    phone.close()

    # The browser starts again with the network there, and opens nothing of the site.
    phone.open()
    phone.page.goto("about:blank")
    deadline = time.monotonic() + WAIT_MS / 1000
    while not CardRow.objects.filter(game=game).exists() and time.monotonic() < deadline:
        time.sleep(0.25)
    saved = CardRow.objects.get(game=game, card__entry=event.player)
    assert saved.version == 1 and history(saved) == 1
    assert RowSubmission.objects.get().key == key

    # The card, opened later, shows the row as saved; nothing waits any more.
    page = phone.page
    page.goto(card)
    row = page.locator(f"#game-{game.id}")
    expect(row.locator(".badge")).to_have_text("Filled")
    expect(row.locator("[data-outbox-notice]")).to_be_hidden()
    assert phone.outbox() == []
    saved.refresh_from_db()
    assert saved.version == 1 and history(saved) == 1
    phone.close()
    assert not phone.problems, phone.problems


def test_two_phones_offline_with_different_rounds_end_in_a_dispute_naming_the_round(
    chromium, server, screenshots, tmp_path, fast_passwords
):
    """Each player enters the game on their own card, on their own phone (their private link),
    both offline; back online, both rows reach the server, and since they differ in round 2 the
    game goes to the head referee, whose dispute page marks round 2."""
    event = build_small_event()
    slug, game = event.tournament.slug, event.game
    story = Story(chromium, server, screenshots)
    phones = {}
    for role, entry, rounds in ((PLAYER, event.player, WIN), (OPPONENT, event.opponent, THEIRS)):
        phone = Phone(story, tmp_path / role)
        page = phone.open()
        page.goto(reverse("scoring:private_link", args=[slug, link_of(entry).token]))
        page.goto(reverse("scoring:cards:card", args=[slug, event.stage.id, entry.id]))
        phone.controlled()
        phone.context.set_offline(True)
        type_rounds(page, game.id, rounds)
        row = page.locator(f"#game-{game.id}")
        row.get_by_role("button", name="Save the row").click()
        expect(row.locator("[data-outbox-notice]")).to_contain_text(WAITING)
        phones[role] = phone
    assert not CardRow.objects.filter(game=game).exists()

    for phone in phones.values():
        phone.context.set_offline(False)
        expect(phone.page.locator(f"#game-{game.id} [data-outbox-notice]")).to_be_hidden()
    rows = {row.card.entry_id: row for row in CardRow.objects.filter(game=game)}
    assert set(rows) == {event.player.id, event.opponent.id}
    assert all(history(row) >= 1 for row in rows.values())
    assert RowSubmission.objects.count() == 2
    assert {row.status for row in rows.values()} == {CardRow.Status.DISPUTED}, {
        row.card.entry.name: row.status for row in rows.values()
    }
    for phone in phones.values():
        phone.page.reload()
        expect(phone.page.locator(f"#game-{game.id} .badge")).to_have_text("Disputed")

    # The head referee's queue shows the game, round 2 marked as the one that differs.
    head = event.users["head-referee"]
    head.set_password("rules-on-the-game")
    head.save()
    referee = story.visitor("head referee", PHONE)
    referee.log_in(
        head.username, "rules-on-the-game", then=reverse("scoring:cards:disputes", args=[slug])
    )
    differs = referee.page.locator("tr.differs")
    expect(differs).to_have_count(1)
    expect(differs.locator("th")).to_contain_text("2")
    referee.shot("offline-two-phones-dispute")
    referee.close()
    for phone in phones.values():
        phone.close()
        assert not phone.problems, phone.problems
