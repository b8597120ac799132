"""Event day in a real chromium, from an empty database to the final standings.

Only one thing is made outside the browser: the organizer's login, holding the site permission
to create tournaments (someone must log in first). Everything else is done on the pages, by the
people who do it on the day:

- the organizer, on a laptop (1280x800): creates the tournament, adds Competitive Singles, 12
  boards, creates the staff's accounts on the staff page (a co-organizer, a head referee, a
  referee, a table volunteer: each opens their one-time set-password link in their own browser,
  chooses a password and logs in), imports 24 players from a CSV file, adds a 4-game preliminary
  (8 advance) and a knockout playoff with a match for 3rd place, draws (the draw page offers to
  withdraw the one player who did not come), hands out the players' private links, withdraws a
  player after the draw (their last game becomes a walkover), advances after the shoot-out;
- the co-organizer checks in 23 players at once by their ID numbers and prints round 1's cards;
- the players, each on their own phone (390x844), open their private links, fill their rows of
  round of play 1 and sign their opponents' rows; two cards of one game disagree;
- the head referee rules on that dispute; the table volunteer types in the two paper cards of one
  game, the later rounds from paper, and verifies the cards; the referee records the shoot-out
  that settles the tie on the cut line, reached from the organizer's cut-line message;
- in the final, tied 5-5 after a tied 5th round, the 6th round decides: the winner's phone adds
  the deciding lines as they are typed, the opponent signs on theirs;
- the public, on a phone: the bracket and the final standings.

The right results come from the plan (``event_day_steps``): decided from the draw before play,
added up by the test, never read from the app's own pages. Nobody opens /admin/. Screenshots are
left in tests/artifacts/e2e/event-day/, with the story's duration, step by step.

The story is told in steps, one test each, in order (``test_1_...`` to ``test_17_...``), in one
pytest-xdist group: they share one database, one live server and one chromium for the module
(``story_db``, ``story_server``), and what a step leaves for the next in ``EventDay``. After a
step fails, the later ones are skipped, naming it; a later step picked out alone fails, saying
it needs the steps before it.
"""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test.utils import override_settings
from django.urls import reverse
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.e2e import event_day_steps as plan_of
from tests.e2e.browsing import LAPTOP, PHONE, Screenshots, Story, enter_round
from tests.e2e.conftest import PHASE_REPORTS, SCREENSHOT_DIR
from tests.e2e.event_day_steps import (
    ABSENT,
    BY_NUMBER,
    CATEGORY,
    ORGANIZER,
    PASSWORD,
    PLAYERS,
    PLAYOFF_LABEL,
    PRELIMINARY_LABEL,
    SHOOTOUT,
    SLUG,
    STAFF,
    EventDay,
    Hall,
    Pairing,
    Stopwatch,
    bracket_winner,
    card_path,
    drawn,
    enter_paper_card,
    entry_of,
    final_row,
    knockout_on_paper,
    mirror,
    numbers,
    official_rounds,
    phone_fill,
    phone_validate,
    preliminary_standings,
    standings_lines,
    table_enters_rounds,
    type_final_row,
    verify_waiting_cards,
    with_mistake,
)
from tests.factories import allow_creating_tournaments
from tournaments.models import Entry, Match, Tournament, TournamentRole

pytestmark = [
    pytest.mark.browser,
    # One story, one pytest-xdist worker: its steps run in order (``make test`` uses loadgroup).
    pytest.mark.xdist_group("story-event-day"),
    # The test database is set up for it; the steps share it (``_django_db_helper`` below).
    pytest.mark.django_db(transaction=True),
]

DURATION_FILE = "event-day-duration.txt"


@pytest.fixture
def _django_db_helper(story_db) -> None:
    """Each step finds the database as the step before left it: pytest-django's own fixture
    of this name, which empties the database after each test marked ``django_db``, gives way
    here to the story's database (``story_db``), emptied once after the last step."""


@pytest.fixture(scope="module")
def event_day_shots() -> Screenshots:
    """This story's screenshots, PDFs and duration, in a folder of their own under the
    browser stories' artifacts, emptied first so that what is there is this run's."""
    folder = SCREENSHOT_DIR / "event-day"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        if old.suffix in (".png", ".pdf", ".txt"):
            old.unlink()
    return Screenshots(folder)


@pytest.fixture(scope="module")
def event_day_media(tmp_path_factory) -> Iterator[None]:
    """Printed batches are stored here, not in the repository's media folder."""
    with override_settings(MEDIA_ROOT=str(tmp_path_factory.mktemp("event-day-media"))):
        yield


@pytest.fixture(scope="module")
def day(chromium, story_server, event_day_shots, event_day_media) -> Iterator[EventDay]:
    """The day, from the first step to the last; its duration is kept with the screenshots."""
    clock = Stopwatch()
    day = EventDay(Hall(Story(chromium, story_server, event_day_shots)), clock)
    try:
        yield day
    finally:
        line = f"EVENT DAY STORY took {clock.total:.0f} s"
        print(f"\n{line}")
        (event_day_shots.folder / DURATION_FILE).write_text("\n".join([line, *clock.laps, ""]))


@pytest.fixture(autouse=True)
def step(request: pytest.FixtureRequest, day: EventDay) -> Iterator[None]:
    """Each step runs where the one before it left the event, or not at all (``EventDay``)."""
    name = request.node.name
    day.begin(name)
    yield
    reports = request.node.stash.get(PHASE_REPORTS, {})
    day.end(name, passed="call" in reports and reports["call"].passed)


def test_1_organizer_sets_up_the_event(day: EventDay) -> None:
    """The organizer logs in, creates the tournament (landing on its dashboard), adds
    Competitive Singles and sets 12 boards, each confirmed by the page's message."""
    # The one thing made outside the browser: the first login, allowed to create
    # tournaments (the site permission a superuser or another organizer gives).
    organizer = User.objects.create_user(ORGANIZER, password=PASSWORD)
    allow_creating_tournaments(organizer)

    org = day.hall.person("organizer", LAPTOP)
    page = org.page
    org.log_in(ORGANIZER, PASSWORD, then="/")
    org.follow("/new/")
    page.fill("#id_name", "Wellesley Event Day")
    page.fill("#id_slug", SLUG)
    page.fill("#id_venue", "Wellesley Community Centre")
    page.fill("#id_starts_on", "2026-06-13")
    page.fill("#id_ends_on", "2026-06-13")
    org.shot("new-tournament")
    org.press("Create the tournament")
    expect(org.message()).to_contain_text("Wellesley Event Day is created")
    assert org.path == f"/t/{SLUG}/manage/"

    org.follow(f"/t/{SLUG}/manage/categories/new/", text="Add categories")
    page.get_by_label(re.compile(rf"{CATEGORY} \(singles")).check()
    org.press("Add the ticked categories")
    expect(org.message()).to_contain_text(f"Added {CATEGORY}.")

    org.follow(f"/t/{SLUG}/manage/boards/", text="Boards")
    page.fill("#id_count", "12")
    org.press("Set")
    expect(org.message()).to_contain_text("The hall has 12 boards.")
    day.org = org


def test_2_staff_choose_their_passwords(day: EventDay) -> None:
    """The organizer creates each staff account on the staff page; the set-password link is
    shown once (gone when the page is opened again), and each staff member opens it in their
    own browser, chooses a password and logs in. The staff page lists each with their role,
    and the four roles (and the organizer's) are held in the tournament."""
    org = day.org
    page = org.page
    org.follow(f"/t/{SLUG}/manage/staff/", text="Staff")
    staff = {}
    for number, (username, first, last, role, device) in enumerate(STAFF):
        page.fill("#id_account-username", username)
        page.fill("#id_account-first_name", first)
        page.fill("#id_account-last_name", last)
        page.select_option("#id_account-role", label=role)
        org.press("Create the account")
        expect(org.message()).to_contain_text(f"Created {username} as {role}.")
        box = page.locator(".one-time-link")
        expect(box.locator("h2")).to_have_text(f"Set-password link for {username}")
        link = box.get_by_label("Set-password link").input_value()
        if number == 0:
            org.shot("staff-link-shown-once")
        # The link is shown only this once: back on the page, it is gone.
        org.follow(f"/t/{SLUG}/manage/staff/", text="Staff")
        expect(page.locator(".one-time-link")).to_have_count(0)

        person = day.hall.person(username, device)
        person.go(link)
        expect(person.page.locator("h1")).to_have_text("Choose your password")
        expect(person.page.locator("section.login")).to_contain_text(username)
        person.page.fill("#id_new_password1", PASSWORD)
        person.page.fill("#id_new_password2", PASSWORD)
        if number == 0:
            person.shot("choose-password")
        with person.page.expect_navigation():
            person.page.get_by_role("button", name="Set my password").click()
        expect(person.page.locator("h1")).to_have_text("Your password is set")
        person.follow("/accounts/login/", text="Log in")
        person.page.fill("#id_username", username)
        person.page.fill("#id_password", PASSWORD)
        with person.page.expect_navigation():
            person.page.locator("main form").get_by_role("button", name="Log in").click()
        expect(person.page.locator("header.top .who")).to_have_text(username)
        staff[username] = person
    rows = page.locator("table.staff tbody tr")
    expect(rows).to_have_count(len(STAFF) + 1)
    for username, _, _, role, _ in STAFF:
        expect(rows.filter(has_text=username)).to_contain_text(role)
    org.shot("staff")
    tournament = Tournament.objects.get(slug=SLUG)
    held = set(TournamentRole.objects.filter(tournament=tournament).values_list("user__username"))
    assert held == {(ORGANIZER,), *((s[0],) for s in STAFF)}
    day.staff = staff
    day.table = staff["tamsin"]


def test_3_organizer_imports_24_players_from_a_csv_file(day: EventDay) -> None:
    """The import previews the file (offering to import 24 players), then imports 24 players
    and their 24 entries, all listed."""
    org = day.org
    page = org.page
    org.follow(f"/t/{SLUG}/manage/players/import/", text="Import CSV")
    page.set_input_files(
        "#id_file",
        files=[
            {"name": "players.csv", "mimeType": "text/csv", "buffer": plan_of.players_csv(PLAYERS)}
        ],
    )
    org.press("Check the file")
    expect(page.get_by_role("button", name="Import 24 players")).to_be_visible()
    org.shot("csv-preview")
    org.press("Import 24 players")
    expect(org.message()).to_contain_text("Imported 24 players and 24 entries.")
    expect(page.locator("table.grid tbody tr")).to_have_count(24)


def test_4_co_organizer_checks_in_23_players_at_once(day: EventDay) -> None:
    """The co-organizer at the door types the ID numbers of the 23 who came, at once: 23 of
    24 entries are checked in."""
    co = day.staff["cole"]
    page = co.page
    co.go(f"/t/{SLUG}/")
    co.follow(f"/t/{SLUG}/manage/", text="Manage")
    co.follow(f"/t/{SLUG}/manage/check-in/", text="Check-in")
    page.locator("summary", has_text="Check in many at once").click()
    here = [str(p.number) for p in PLAYERS if p.number != ABSENT]
    page.fill("#bulk-numbers", "\n".join(here))
    co.press("Check in these ID numbers")
    expect(co.message()).to_contain_text("Checked in 23.")
    expect(page.locator("#checkin-summary")).to_have_text("23 of 24 entries checked in")
    co.shot("check-in")


def test_5_organizer_draws_the_preliminary_without_the_absent_player(day: EventDay) -> None:
    """The organizer adds a 4-game preliminary (8 advance) and a knockout playoff, and draws:
    the draw page names the one player not checked in and offers to withdraw them; once
    withdrawn, the preliminary is drawn (48 matches) without them, a bye in every round and 11
    games in round of play 1. The results are planned from this draw."""
    org = day.org
    page = org.page
    tournament = Tournament.objects.get(slug=SLUG)
    category = tournament.categories.get()
    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    org.follow(f"/t/{SLUG}/manage/categories/{category.pk}/", text=CATEGORY)
    for name, kind, advance, games in (
        ("Preliminary", "preliminary", "8", "4"),
        ("Playoff", "knockout", "", ""),
    ):
        form = page.locator("details:has(> summary:has-text('Add a stage'))")
        if form.get_attribute("open") is None:
            form.locator("summary").click()
        page.fill("#id_name", name)
        page.select_option("#id_kind", kind)
        page.fill("#id_advance_count", advance)
        page.fill("#id_games_per_entry", games)
        page.fill("#id_best_of", "1")
        org.submit(form.locator("form"), "Add the stage")
        expect(org.message()).to_contain_text(f"Added the stage {name}.")
    preliminary = category.stages.get(name="Preliminary")
    playoff = category.stages.get(name="Playoff")

    # The draw takes those checked in: one is missing, and the draw page offers what to do.
    draw = page.locator(f"form[action$='/stages/{preliminary.pk}/draw/']")
    draw.locator("select[name=method]").select_option("random")
    org.submit(draw, "Draw")
    absent = entry_of(ABSENT)
    expect(org.message()).to_contain_text(
        f"1 entry is not checked in: {BY_NUMBER[ABSENT].full_name} ({ABSENT})"
    )
    assert org.path == f"/t/{SLUG}/manage/stages/{preliminary.pk}/draw/"
    row = page.locator(f"#entry-{absent.pk}")
    expect(row).to_be_visible()
    org.shot("draw-page-absent")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Withdraw").click()
    expect(row.get_by_role("button", name="Reinstate")).to_be_visible()
    org.press("Draw Preliminary")
    expect(org.message()).to_contain_text("Preliminary: drawn (48 matches).")
    org.shot("drawn")
    assert not Match.objects.filter(stage=preliminary, entry_a=absent).exists()
    assert not Match.objects.filter(stage=preliminary, entry_b=absent).exists()

    matches = drawn(preliminary)
    pairings = [Pairing(m.round_of_play, *numbers(m)) for m in matches]
    assert len([p for p in pairings if p.b is None]) == 4, "23 players: a bye in every round"
    day.plan = plan_of.plan_preliminary(pairings)
    day.round_one = [m for m in matches if m.round_of_play == 1 and m.entry_b_id]
    assert len(day.round_one) == 11
    day.preliminary, day.playoff = preliminary, playoff


def test_6_co_organizer_prints_round_1_scorecards(day: EventDay) -> None:
    """The print page links round 1's cards as a PDF; it downloads as a PDF with a card for
    every player of round of play 1."""
    co, shots, stage = day.staff["cole"], day.story.screenshots, day.preliminary
    co.follow(f"/t/{SLUG}/print/", text="Print")
    section = co.page.locator("section.stage", has=co.page.locator("h4", has_text="Preliminary"))
    link = section.locator("table.rounds tbody tr").first.get_by_role(
        "link", name="PDF", exact=True
    )
    href = link.get_attribute("href")
    assert href.startswith(f"/t/{SLUG}/print/stages/{stage.id}/rounds/1/cards.pdf"), href
    co.shot("print-page")
    response = co.context.request.get(co.story.base_url + href)
    assert response.status == 200, response.status
    assert response.headers["content-type"] == "application/pdf"
    content = response.body()
    assert content.startswith(b"%PDF"), content[:40]
    shots.keep("round-1-cards.pdf", content)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    for match in day.round_one:
        for number in numbers(match):
            if number is not None:
                assert BY_NUMBER[number].full_name in text, f"{number} has no card"


def test_7_organizer_hands_out_the_private_links(day: EventDay) -> None:
    """The organizer opens each checked-in player's private link page (the link they get on
    their player sheet, the QR code, or shown to their phone), each named for its player: 23
    links."""
    org, hall = day.org, day.hall
    page = org.page
    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    org.follow(f"/t/{SLUG}/manage/players/", text="Players")
    entries = {
        e.pk: e.player.number
        for e in Entry.objects.filter(
            category__tournament__slug=SLUG, withdrawn=False
        ).select_related("player")
    }
    for entry_id, number in entries.items():
        path = reverse("tournaments:manage-entry-link", args=[SLUG, entry_id])
        # Each link page in a tab of its own, the list staying open behind it.
        with org.context.expect_page() as opened:
            page.locator(f'a[href="{path}"]').click(modifiers=["ControlOrMeta"])
        tab = opened.value
        expect(tab.locator("h1")).to_have_text(f"Private link of {BY_NUMBER[number].full_name}")
        hall.links[number] = tab.get_by_label("Private link").input_value()
        if len(hall.links) == 1:
            tab.bring_to_front()
            org.story.screenshots.take(tab, "private-link-laptop")
        tab.close()
    assert len(hall.links) == 23


def test_8_round_1_is_played_on_phones_with_a_dispute_and_paper_cards(day: EventDay) -> None:
    """Round of play 1: nine games on the players' phones (each row filled and signed by the
    opponent, the card within the phone's screen), one whose two cards disagree (the head
    referee sees the differing round and rules), one typed in from its two paper cards by the
    table; the table verifies all 13 cards, and every game's official result is the one
    played."""
    hall, stage, plan = day.hall, day.preliminary, day.plan
    games = [(m, m.games.get(), plan.games[(1, *numbers(m))]) for m in day.round_one]
    paper, disputed, *on_phones = games

    for index, (match, game, rows) in enumerate(on_phones):
        a, b = numbers(match)
        path_a, path_b = card_path(stage, match.entry_a_id), card_path(stage, match.entry_b_id)
        phone_a = hall.phone_of(a)
        if index == 0:
            phone_a.shot("private-link-opened")
        phone_a.follow(path_a, text="Preliminary")
        if index == 0:
            expect(phone_a.page.locator(f"#game-{game.id} details.edit[open]")).to_have_count(1)
            phone_a.shot("card-opened")
        phone_fill(phone_a, game.id, rows)
        phone_b = hall.phone_of(b)
        if index == 0:
            # The first game as the WCC card has it: both players fill their own card; the two
            # say the same, so each card validates the other (both cards agree). At the other
            # boards, one card of the game is enough for the result; the other player signs it.
            phone_b.follow(path_b, text="Preliminary")
            phone_fill(phone_b, game.id, mirror(rows), badge="Validated by the opponent")
        else:
            phone_validate(phone_b, path_a, game.id, b)
        expect(phone_b.page.locator(f"#game-{game.id} .badge")).to_have_text(
            "Validated by the opponent"
        )
        if index == 0:
            phone_b.shot("row-validated", at=phone_b.page.locator(f"#game-{game.id}"))
            assert phone_b.overflow() == 0, "the card goes off the phone's screen"
        phone_a.close()
        phone_b.close()

    # The cards of one game disagree: B writes a 20 too many for themselves.
    match, game, rows = disputed
    a, b = numbers(match)
    path_a, path_b = card_path(stage, match.entry_a_id), card_path(stage, match.entry_b_id)
    phone_a, phone_b = hall.phone_of(a), hall.phone_of(b)
    phone_a.follow(path_a, text="Preliminary")
    phone_fill(phone_a, game.id, rows)
    phone_b.follow(path_b, text="Preliminary")
    # The two cards, each entered by its own player, tell a round differently: the game goes
    # to the head referee as soon as the second is in.
    phone_fill(phone_b, game.id, with_mistake(mirror(rows)), badge="Disputed")
    expect(phone_b.page.locator(f"#game-{game.id} .badge")).to_have_text("Disputed")
    phone_b.shot("cards-disagree", at=phone_b.page.locator(f"#game-{game.id}"))
    phone_a.close()
    phone_b.close()

    head = day.staff["hazel"]
    head.go(f"/t/{SLUG}/")
    head.follow(f"/t/{SLUG}/cards/disputes/", text="Disputes")
    dispute = head.page.locator(f"#dispute-{game.id}")
    expect(dispute.locator("tr.differs")).to_have_count(1)
    expect(dispute.locator("tr.differs th")).to_contain_text("3")
    for number, r in enumerate(rows, start=1):
        enter_round(head.page, f"d{game.id}", number, r)
    head.page.fill(f"#id_d{game.id}-initials", "HB")
    head.shot("dispute-ruling")
    with head.page.expect_navigation():
        dispute.get_by_role("button", name="Rule: both cards take this result").click()
    expect(head.message()).to_contain_text("Dispute settled")
    expect(head.page.locator(f"#dispute-{game.id}")).to_have_count(0)

    # Two paper cards: both players of one game wrote on paper; the table types them in.
    table = day.table
    table.go(f"/t/{SLUG}/")
    table.follow(f"/t/{SLUG}/cards/table/", text="Scoring table")
    table.follow(f"/t/{SLUG}/cards/table/paper/", text="Enter a paper card")
    match, game, rows = paper
    a, b = numbers(match)
    for owner, opponent, own_rows in ((a, b, rows), (b, a, mirror(rows))):
        enter_paper_card(
            table,
            stage_label=PRELIMINARY_LABEL,
            round_of_play=1,
            owner=owner,
            opponent=opponent,
            rounds=own_rows,
        )
        if owner == a:
            table.shot("paper-card-entered")
    table.follow(f"/t/{SLUG}/cards/table/", text="Scoring table")
    verify_waiting_cards(table, PRELIMINARY_LABEL, expected=len(on_phones) + 3)
    table.shot("round-1-verified")
    for match, game, rows in games:
        assert official_rounds(game) == rows, f"{match}: the official result is not what was played"


def test_9_table_enters_rounds_2_and_3_from_paper(day: EventDay) -> None:
    """The table types entry A's paper card of every game of rounds 2 and 3, each confirmed
    as validated on paper, and verifies exactly those cards."""
    waiting = table_enters_rounds(day.table, day.plan, [2, 3])
    verify_waiting_cards(day.table, PRELIMINARY_LABEL, expected=waiting)


def test_10_a_player_withdrawn_after_the_draw_leaves_a_walkover(day: EventDay) -> None:
    """A player leaves after round 3: withdrawing them asks for a reason and names the one
    game of round of play 4 that becomes a walkover, with both players; the entry is then
    withdrawn, and the opponent's card on their phone shows the walkover."""
    org, plan, stage = day.org, day.plan, day.preliminary
    page = org.page
    withdrawn, opponent = BY_NUMBER[plan.withdrawn], BY_NUMBER[plan.walkover_to]
    entry = entry_of(plan.withdrawn)
    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    org.follow(f"/t/{SLUG}/manage/check-in/", text="Check-in")
    page.fill("#q", str(withdrawn.number))
    expect(page.locator("#checkin-rows tr")).to_have_count(1)
    row = page.locator(f"#entry-{entry.pk}")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Withdraw").click()
    # After the draw, a confirm step names the games that become walkovers, and asks why.
    reason = page.locator("main").locator("textarea[name*=reason], input[name*=reason]").first
    expect(reason).to_be_visible()
    listed = page.locator("main li", has_text="round of play 4")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text(withdrawn.full_name)
    expect(listed).to_contain_text(opponent.full_name)
    expect(page.locator("main")).to_contain_text("walkover")
    reason.fill("Called home after round 3.")
    org.shot("withdraw-confirm")
    form = reason.locator("xpath=ancestor::form")
    with page.expect_navigation():
        form.locator("button[type=submit], button:not([type])").last.click()
    expect(org.message()).to_contain_text(withdrawn.full_name)
    org.shot("withdrawn")
    entry.refresh_from_db()
    assert entry.withdrawn

    walkover = next(
        m
        for m in drawn(stage, round_of_play=4)
        if set(numbers(m)) == {plan.withdrawn, plan.walkover_to}
    )
    game = walkover.games.get()
    phone = day.hall.phone_of(opponent.number)
    phone.follow(card_path(stage, entry_of(opponent.number).pk), text="Preliminary")
    card_row = phone.page.locator(f"#game-{game.id}")
    expect(card_row).to_contain_text("Walkover")
    phone.shot("walkover-card", at=card_row)
    phone.close()


def test_11_table_enters_round_4_and_verifies_the_preliminary(day: EventDay) -> None:
    """The table types round 4's paper cards (the walkover's game has none) and verifies
    exactly those: the preliminary is complete."""
    waiting = table_enters_rounds(day.table, day.plan, [4])
    verify_waiting_cards(day.table, PRELIMINARY_LABEL, expected=waiting)
    day.table.shot("preliminary-verified")


def test_12_standings_show_a_tie_on_the_cut_line(day: EventDay) -> None:
    """The preliminary's standings are the planned ones, added up by the test: the two level
    on points and 20s share 8th place and a shoot-out between them is asked for; the walkover
    gives its opponent a bye's 8 points, and the withdrawn player is last with nothing."""
    preliminary_standings(day.org, day.plan, day.preliminary, settled=False)


def test_13_referee_records_the_shoot_out_and_the_top_8_advance(day: EventDay) -> None:
    """Advancing is refused while a tie sits on the cut line, with a link to record the
    shoot-out naming both players; the referee records it on the page linked; the standings
    are then the planned order, and advancing 8 (with a match for 3rd place) draws the
    playoff, seeded 1 v 8, 2 v 7, 3 v 6, 4 v 5."""
    org, referee, plan, stage = day.org, day.staff["reid"], day.plan, day.preliminary
    page = org.page
    category = stage.category
    org.follow(f"/t/{SLUG}/manage/", text="Manage")
    org.follow(f"/t/{SLUG}/manage/categories/{category.pk}/", text=CATEGORY)
    advance = page.locator(f"form[action$='/stages/{stage.pk}/advance/']")
    advance.get_by_label("match for 3rd place").check()
    org.submit(advance, "Advance 8")
    winner, loser = (BY_NUMBER[n] for n in plan.cut)
    message = org.message()
    expect(message).to_contain_text("a tie sits on the cut line")
    expect(message).to_contain_text(winner.full_name)
    expect(message).to_contain_text(loser.full_name)
    link = message.get_by_role("link", name="Record the shoot-out")
    href = link.get_attribute("href")
    assert href == reverse("scoring:shootout", args=[SLUG, stage.id]), href
    org.shot("cut-line-message")

    # The referee opens the page the message links to (the organizer reads it out).
    referee.go(href)
    section = referee.page.locator("section.shootout")
    expect(section).to_have_count(1)
    expect(section.locator("h2")).to_contain_text("tied on place")
    section.get_by_label(winner.full_name, exact=True).fill(str(SHOOTOUT[0]))
    section.get_by_label(loser.full_name, exact=True).fill(str(SHOOTOUT[1]))
    referee.shot("shoot-out")
    with referee.page.expect_navigation():
        section.get_by_role("button", name="Record the shoot-out").click()
    expect(referee.message()).to_contain_text(
        f"Shoot-out recorded: {winner.full_name} {SHOOTOUT[0]}, {loser.full_name} {SHOOTOUT[1]}."
    )
    expect(referee.page.locator(".notice")).to_contain_text("No tie is waiting")
    referee.shot("shoot-out-recorded")

    preliminary_standings(org, plan, stage, settled=True)
    org.follow(f"/t/{SLUG}/manage/", text="Manage")
    org.follow(f"/t/{SLUG}/manage/categories/{category.pk}/", text=CATEGORY)
    advance = page.locator(f"form[action$='/stages/{stage.pk}/advance/']")
    advance.get_by_label("match for 3rd place").check()
    org.submit(advance, "Advance 8")
    expect(org.message()).to_contain_text("Preliminary: entries advanced; next: Playoff.")
    org.shot("playoff-drawn")

    seeds = plan.seeds
    quarters = drawn(day.playoff)
    assert {frozenset(numbers(m)) for m in quarters} == {
        frozenset((seeds[i], seeds[7 - i])) for i in range(4)
    }, "the knockout seeds 1 v 8, 2 v 7, 3 v 6, 4 v 5"


def test_14_table_enters_the_knockout_on_paper_up_to_the_final(day: EventDay) -> None:
    """The higher seed wins each match 6-2 on paper; each round verified opens the next: the
    semifinals are seeds 1 v 4 and 2 v 3, then the final (seeds 1 and 2) and the match for
    3rd place, which is played on paper too."""
    table, plan, playoff = day.table, day.plan, day.playoff
    seeds = plan.seeds
    knockout_on_paper(table, plan, drawn(playoff))
    semis = drawn(playoff, round_of_play=2)
    assert {frozenset(numbers(m)) for m in semis} == {
        frozenset((seeds[0], seeds[3])),
        frozenset((seeds[1], seeds[2])),
    }
    knockout_on_paper(table, plan, semis)
    last = {m.bracket_slot: m for m in drawn(playoff, round_of_play=3)}
    assert set(last) == {"F", "3P"}, sorted(last)
    assert set(numbers(last["F"])) == {seeds[0], seeds[1]}
    knockout_on_paper(table, plan, [last["3P"]])
    day.final = last["F"]


def test_15_the_final_is_decided_in_its_sixth_round_on_phones(day: EventDay) -> None:
    """Seed 2 beats seed 1 after 4-4 and a tied 5th round: as the winner types, the card adds
    a 5th line and then a 6th; both fill their six-round rows on their phones, which say the
    same and so validate each other; the table verifies the two cards."""
    hall, playoff, final = day.hall, day.playoff, day.final
    seeds = day.plan.seeds
    game = final.games.get()
    a, b = numbers(final)
    champion, runner_up = seeds[1], seeds[0]
    assert {a, b} == {champion, runner_up}
    rows = {champion: final_row(), runner_up: mirror(final_row())}
    path = {n: card_path(playoff, entry_of(n).pk) for n in (a, b)}
    phones = {}
    for number in (champion, runner_up):
        phone = hall.phone_of(number)
        phone.follow(path[number], text="Playoff")
        row = phone.page.locator(f"#game-{game.id}")
        expect(row).to_contain_text("Round of play 3")
        type_final_row(phone.page, game.id, rows[number])
        if number == champion:
            phone.shot("final-six-rounds", at=phone.page.locator(f"#total-{game.id}"))
        row.get_by_role("button", name="Save the row").click()
        # The runner-up's card says what the champion's says: each validates the other.
        said = "Filled" if number == champion else "Validated by the opponent"
        expect(row.locator(".badge")).to_have_text(said)
        expect(row.locator("table.rounds-view tbody tr")).to_have_count(6)
        phones[number] = phone
    phones[champion].go(path[champion])
    expect(phones[champion].page.locator(f"#game-{game.id} .badge")).to_have_text(
        "Validated by the opponent"
    )
    phones[champion].shot("final-validated", at=phones[champion].page.locator(f"#game-{game.id}"))
    for phone in phones.values():
        phone.close()

    # (A reload would do, but the browser's reload leaves an idle connection that keeps the
    # one-request-at-a-time test server waiting: the table goes round by the links.)
    table = day.table
    table.follow(f"/t/{SLUG}/cards/", text="Scorecards")
    table.follow(f"/t/{SLUG}/cards/table/", text="Scoring table")
    verify_waiting_cards(table, PLAYOFF_LABEL, expected=2)
    table.shot("final-verified")


def test_16_the_public_sees_the_final_standings(day: EventDay) -> None:
    """On a phone, the public's bracket shows the champion (seed 2) winning the final and
    seed 3 the match for 3rd place; the organizer's bracket agrees, with seeds 1 and 2 the
    semifinals' winners; the playoff's standings rank the champion, runner-up, 3rd and 4th,
    and the quarterfinals' losers 5th; the tournament's page names the champion and fits the
    phone's screen."""
    hall, org, playoff = day.hall, day.org, day.playoff
    seeds = day.plan.seeds
    champion, runner_up, third, fourth = seeds[1], seeds[0], seeds[2], seeds[3]
    fan = hall.person("public", PHONE)
    fan.go(f"/t/{SLUG}/")
    fan.follow(f"/t/{SLUG}/stages/{playoff.pk}/bracket/", text="bracket")
    assert bracket_winner(fan.page, "F") == BY_NUMBER[champion].full_name
    assert bracket_winner(fan.page, "3P") == BY_NUMBER[third].full_name
    fan.shot("final-bracket")
    fan.close()

    org.go(f"/t/{SLUG}/")
    org.follow(f"/t/{SLUG}/stages/{playoff.pk}/bracket/", text="bracket")
    assert bracket_winner(org.page, "F") == BY_NUMBER[champion].full_name
    for slot in ("SF1", "SF2"):
        assert bracket_winner(org.page, slot) in {BY_NUMBER[n].full_name for n in seeds[:2]}
    org.shot("final-bracket")
    org.follow(f"/t/{SLUG}/manage/", text="Manage")
    org.follow(f"/t/{SLUG}/stages/{playoff.pk}/standings/", text="standings")
    lines = standings_lines(org.page)
    assert [(rank, n) for rank, n, _, _ in lines[:4]] == [
        (1, champion),
        (2, runner_up),
        (3, third),
        (4, fourth),
    ], lines
    assert {(rank, n) for rank, n, _, _ in lines[4:]} == {(5, n) for n in seeds[4:]}, lines
    org.shot("final-standings")

    watcher = hall.person("public", PHONE)
    watcher.go(f"/t/{SLUG}/")
    expect(watcher.page.locator("main")).to_contain_text(BY_NUMBER[champion].full_name)
    watcher.shot("tournament-page")
    assert watcher.overflow() == 0, "the tournament page goes off the phone's screen"
    watcher.close()


def test_17_the_day_went_by_the_pages_alone(day: EventDay) -> None:
    """Over the whole day (more than 500 requests watched), nobody opened /admin/, no page
    answered with an error or raised a script error (each named with the step that met it),
    and every page was reached by a link from the page before; the app's bugs the story went
    on without are warned about."""
    hall, story = day.hall, day.story
    assert hall.requests > 500, f"the watch on /admin/ saw only {hall.requests} requests"
    assert not hall.admin_requests, f"someone opened /admin/: {hall.admin_requests}"
    assert not story.problems, "\n".join(story.problems)
    if story.app_bugs:
        warnings.warn("app bugs met on the way:\n" + "\n".join(story.app_bugs), stacklevel=1)
    assert not story.missing_links, "pages the story reached only by typing their address:\n" + (
        "\n".join(sorted(set(story.missing_links)))
    )
