"""People in the browser: each has their own browser context (cookies, device size), logs in,
follows links, types into the forms of the pages, and leaves numbered screenshots behind.

Everything a visitor's pages do wrong on the way (a server error, a failed request, a script
error) is collected, and the story asserts at the end that there was none. A page the story had
to reach by typing its address, because no link on the page before led there, is noted too, and
the story fails at the end with the list of those missing links (after telling the rest).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

#: How long a page may take to show what the story waits for (a 2-core machine, a PDF batch).
WAIT_MS = 20_000
expect.set_options(timeout=WAIT_MS)
DASH = "\u2013"  # the en dash the pages print between the two sides' numbers
IGNORED_CONSOLE_ERRORS = ("Failed to load resource", "htmx:sendAbort", "htmx:afterRequest")


@dataclass(frozen=True)
class Device:
    name: str
    width: int
    height: int
    mobile: bool


PHONE = Device("phone", 390, 844, mobile=True)
LAPTOP = Device("laptop", 1280, 800, mobile=False)
#: A projector or a TV in the hall (the hall screen, ``tournaments:screen``).
HALL = Device("hall", 1920, 1080, mobile=False)


class Screenshots:
    """Numbered PNG files, in the order the story takes them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.taken: list[Path] = []

    def take(self, page: Page, name: str, *, full_page: bool = True) -> Path:
        path = self.folder / f"{len(self.taken) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        self.taken.append(path)
        return path

    def keep(self, name: str, content: bytes) -> Path:
        """Keep a downloaded file (a printed PDF) next to the screenshots."""
        path = self.folder / name
        path.write_bytes(content)
        return path


@dataclass
class Story:
    """What the visitors share: the live server, the screenshots and the notes."""

    browser: Browser
    base_url: str
    screenshots: Screenshots
    problems: list[str] = field(default_factory=list)
    missing_links: list[str] = field(default_factory=list)
    app_bugs: list[str] = field(default_factory=list)

    def note_bug(self, ok: bool, text: str) -> None:
        """Something the app gets wrong that the story can go on without: reported as a warning
        at the end, so the rest of the story still runs and is checked."""
        if not ok:
            self.app_bugs.append(text)

    def visitor(self, who: str, device: Device) -> Visitor:
        return Visitor(self, who, device)


class Visitor:
    """One person on one device."""

    def __init__(self, story: Story, who: str, device: Device) -> None:
        self.story = story
        self.who = who
        self.device = device
        self.context: BrowserContext = story.browser.new_context(
            viewport={"width": device.width, "height": device.height},
            is_mobile=device.mobile,
            has_touch=device.mobile,
            base_url=story.base_url,
        )
        self.context.set_default_timeout(WAIT_MS)
        self.page: Page = self.context.new_page()
        self.page.on("response", self._on_response)
        self.page.on("pageerror", lambda exc: self._problem(f"script error: {exc}"))
        self.page.on("console", self._on_console)

    # What went wrong on the way -------------------------------------------------------------

    def _problem(self, text: str) -> None:
        self.story.problems.append(f"{self.who} ({self.device.name}) on {self.page.url}: {text}")

    def _on_response(self, response) -> None:
        if response.status >= 400 and not urlsplit(response.url).path.endswith("favicon.ico"):
            self._problem(f"{response.status} for {response.request.method} {response.url}")

    def _on_console(self, message) -> None:
        # Failed loads are reported by _on_response, with the address. htmx logs a request it
        # cancelled on purpose (hx-sync: a newer total replaces the one in flight) as an error.
        text = message.text
        if message.type == "error" and not text.startswith(IGNORED_CONSOLE_ERRORS):
            self._problem(f"console error: {text}")

    # Moving around ---------------------------------------------------------------------------

    @property
    def path(self) -> str:
        return urlsplit(self.page.url).path

    def go(self, path: str) -> None:
        """Type an address (a person opening a bookmark or a link from elsewhere)."""
        response = self.page.goto(path)
        assert response is None or response.status < 500, f"{path}: {response.status}"

    def follow(self, path: str, *, text: str = "") -> None:
        """Click the link to ``path`` on the current page, as a person would; when the page has
        none, type the address and note the missing link for the report."""
        links = self.page.locator(f'a[href="{path}"]')
        if text:
            links = links.filter(has_text=text)
        if links.count():
            with self.page.expect_navigation():
                links.first.click()
        else:
            self.story.missing_links.append(
                f"no link to {path}{f' ({text!r})' if text else ''} on {self.path}"
            )
            self.go(path)

    def log_in(self, username: str, password: str, then: str) -> None:
        self.go(f"/accounts/login/?next={quote(then)}")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", password)
        with self.page.expect_navigation():
            self.page.locator("main form").get_by_role("button", name="Log in").click()
        expect(self.page.locator("header.top .who")).to_have_text(username)

    def press(self, button: str, within: Locator | None = None) -> None:
        """Press the button named ``button`` of the one form that has it (in ``within``)."""
        scope = within if within is not None else self.page.locator("main")
        form = scope.locator("form").filter(has=self.page.get_by_role("button", name=button))
        self.submit(form, button)

    def submit(self, form: Locator, button: str) -> None:
        """Press the form's button, once the browser's own checks accept what was typed (a page
        that asks for something nobody can type, such as an odd number in an input that steps
        by 2 from 0, fails here with the browser's words)."""
        refused = form.evaluate(
            "f => [...f.querySelectorAll('input:invalid, select:invalid, textarea:invalid')]"
            ".map(e => `${e.name} = ${JSON.stringify(e.value)}: ${e.validationMessage}`)"
        )
        assert not refused, f"{self.path}: the browser refuses to send the form: {refused}"
        form.get_by_role("button", name=button).click()

    def overflow(self) -> int:
        """How many pixels the page is wider than the screen (0: nothing off-screen)."""
        return self.page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )

    def shot(self, name: str, at: Locator | None = None) -> Path:
        """The whole page, or the screen as the person sees it with ``at`` scrolled into it."""
        if at is not None:
            at.scroll_into_view_if_needed()
        return self.story.screenshots.take(
            self.page, f"{name}-{self.device.name}", full_page=at is None
        )

    def message(self) -> Locator:
        return self.page.locator("ul.messages")

    def download(self, href: str) -> bytes:
        """Fetch a file with this visitor's session, as the browser's download would."""
        url = href if "://" in href else self.story.base_url + href
        response = self.context.request.get(url)
        assert response.ok, f"{href}: {response.status}"
        return response.body()

    def close(self) -> None:
        self.context.close()


# Scorecard rows --------------------------------------------------------------------------------


def game_total(rounds: list[dict]) -> str:
    points = [sum(r["points"][i] for r in rounds) for i in (0, 1)]
    twenties = [sum(r["twenties"][i] for r in rounds) for i in (0, 1)]
    return f"{points[0]}{DASH}{points[1]} points · {twenties[0]}{DASH}{twenties[1]} 20s"


#: The answer to "who won the round?" that gives a round's points (own side first).
WINNER_OF = {(2, 0): "own", (1, 1): "tie", (0, 2): "opp"}


def winner_button(page: Page, prefix: str, number: int, winner: str) -> Locator:
    """The big "who won round ``number``?" button of ``winner`` ("own", "tie" or "opp"): the
    label the radio sits in, as a thumb meets it."""
    radio = page.locator(f'input[name="{prefix}-r{number}_winner"][value="{winner}"]')
    return page.locator(f'label[for="{radio.get_attribute("id")}"]')


def enter_round(page: Page, prefix: str, number: int, r: dict) -> None:
    """One round of a two-sided row as a card asks it: who won (the points follow from that),
    then each side's 20s typed into their boxes (own side first)."""
    winner_button(page, prefix, number, WINNER_OF[tuple(r["points"])]).click()
    own, other = r["twenties"]
    page.fill(f"#id_{prefix}-r{number}_twenties_own", str(own))
    page.fill(f"#id_{prefix}-r{number}_twenties_opp", str(other))


def type_rounds(page: Page, game_id: int, rounds: list[dict]) -> None:
    """Enter a game's rounds in its row: who won each one, and the 20s (own side first)."""
    for number, r in enumerate(rounds, start=1):
        enter_round(page, f"g{game_id}", number, r)


def typed_total(page: Page, game_id: int, rounds: list[dict]) -> None:
    """Leave the last box and wait for the game total the page computes while one types."""
    page.keyboard.press("Tab")
    expect(page.locator(f"#total-{game_id}")).to_have_text(game_total(rounds))


def status_badge(row: Locator) -> Locator:
    """The row's status in its header ("Filled", "Validated by the opponent", "Disputed"): the
    row shows other badges too (the official result, a doubt about a round)."""
    return row.locator("header .badge").first


def fill_row(page: Page, game_id: int, rounds: list[dict], badge: str | None = "Filled") -> None:
    """Fill a row on one's own card: the total follows the boxes as they are typed, then the row
    is saved and waits for the opponent's signature (``badge``: what the row then says; the
    other card of the game saying the same validates it, saying otherwise disputes it; None
    when the save is expected to be refused)."""
    type_rounds(page, game_id, rounds)
    typed_total(page, game_id, rounds)
    save_row(page, game_id, badge)


def save_row(page: Page, game_id: int, badge: str | None = "Filled") -> None:
    row = page.locator(f"#game-{game_id}")
    row.get_by_role("button", name="Save the row").click()
    if badge is not None:
        expect(status_badge(row)).to_have_text(badge)


def save_anyway(page: Page, game_id: int) -> None:
    """The row was refused because it contradicts the other card, which is signed: both shown,
    the player saves it anyway, and the game goes to the head referee."""
    row = page.locator(f"#game-{game_id}")
    expect(row.locator(".row-errors")).to_contain_text("your row contradicts")
    row.get_by_label("Save anyway: this opens a dispute for the head referee").check()
    row.get_by_role("button", name="Save the row").click()
    expect(status_badge(row)).to_have_text("Disputed")


def validate_row(page: Page, game_id: int, number: int, initials: str) -> None:
    """The opponent signs the row on their own phone (their login or their private link), the
    card open at the row: the card's owner is never offered the form."""
    row = page.locator(f"#game-{game_id}")
    row.locator(f"#id_v{game_id}-opponent_number").fill(str(number))
    row.locator(f"#id_v{game_id}-initials").fill(initials)
    row.get_by_role("button", name="Validate").click()
    expect(status_badge(row)).to_have_text(re.compile("Validated|Disputed"))


def open_private_link(story: Story, who: str, path: str, device: Device) -> Visitor:
    """A player with no login opens their private link (the QR code of their sheet) on their
    phone: the page lists their cards."""
    phone = story.visitor(who, device)
    phone.go(path)
    expect(phone.page.locator(".private-link")).to_be_visible()
    return phone


def sign_opponents_row(phone: Visitor, card_path: str, game_id: int, number, initials: str):
    """On their own phone, the opponent opens the card they play against and signs the row."""
    phone.go(card_path)
    validate_row(phone.page, game_id, number, initials)
