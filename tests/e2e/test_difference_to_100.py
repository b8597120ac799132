"""A club category scored by the family rulebook, difference to 100, from the draw to the
standings, in a real chromium.

Family rulebook, Scoring 5-6: "Only the difference between the higher and lower scores is added
to the score of the winning player/partnership, with the second place ... scoring 0 for that
round. In the event of a tie, neither ... adds to their scores for that round." "Play to 100
points. Should there be a tie, play one final determining round." So a game has as many rounds as
it takes, every round is written with both board scores (20s included), and the standings add up
the game points each entry won.

What goes through the browser:
- the organizer, on a laptop, creates the tournament, adds a category by hand with the scoring
  system "Family rulebook: difference, play to 100", registers four players, checks them in, adds
  a round-robin stage and draws it;
- the two players of the first game of round of play 1, each on their own phone (390x844), type
  their board scores and 20s round by round: while the game is short of 100 the card shows one
  more round line and says what is missing; a row saved short of 100 cannot be signed yet; once
  the game is over, the opponent validates the row on their own phone;
- the scoring table, on a laptop, verifies the two cards;
- the public, on a phone and a laptop: the standings, the pools page and the board list.

What goes through the services the pages call (``scoring.scorecards.services``), to keep the run
short: the other five games of the round robin. Users and their roles are made with the ORM (no
page gives roles or links a login to a player).

The expected standings are added up in this file, by hand, from the board scores it enters;
never read from the app. Screenshots are left in tests/artifacts/e2e/.
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import Permission, User
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from scoring.models import CardRow, ScoreCard
from scoring.scorecards import services as scorecards
from tests.e2e.browsing import DASH, LAPTOP, PHONE, Story, Visitor
from tournaments.models import Entry, Game, Match, Stage, Tournament, TournamentRole

pytestmark = [
    pytest.mark.browser,
    # One story, one pytest-xdist worker: its steps run in order (``make test`` uses loadgroup).
    pytest.mark.xdist_group("story-difference-to-100"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "hundred-up"
Role = TournamentRole.Role
Status = CardRow.Status
CATEGORY = "Club Singles"
SYSTEM = "Family rulebook: difference, play to 100"
TARGET = 100
SLUG = "elmira-family-night"


@dataclass(frozen=True)
class Person:
    number: int
    first_name: str
    last_name: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def initials(self) -> str:
        return f"{self.first_name[0]}{self.last_name[0]}"


PLAYERS = [
    Person(11, "Maple", "Hart"),
    Person(12, "Rowan", "Pike"),
    Person(13, "Ellis", "Grant"),
    Person(14, "Tamsin", "Reeve"),
]
BY_NUMBER = {p.number: p for p in PLAYERS}

#: A round as one side of the board tells it: (own board score, other's, own 20s, other's 20s).
Line = tuple[int, int, int, int]

#: Every game of the round robin, from the lower ID's side, round by round until a side has
#: reached 100 and leads (worked out by hand below, not by the app).
GAMES: dict[tuple[int, int], list[Line]] = {
    (11, 12): [(85, 40, 2, 1), (50, 50, 1, 1), (30, 70, 0, 2), (95, 30, 3, 0)],
    (11, 13): [(90, 20, 3, 1), (40, 60, 1, 1), (75, 30, 2, 0)],
    (11, 14): [(60, 45, 2, 1), (35, 80, 1, 3), (90, 40, 3, 1), (70, 25, 2, 0)],
    (12, 13): [(70, 35, 2, 1), (55, 55, 1, 1), (80, 30, 2, 1), (25, 60, 0, 2), (65, 40, 2, 1)],
    (12, 14): [(45, 90, 1, 3), (100, 20, 4, 0), (60, 50, 2, 2), (55, 35, 1, 1)],
    (13, 14): [(65, 30, 2, 1), (40, 85, 1, 3), (90, 15, 3, 0)],
}


def flipped(lines: list[Line]) -> list[Line]:
    return [(b, a, tb, ta) for a, b, ta, tb in lines]


def game_lines(own: int, other: int) -> list[Line]:
    """The game between two players from ``own``'s side of the board."""
    if (own, other) in GAMES:
        return GAMES[own, other]
    return flipped(GAMES[other, own])


def by_hand(lines: list[Line]) -> list[tuple[int, int]]:
    """The running game score after each round: the round's winner adds the difference of the
    board scores, a tied round adds nothing (family rulebook, Scoring 5)."""
    own = other = 0
    running = []
    for a, b, _, _ in lines:
        if a > b:
            own += a - b
        elif b > a:
            other += b - a
        running.append((own, other))
    return running


def over_after(running: list[tuple[int, int]], played: int) -> bool:
    own, other = running[played - 1]
    return max(own, other) >= TARGET and own != other


def card_rounds(lines: list[Line]) -> list[dict]:
    """Rounds as a scorecard row takes them: both board scores and both 20s; the points follow."""
    return [{"score": [a, b], "twenties": [ta, tb]} for a, b, ta, tb in lines]


def check_the_plan() -> None:
    """Every planned game ends exactly on its last round, so no card is short or too long."""
    for pair, lines in GAMES.items():
        running = by_hand(lines)
        assert over_after(running, len(lines)), f"{pair} is not over: {running[-1]}"
        assert not any(over_after(running, n) for n in range(1, len(lines))), f"{pair} too long"
        assert all(
            a % 5 == 0 and b % 5 == 0 and a >= 20 * ta and b >= 20 * tb for a, b, ta, tb in lines
        )


def expected_standings() -> list[tuple[int, int, int, int]]:
    """(rank, ID, game points, 20s) of every player, added up by hand over the six games."""
    points = {p.number: 0 for p in PLAYERS}
    twenties = {p.number: 0 for p in PLAYERS}
    for (low, high), lines in GAMES.items():
        own, other = by_hand(lines)[-1]
        points[low] += own
        points[high] += other
        twenties[low] += sum(line[2] for line in lines)
        twenties[high] += sum(line[3] for line in lines)
    order = sorted(points, key=lambda n: (-points[n], -twenties[n]))
    assert len(set(points.values())) == len(points), "the plan leaves no tie on points"
    return [(rank, n, points[n], twenties[n]) for rank, n in enumerate(order, start=1)]


class People:
    """The event's people as the ORM knows them."""

    def __init__(self) -> None:
        self.organizer = User.objects.create_user("cora", password=PASSWORD)
        # The site permission to create tournaments; whoever creates one becomes its organizer.
        self.organizer.user_permissions.add(
            Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
        )
        self.table = User.objects.create_user("tobias", password=PASSWORD)
        self.players: dict[int, User] = {}

    def give_roles(self, tournament: Tournament) -> None:
        TournamentRole.objects.create(
            tournament=tournament, user=self.table, role=Role.SCORING_TABLE
        )

    def link_players(self, tournament: Tournament) -> None:
        for player in tournament.players.all():
            user = User.objects.create_user(f"player{player.number}", password=PASSWORD)
            player.user = user
            player.save(update_fields=["user"])
            self.players[player.number] = user


# The organizer ---------------------------------------------------------------------------------


def set_up(org: Visitor, people: People) -> tuple[Tournament, Stage]:
    page = org.page
    org.log_in("cora", PASSWORD, then="/")
    org.follow("/new/")
    page.fill("#id_name", "Elmira Family Night")
    page.fill("#id_venue", "Elmira Legion Hall")
    page.fill("#id_starts_on", "2026-02-13")
    page.fill("#id_ends_on", "2026-02-13")
    org.press("Create the tournament")
    expect(org.message()).to_contain_text("Elmira Family Night is created")
    assert org.path == f"/t/{SLUG}/manage/"
    tournament = Tournament.objects.get(slug=SLUG)
    people.give_roles(tournament)

    org.follow(f"/t/{SLUG}/manage/categories/new/", text="Add categories")
    by_hand_form = page.locator("form").filter(has=page.locator("input[name=form][value=manual]"))
    by_hand_form.get_by_label("Name").fill(CATEGORY)
    by_hand_form.get_by_label("Scoring system").select_option(label=SYSTEM)
    org.shot("category-by-hand")
    org.submit(by_hand_form, "Add the category")
    expect(org.message()).to_contain_text(f"Added {CATEGORY}.")
    category = tournament.categories.get()
    assert category.scoring_system == "difference-to-100"
    assert org.path == f"/t/{SLUG}/manage/categories/{category.pk}/"
    meta = page.locator("main h1 + p.meta")
    expect(meta).to_contain_text(SYSTEM)
    expect(meta).not_to_contain_text("rounds a game")

    org.follow(f"/t/{SLUG}/manage/boards/", text="Boards")
    page.fill("#id_count", "2")
    org.press("Set")
    expect(org.message()).to_contain_text("The hall has 2 boards.")

    org.follow(f"/t/{SLUG}/manage/players/", text="Players")
    for person in PLAYERS:
        page.fill("#id_first_name", person.first_name)
        page.fill("#id_last_name", person.last_name)
        page.fill("#id_number", str(person.number))
        page.fill("#id_club", "Elmira")
        page.locator("form.stack").get_by_label(CATEGORY, exact=True).check()
        org.press("Register")
        expect(org.message()).to_contain_text(
            f"Registered {person.full_name} with ID {person.number}."
        )

    org.follow(f"/t/{SLUG}/manage/check-in/", text="Check-in")
    entries = list(Entry.objects.filter(category=category).order_by("id"))
    assert len(entries) == 4
    for entry in entries:
        row = page.locator(f"#entry-{entry.pk}")
        row.get_by_role("button", name="Check in").click()
        expect(row.get_by_role("button", name="✓ Here")).to_be_visible()
    expect(page.locator("#checkin-summary")).to_have_text("4 of 4 entries checked in")

    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    dashboard = page.locator("main")
    expect(dashboard).to_contain_text(SYSTEM)
    expect(dashboard).not_to_contain_text("4 rounds a game")
    org.follow(f"/t/{SLUG}/manage/categories/{category.pk}/", text=CATEGORY)
    form = page.locator("details:has(> summary:has-text('Add a stage'))")
    if form.get_attribute("open") is None:
        form.locator("summary").click()
    page.fill("#id_name", "Round robin")
    page.select_option("#id_kind", "round-robin")
    page.fill("#id_best_of", "1")
    org.submit(form.locator("form"), "Add the stage")
    expect(org.message()).to_contain_text("Added the stage Round robin.")
    stage = category.stages.get()
    draw = page.locator(f"form[action$='/stages/{stage.pk}/draw/']")
    org.submit(draw, "Draw")
    expect(org.message()).to_contain_text("Round robin: drawn (6 matches).")
    org.shot("drawn")
    return tournament, stage


# At the board ----------------------------------------------------------------------------------


def open_my_card(story: Story, number: int) -> Visitor:
    phone = story.visitor(f"player {number}", PHONE)
    phone.log_in(f"player{number}", PASSWORD, then=f"/t/{SLUG}/")
    phone.follow(f"/t/{SLUG}/cards/", text="cards")
    phone.page.get_by_role("link", name=f"{CATEGORY} · Round robin").click()
    expect(phone.page.locator(".card-header")).to_contain_text(str(number))
    return phone


def round_line(page: Page, game_id: int, number: int):
    return page.locator(f"#game-{game_id} fieldset.round").filter(
        has=page.locator(f"legend:text-is('Round {number}')")
    )


def type_round(page: Page, game_id: int, number: int, line: Line) -> None:
    """One round's board scores and 20s, own side first; the points are not typed: under
    difference to 100 they follow from the board scores."""
    own, other, own20, other20 = line
    prefix = f"#id_g{game_id}-r{number}"
    page.fill(f"{prefix}_score_own", str(own))
    page.fill(f"{prefix}_score_opp", str(other))
    page.fill(f"{prefix}_twenties_own", str(own20))
    page.fill(f"{prefix}_twenties_opp", str(other20))
    page.keyboard.press("Tab")


def total_text(lines: list[Line]) -> str:
    own, other = by_hand(lines)[-1]
    t_own, t_other = sum(x[2] for x in lines), sum(x[3] for x in lines)
    return f"{own}{DASH}{other} points · {t_own}{DASH}{t_other} 20s"


def missing_text(lines: list[Line]) -> re.Pattern:
    own, other = by_hand(lines)[-1]
    return re.compile(
        rf"round {len(lines) + 1} is needed: the game is played to {TARGET} points "
        rf"and stands at {own}\D{other}",
        re.IGNORECASE,
    )


def type_game(phone: Visitor, game_id: int, lines: list[Line], *, first: int = 1) -> None:
    """Type rounds ``first``.. of a game, checking after each what the card says: the running
    total, and while short of 100, the round still needed and a line to write it on."""
    page = phone.page
    total = page.locator(f"#total-{game_id}")
    running = by_hand(lines)
    for number in range(first, len(lines) + 1):
        expect(round_line(page, game_id, number)).to_have_count(1)
        for what in ("score", "twenties"):
            # Board scores are what a round is written with; nothing hides their boxes.
            expect(page.locator(f"#id_g{game_id}-r{number}_{what}_own")).to_be_visible()
        type_round(page, game_id, number, lines[number - 1])
        # The live total answers a request per pause in typing; a loaded machine is slow.
        expect(total).to_contain_text(total_text(lines[:number]), timeout=60_000)
        if over_after(running, number):
            expect(total.locator(".missing")).to_have_count(0)
            expect(round_line(page, game_id, number + 1)).to_have_count(0)
        else:
            expect(total.locator(".missing")).to_have_text(missing_text(lines[:number]))
            expect(round_line(page, game_id, number + 1)).to_have_count(1)


def save(page: Page, game_id: int, badge: str = "Filled") -> None:
    row = page.locator(f"#game-{game_id}")
    row.get_by_role("button", name="Save the row").click()
    expect(row.locator("header .badge").first).to_have_text(badge)


def validate(page: Page, game_id: int, person: Person) -> None:
    row = page.locator(f"#game-{game_id}")
    row.locator(f"#id_v{game_id}-opponent_number").fill(str(person.number))
    row.locator(f"#id_v{game_id}-initials").fill(person.initials)
    row.get_by_role("button", name="Validate").click()
    expect(row.locator("header .badge").first).to_have_text("Validated by the opponent")


def first_game_at_the_board(story: Story, stage: Stage) -> Game:
    """Round of play 1, board 1: both players write the game on their phones, round by round."""
    match = (
        Match.objects.filter(stage=stage, round_of_play=1)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("board__number", "id")
        .first()
    )
    game = match.games.get()
    a, b = match.entry_a.player.number, match.entry_b.player.number
    lines = game_lines(a, b)
    assert len(lines) >= 3

    # Player A writes the first two rounds, saves the row short of 100 and hands the phone over:
    # it cannot be signed yet, and the card says what is missing.
    phone_a = open_my_card(story, a)
    page = phone_a.page
    row = page.locator(f"#game-{game.id}")
    expect(row.locator("details.edit[open]")).to_have_count(1)
    expect(row.locator(".sides")).not_to_contain_text("optional")
    expect(row.locator(".sides")).to_contain_text("difference")
    phone_a.shot("card-opened")
    type_game(phone_a, game.id, lines[:2])
    phone_a.shot("short-of-100", at=page.locator(f"#total-{game.id}"))
    save(page, game.id)
    expect(row.locator("li.missing")).to_have_text(missing_text(lines[:2]))
    expect(row.locator(f"#id_v{game.id}-initials")).to_have_count(0)
    phone_a.shot("saved-short-of-100", at=row)
    assert Game.objects.get(pk=game.id).rounds.count() == 0

    # The rest of the game; the opponent then signs it on their own phone.
    row.locator("summary", has_text="Change the row").click()
    type_game(phone_a, game.id, lines, first=3)
    phone_a.shot("game-over", at=page.locator(f"#total-{game.id}"))
    save(page, game.id)
    expect(row.locator(".missing")).to_have_count(0)
    expect(row.locator("table.rounds-view tbody tr")).to_have_count(len(lines))
    own, other = by_hand(lines)[-1]
    expect(row.locator("table.rounds-view tfoot")).to_contain_text(f"{own}{DASH}{other}")
    expect(row.locator(f"#id_v{game.id}-opponent_number")).to_have_count(0)
    assert phone_a.overflow() == 0, "the card goes off the phone's screen"
    card_a, card_b = (
        f"/t/{SLUG}/cards/{stage.id}/{entry.id}/" for entry in (match.entry_a, match.entry_b)
    )

    # Player B signs A's row on B's phone, then writes the same game from the other side of the
    # board, all rounds at once: the two cards say the same, so B's is validated by A's.
    phone_b = open_my_card(story, b)
    phone_b.go(card_a)
    validate(phone_b.page, game.id, BY_NUMBER[b])
    phone_b.shot("validated", at=phone_b.page.locator(f"#game-{game.id}"))
    phone_b.go(card_b)
    type_game(phone_b, game.id, flipped(lines))
    save(phone_b.page, game.id, badge="Validated by the opponent")
    phone_a.close()
    phone_b.close()
    statuses = CardRow.objects.filter(game=game).values_list("status", flat=True)
    assert sorted(statuses) == [Status.VALIDATED] * 2, "the two cards agree"
    return game


def table_verifies(story: Story, stage: Stage, game: Game) -> None:
    table = story.visitor("scoring table", LAPTOP)
    table.log_in("tobias", PASSWORD, then=f"/t/{SLUG}/")
    table.follow(f"/t/{SLUG}/cards/", text="cards")
    table.follow(f"/t/{SLUG}/cards/table/", text="Scoring table")
    page = table.page
    expect(page.locator("#queue .count")).to_have_text("2 cards waiting.")
    lines = game_lines(game.match.entry_a.player.number, game.match.entry_b.player.number)
    own, other = by_hand(lines)[-1]
    card_a = ScoreCard.objects.get(stage=stage, entry=game.match.entry_a)
    expect(page.locator(f"#card-{card_a.pk} table.queue-rows tbody")).to_contain_text(
        f"{own}{DASH}{other}"
    )
    table.shot("scoring-table")
    for card in ScoreCard.objects.filter(rows__game=game):
        block = page.locator(f"#card-{card.pk}")
        block.get_by_role("button", name="Verify card").click()
        expect(block).to_contain_text(f"Verified the card of {card.entry.name} (1 row).")
    expect(page.locator("#queue .count")).to_have_text("0 cards waiting.")
    table.close()
    official = [
        (r.score_a, r.score_b, r.twenties_a, r.twenties_b, r.points_a, r.points_b)
        for r in game.rounds.order_by("number")
    ]
    running = by_hand(lines)
    gained = [
        (x - px, y - py) for (x, y), (px, py) in zip(running, [(0, 0), *running], strict=False)
    ]
    assert official == [(*line, *g) for line, g in zip(lines, gained, strict=True)]


def the_other_games(stage: Stage, people: People, skip: Game) -> None:
    """The rest of the round robin through the services the card pages call."""
    matches = Match.objects.filter(stage=stage).select_related("entry_a__player", "entry_b__player")
    for match in matches:
        game = match.games.get()
        if game.id == skip.id:
            continue
        a, b = match.entry_a.player.number, match.entry_b.player.number
        lines = game_lines(a, b)
        for own, other, own_lines in (
            (match.entry_a, b, lines),
            (match.entry_b, a, flipped(lines)),
        ):
            card = scorecards.card_for(stage, own)
            row = scorecards.fill_row(
                card=card,
                game=game,
                rounds=card_rounds(own_lines),
                user=people.players[own.player.number],
            )
            if row.status == Status.VALIDATED:
                continue  # the other card, signed already, says the same (both cards agree)
            scorecards.validate_row(
                row=row,
                opponent_number=str(other),
                initials=BY_NUMBER[other].initials,
                user=people.players[other],
            )
    for card in ScoreCard.objects.filter(stage=stage, rows__status=Status.VALIDATED).distinct():
        scorecards.verify_card(card=card, user=people.table)


# The public pages ------------------------------------------------------------------------------


def standings_lines(page: Page) -> list[tuple[int, int, int, int]]:
    lines = []
    for row in page.locator("table.standings tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        lines.append((int(cells[0]), int(cells[2]), int(cells[4]), int(cells[5])))
    return lines


def public_pages(story: Story, tournament: Tournament, stage: Stage, first: Game) -> None:
    expected = expected_standings()
    fan = story.visitor("public", LAPTOP)
    fan.go(tournament.get_absolute_url())
    fan.follow(f"/t/{SLUG}/stages/{stage.pk}/standings/", text=stage.name)
    assert standings_lines(fan.page) == expected, "standings by the sums of the differences"
    expect(fan.page.locator("main")).to_contain_text(SYSTEM)
    fan.shot("standings")

    fan.go(tournament.get_absolute_url())
    fan.follow(f"/t/{SLUG}/stages/{stage.pk}/pools/", text="pools")
    pool = fan.page.locator("table.plain").first
    rows = [
        [c.strip() for c in row.locator("td").all_inner_texts()]
        for row in pool.locator("tbody tr").all()
    ]
    shown = [(int(r[0]), int(re.search(r"#(\d+)", r[1])[1]), int(r[3]), int(r[4])) for r in rows]
    assert shown == expected, "the pool's table by the sums of the differences"
    main = fan.page.locator("main")
    expect(main).to_contain_text(SYSTEM)
    expect(main).not_to_contain_text("2-1-0")
    a, b = first.match.entry_a.player.number, first.match.entry_b.player.number
    own, other = by_hand(game_lines(a, b))[-1]
    expect(fan.page.locator("table.cross")).to_contain_text(f"{own}{DASH}{other}")
    fan.shot("pools")
    fan.close()

    phone = story.visitor("public", PHONE)
    phone.go(f"/t/{SLUG}/stages/{stage.pk}/rounds/1/")
    schedule = phone.page.locator("table.schedule tbody tr").first
    expect(schedule).to_contain_text(f"{own}{DASH}{other}")
    expect(schedule).to_contain_text("finished")
    assert phone.overflow() == 0, "the board list goes off the phone's screen"
    phone.shot("round-1-results")
    phone.close()


# Printing --------------------------------------------------------------------------------------


def pdf_text(content: bytes) -> str:
    assert content.startswith(b"%PDF"), content[:40]
    pages = PdfReader(io.BytesIO(content)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def printed_cards(story: Story, org: Visitor, stage: Stage, first: Game) -> None:
    """The organizer prints round 1's cards and the stage's filled cards: every round has its
    board-score box without asking for one, and the card says how a round is scored."""
    org.go(f"/t/{SLUG}/")
    org.follow(f"/t/{SLUG}/print/", text="Print")
    section = org.page.locator("section.stage", has=org.page.locator("h4", has_text=stage.name))
    round_one = section.locator("table.rounds tbody tr").first
    link = round_one.get_by_role("link", name="PDF", exact=True)
    content = org.download(link.get_attribute("href"))
    story.screenshots.keep("round-1-cards.pdf", content)
    text = pdf_text(content)
    assert "PTS 20S SCORE" in text, "a card of a game to 100 has a board-score box every round"
    assert "adds the difference" in text and "Round points 2 / 1 / 0" not in text

    filled = section.get_by_role("link", name="Scorecards of the stage (PDF)")
    content = org.download(filled.get_attribute("href"))
    story.screenshots.keep("stage-cards.pdf", content)
    text = pdf_text(content)
    a, b = first.match.entry_a.player.number, first.match.entry_b.player.number
    lines = game_lines(a, b)
    running = by_hand(lines)
    gained = [x - px for (x, _), (px, _) in zip(running, [(0, 0), *running], strict=False)]
    cells = " ".join(f"{g} {line[2]} {line[0]}" for g, line in zip(gained, lines, strict=True))
    totals = f"{running[-1][0]} {sum(line[2] for line in lines)}"
    card = text[text.index(BY_NUMBER[a].full_name) :]
    assert f"{cells} {totals}" in card, f"{BY_NUMBER[a].full_name}'s printed card: {card[:600]}"


# The story -------------------------------------------------------------------------------------


def test_difference_to_100_club_category(server, chromium, screenshots, fast_passwords):
    check_the_plan()
    story = Story(chromium, server, screenshots)
    people = People()

    org = story.visitor("organizer", LAPTOP)
    tournament, stage = set_up(org, people)
    people.link_players(tournament)

    first = first_game_at_the_board(story, stage)
    table_verifies(story, stage, first)
    the_other_games(stage, people, skip=first)
    assert Game.objects.filter(match__stage=stage, rounds__isnull=True).count() == 0

    public_pages(story, tournament, stage, first)
    printed_cards(story, org, stage, first)
    org.close()

    assert not story.problems, "\n".join(story.problems)
    if story.app_bugs:
        warnings.warn("app bugs met on the way:\n" + "\n".join(story.app_bugs), stacklevel=1)
    assert not story.missing_links, "pages the story reached only by typing their address:\n" + (
        "\n".join(sorted(set(story.missing_links)))
    )
