"""A 16-player singles event from the organizer's first click to the final, in a real chromium.

What goes through the browser (people logging in, clicking, typing):
- the organizer, on a laptop (1280x800): creates the tournament, adds Competitive Singles from
  the WCC presets, sets 8 boards, registers two players by hand and imports fourteen from a CSV
  file (with its preview), checks everyone in, adds a 4-game preliminary (top 4 advance) and a
  best-of-3 knockout, draws the preliminary, reads the standings, advances the top 4 into the
  knockout (with a match for 3rd place) and prints: the semifinals' scorecards as a background
  batch (progress bar, then the PDF, read back with pypdf), and after the final the bracket and
  standings sheets;
- four players, each on their own phone (390x844), fill their row of round of play 1 while the
  live total follows the boxes, and sign their opponent's row on their own phone (one through
  the private link of their player sheet, without a login; player ID and initials); one of
  them writes a 20 too many, so the two cards disagree;
- a referee, on a phone, finds the dispute and corrects that row with her initials;
- the scoring table, on a laptop, verifies the four cards of round of play 1;
- the public, on a phone and a laptop: the round's board list, the bracket, a player's page.

What goes through the services the pages call (``scoring.scorecards.services``: fill_row,
validate_row, verify_card), to keep the run short: the other 30 preliminary games, the
semifinals, the final and the match for 3rd place; and the knockout's next matches are opened
with ``scoring.progression.services.advance_knockout`` (no page does it). Users and their roles are
created with the ORM (no page gives roles or links a login to a player).

The right standings come from the results the test entered (``story_results``), ranked by the
scoring engine and added up by hand, never from the app's own pages. Screenshots of every step
are left in tests/artifacts/e2e/.
"""

from __future__ import annotations

import io
import logging
import re
import warnings

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import expect
from pypdf import PdfReader

from scoring.models import CardRow, ScoreCard
from scoring.progression.services import advance_knockout
from scoring.scorecards import services as scorecards
from tests.celery_support import running_worker
from tests.e2e import story_results as plan
from tests.e2e.browsing import (
    LAPTOP,
    PHONE,
    Story,
    Visitor,
    fill_row,
    open_private_link,
    save_anyway,
    save_row,
    sign_opponents_row,
    type_rounds,
    typed_total,
)
from tests.factories import allow_creating_tournaments
from tournaments.models import Entry, Game, Match, Player, Stage, Tournament, TournamentRole
from tournaments.services.links import link_of

pytestmark = [
    pytest.mark.browser,
    # One story, one pytest-xdist worker: its steps run in order (``make test`` uses loadgroup).
    pytest.mark.xdist_group("story-tournament"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "board-and-discs"
Role = TournamentRole.Role
Status = CardRow.Status
CATEGORY = "Competitive Singles"
CSV_HEADER = "first_name,last_name,number,club,country,categories"


def pdf_text(content: bytes) -> str:
    assert content.startswith(b"%PDF"), content[:40]
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def official(game: Game) -> list[dict]:
    """The official rounds of a game from entry A's side, as the scorecard rows give them."""
    return [
        {"points": [r.points_a, r.points_b], "twenties": [r.twenties_a, r.twenties_b]}
        for r in game.rounds.order_by("number")
    ]


class Officials:
    """The tournament's people as the ORM knows them."""

    def __init__(self) -> None:
        self.organizer = User.objects.create_user("olivia", password=PASSWORD)
        # The site permission to create tournaments; whoever creates one becomes its organizer.
        allow_creating_tournaments(self.organizer)
        self.head_referee = User.objects.create_user("hank", password=PASSWORD)
        self.referee = User.objects.create_user("rita", password=PASSWORD)
        self.table = User.objects.create_user("tess", password=PASSWORD)
        self.players: dict[int, User] = {}

    def give_roles(self, tournament: Tournament) -> None:
        for user, role in (
            (self.head_referee, Role.HEAD_REFEREE),
            (self.referee, Role.REFEREE),
            (self.table, Role.SCORING_TABLE),
        ):
            TournamentRole.objects.create(tournament=tournament, user=user, role=role)

    def link_players(self, tournament: Tournament) -> None:
        for player in tournament.players.all():
            user = User.objects.create_user(f"player{player.number}", password=PASSWORD)
            player.user = user
            player.save(update_fields=["user"])
            self.players[player.number] = user


# The story's chapters ------------------------------------------------------------------------


def set_up_tournament(org: Visitor, people: Officials) -> Tournament:
    """The organizer creates the event, its category, boards, players, stages, and the draw."""
    page = org.page
    org.log_in("olivia", PASSWORD, then="/")
    org.follow("/new/")
    page.fill("#id_name", "Tavistock Spring Open")
    page.fill("#id_venue", "Tavistock Community Hall")
    page.fill("#id_starts_on", "2026-04-18")
    page.fill("#id_ends_on", "2026-04-18")
    org.shot("new-tournament")
    org.press("Create the tournament")
    expect(org.message()).to_contain_text("Tavistock Spring Open is created")
    slug = "tavistock-spring-open"
    assert org.path == f"/t/{slug}/manage/"
    tournament = Tournament.objects.get(slug=slug)
    assert tournament.roles.filter(user=people.organizer, role=Role.ORGANIZER).exists()
    people.give_roles(tournament)

    org.follow(f"/t/{slug}/manage/categories/new/", text="Add categories")
    page.get_by_label(re.compile(rf"{CATEGORY} \(singles")).check()
    org.press("Add the ticked categories")
    expect(org.message()).to_contain_text(f"Added {CATEGORY}.")

    org.follow(f"/t/{slug}/manage/boards/", text="Boards")
    page.fill("#id_count", "8")
    org.press("Set")
    expect(org.message()).to_contain_text("The hall has 8 boards.")

    org.follow(f"/t/{slug}/manage/players/", text="Players")
    for person in plan.PLAYERS[:2]:
        page.fill("#id_first_name", person.first_name)
        page.fill("#id_last_name", person.last_name)
        page.fill("#id_number", str(person.number))
        page.fill("#id_club", person.club)
        page.fill("#id_country", person.country)
        page.locator("form.stack").get_by_label(CATEGORY, exact=True).check()
        org.press("Register")
        expect(org.message()).to_contain_text(
            f"Registered {person.full_name} with ID {person.number}."
        )

    org.follow(f"/t/{slug}/manage/players/import/", text="Import CSV")
    lines = [CSV_HEADER] + [
        f"{p.first_name},{p.last_name},{p.number},{p.club},{p.country},{CATEGORY}"
        for p in plan.PLAYERS[2:]
    ]
    page.set_input_files(
        "#id_file",
        files=[
            {
                "name": "players.csv",
                "mimeType": "text/csv",
                "buffer": ("\n".join(lines) + "\n").encode(),
            }
        ],
    )
    org.press("Check the file")
    confirm = page.get_by_role("button", name="Import 14 players")
    expect(confirm).to_be_visible()
    org.shot("csv-preview")
    org.press("Import 14 players")
    expect(org.message()).to_contain_text("Imported 14 players and 14 entries.")
    expect(page.locator("table.grid tbody tr")).to_have_count(16)
    org.shot("players")

    org.follow(f"/t/{slug}/manage/check-in/", text="Check-in")
    entries = list(Entry.objects.filter(category__tournament=tournament).order_by("id"))
    assert len(entries) == 16
    summary = page.locator("#checkin-summary")
    for count, entry in enumerate(entries, start=1):
        row = page.locator(f"#entry-{entry.pk}")
        row.get_by_role("button", name="Check in").click()
        expect(row.get_by_role("button", name="✓ Here")).to_be_visible()
        # The count at the top comes in the same answer as the row: it is right the moment
        # the row is, without waiting for it.
        assert summary.text_content() == f"{count} of 16 entries checked in"
    org.shot("check-in")
    # Five quick clicks, each before the previous one is answered, and back: the count ends
    # where the rows do.
    rows = [page.locator(f"#entry-{entry.pk}") for entry in entries[:5]]
    for label, shown, count in (("✓ Here", "Check in", 11), ("Check in", "✓ Here", 16)):
        for row in rows:
            row.get_by_role("button", name=label).click()
        for row in rows:
            expect(row.get_by_role("button", name=shown)).to_be_visible()
        expect(summary).to_have_text(f"{count} of 16 entries checked in")
    assert Entry.objects.filter(category__tournament=tournament, checked_in=True).count() == 16

    category = tournament.categories.get()
    org.follow(f"/t/{slug}/manage/", text="Dashboard")
    org.follow(f"/t/{slug}/manage/categories/{category.pk}/", text=CATEGORY)
    for name, kind, advance, games, best_of in (
        ("Preliminary", "preliminary", "4", "4", "1"),
        ("Playoff", "knockout", "", "", "3"),
    ):
        form = page.locator("details:has(> summary:has-text('Add a stage'))")
        if form.get_attribute("open") is None:
            form.locator("summary").click()
        page.fill("#id_name", name)
        page.select_option("#id_kind", kind)
        page.fill("#id_advance_count", advance)
        page.fill("#id_games_per_entry", games)
        page.fill("#id_best_of", best_of)
        org.submit(form.locator("form"), "Add the stage")
        expect(org.message()).to_contain_text(f"Added the stage {name}.")
    preliminary = category.stages.get(name="Preliminary")
    playoff = category.stages.get(name="Playoff")
    assert playoff.best_of == 3
    # The playoff gets its entries from the preliminary's Advance: no Draw of its own.
    expect(page.locator(f"form[action$='/stages/{playoff.pk}/draw/']")).to_have_count(0)
    expect(page.locator("table.stages")).to_contain_text(
        "Filled by the Advance of Preliminary, once that stage is finished."
    )
    draw = page.locator(f"form[action$='/stages/{preliminary.pk}/draw/']")
    draw.locator("select[name=method]").select_option("random")
    org.submit(draw, "Draw")
    expect(org.message()).to_contain_text("Preliminary: drawn (32 matches).")
    org.shot("drawn")
    return tournament


def public_round_one(story: Story, tournament: Tournament, stage: Stage) -> None:
    """A player looks up their board for round of play 1 on their phone."""
    fan = story.visitor("public", PHONE)
    fan.go(tournament.get_absolute_url())
    fan.follow(f"/t/{tournament.slug}/stages/{stage.pk}/schedule/", text="schedule")
    assert fan.path == f"/t/{tournament.slug}/stages/{stage.pk}/rounds/1/"
    first = Match.objects.filter(stage=stage, round_of_play=1).select_related("entry_a").first()
    expect(fan.page.locator("main")).to_contain_text(first.entry_a.name)
    fan.shot("round-1-boards")
    fan.close()


def open_my_card(story: Story, who: int, tournament: Tournament) -> Visitor:
    phone = story.visitor(f"player {who}", PHONE)
    phone.log_in(f"player{who}", PASSWORD, then=f"/t/{tournament.slug}/")
    phone.follow(f"/t/{tournament.slug}/cards/", text="cards")
    phone.page.get_by_role("link", name=f"{CATEGORY} · Preliminary").click()
    expect(phone.page.locator(".card-header")).to_contain_text(str(who))
    return phone


def round_one_at_the_boards(story: Story, tournament: Tournament, stage: Stage) -> dict:
    """Two games of round of play 1, both cards of each filled and signed on the phones. In the
    second game one player writes a 20 too many: the two cards disagree."""
    matches = list(
        Match.objects.filter(stage=stage, round_of_play=1)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("board__number", "id")[:2]
    )
    games = {}
    for index, match in enumerate(matches):
        game = match.games.get()
        a, b = match.entry_a.player.number, match.entry_b.player.number
        truth = plan.preliminary_game(a, b)
        mistaken = index == 1
        first = plan.with_mistake(truth) if mistaken else truth
        phone_a = open_my_card(story, a, tournament)
        if index == 0:
            # Only the game about to be written is unfolded; the card's later games wait.
            expect(phone_a.page.locator("details.edit[open]")).to_have_count(1)
            expect(phone_a.page.locator(f"#game-{game.id} details.edit[open]")).to_have_count(1)
            height = phone_a.page.evaluate("() => document.documentElement.scrollHeight")
            assert height < 2500, f"a card of 4 games is {height} px tall on a phone"
            phone_a.shot("card-opened")
            type_rounds(phone_a.page, game.id, first)
            typed_total(phone_a.page, game.id, first)
            phone_a.shot("card-row-typed", at=phone_a.page.locator(f"#total-{game.id}"))
            save_row(phone_a.page, game.id)
        else:
            fill_row(phone_a.page, game.id, first)
        # Validation is the opponent's act, on their own phone: in the first game B opens the
        # private link of their player sheet (no login), in the second B logs in.
        card_of = {
            entry.player.number: reverse(
                "scoring:cards:card", args=[tournament.slug, stage.id, entry.id]
            )
            for entry in (match.entry_a, match.entry_b)
        }
        if index == 0:
            token = link_of(match.entry_b).token
            link = reverse("scoring:private_link", args=[tournament.slug, token])
            phone_b = open_private_link(story, f"player {b}", link, PHONE)
            phone_b.shot("private-link-opened")
        else:
            phone_b = open_my_card(story, b, tournament)
        sign_opponents_row(phone_b, card_of[a], game.id, b, plan.BY_NUMBER[b].initials)
        if index == 0:
            phone_b.shot("card-row-validated", at=phone_b.page.locator(f"#game-{game.id}"))
        phone_b.go(card_of[b])
        if mistaken:
            # B's own card says otherwise than the row B signed: B is warned, and saves it
            # anyway, which takes the game to the head referee.
            fill_row(phone_b.page, game.id, plan.mirror(truth), badge=None)
            save_anyway(phone_b.page, game.id)
        else:
            # B's own card says what the row B signed says: it is validated by it at once.
            fill_row(phone_b.page, game.id, plan.mirror(truth), badge="Validated by the opponent")
        phone_b.go(card_of[b])
        if mistaken:
            badge = phone_b.page.locator(f"#game-{game.id} .badge")
            expect(badge).to_have_text("Disputed")
            expect(phone_b.page.locator(f"#game-{game.id} .disputed")).to_be_visible()
            phone_b.shot("cards-disagree", at=badge)
        phone_a.close()
        phone_b.close()
        games[game.id] = (match, truth)
    return games


def referee_corrects(story: Story, tournament: Tournament, games: dict) -> None:
    """The referee opens the dispute queue, goes to the card with the mistake and corrects it."""
    game_id, (match, truth) = list(games.items())[1]
    referee = story.visitor("referee", PHONE)
    referee.log_in("rita", PASSWORD, then=f"/t/{tournament.slug}/")
    referee.follow(f"/t/{tournament.slug}/cards/", text="cards")
    referee.follow(f"/t/{tournament.slug}/cards/disputes/", text="Dispute queue")
    dispute = referee.page.locator(f"#dispute-{game_id}")
    expect(dispute.locator("tr.differs")).to_have_count(1)
    expect(dispute.locator("tr.differs th")).to_contain_text("3")
    referee.shot("dispute-queue")
    dispute.get_by_role("link", name=f"{match.entry_a.name}'s card").click()
    row = referee.page.locator(f"#game-{game_id}")
    row.locator("summary", has_text="Correct this row (referee)").click()
    type_rounds(referee.page, game_id, truth)
    typed_total(referee.page, game_id, truth)
    referee.page.fill(f"#id_g{game_id}-referee_initials", "RK")
    row.get_by_role("button", name="Save the correction").click()
    expect(row.locator(".ok")).to_have_text("Correction saved, initialled by the referee.")
    expect(row.locator(".badge")).to_have_text("Validated by the opponent")
    expect(row.locator(".corrected")).to_contain_text("RK")
    referee.shot("row-corrected", at=row)
    referee.close()
    rows = CardRow.objects.filter(game_id=game_id)
    assert sorted(rows.values_list("status", flat=True)) == [Status.VALIDATED] * 2


def table_verifies(story: Story, tournament: Tournament, stage: Stage, games: dict) -> None:
    """The scoring table filters round of play 1 and verifies the four cards: only then do the
    games count (WCC standings read verified cards)."""
    assert not Game.objects.filter(pk__in=list(games), rounds__isnull=False).exists()
    table = story.visitor("scoring table", LAPTOP)
    table.log_in("tess", PASSWORD, then=f"/t/{tournament.slug}/")
    table.follow(f"/t/{tournament.slug}/cards/", text="cards")
    table.follow(f"/t/{tournament.slug}/cards/table/", text="Scoring table")
    page = table.page
    page.select_option("#id_stage", label=str(stage))
    expect(page).to_have_url(re.compile(rf"stage={stage.pk}"))
    page.select_option("#id_round_of_play", label="Round of play 1")
    expect(page).to_have_url(re.compile(r"round_of_play=1"))
    expect(page.locator("#queue .count")).to_have_text("4 cards waiting.")
    table.shot("scoring-table")
    cards = list(ScoreCard.objects.filter(rows__game_id__in=list(games)).distinct())
    assert len(cards) == 4
    for left, card in enumerate(cards, start=1):
        block = page.locator(f"#card-{card.pk}")
        block.get_by_role("button", name="Verify card").click()
        expect(block).to_contain_text(f"Verified the card of {card.entry.name} (1 row).")
        waiting = 4 - left
        expect(page.locator("#queue .count")).to_have_text(
            f"{waiting} card{'s' if waiting != 1 else ''} waiting."
        )
    table.shot("cards-verified")
    table.close()
    for game_id, (match, truth) in games.items():
        game = Game.objects.get(pk=game_id)
        assert official(game) == truth, f"{match}: the official result is not what was played"


def play(stage: Stage, game: Game, rounds_a: list[dict], people: Officials) -> None:
    """Both cards of a game filled by their players (services): saying the same, each
    validates the other (both cards agree)."""
    match = game.match
    a, b = match.entry_a, match.entry_b
    na, nb = a.player.number, b.player.number
    ua, ub = people.players[na], people.players[nb]
    card_a, card_b = scorecards.card_for(stage, a), scorecards.card_for(stage, b)
    scorecards.fill_row(card=card_a, game=game, rounds=rounds_a, user=ua)
    row_b = scorecards.fill_row(card=card_b, game=game, rounds=plan.mirror(rounds_a), user=ub)
    assert row_b.status == Status.VALIDATED, f"{match}: the two cards do not agree"


def verify_all(stage: Stage, people: Officials) -> None:
    for card in ScoreCard.objects.filter(stage=stage, rows__status=Status.VALIDATED).distinct():
        scorecards.verify_card(card=card, user=people.table)


def stage_matches(stage: Stage, **filters) -> list[Match]:
    return list(
        Match.objects.filter(stage=stage, **filters)
        .select_related("entry_a__player", "entry_b__player")
        .prefetch_related("games")
        .order_by("round_of_play", "bracket_slot", "id")
    )


def play_knockout_round(stage: Stage, people: Officials, matches: list[Match]) -> dict:
    """Each match game by game until a side has two wins; returns winner and loser by slot."""
    outcome = {}
    for match in matches:
        a, b = match.entry_a.player.number, match.entry_b.player.number
        winners = plan.playoff_winners(a, b)
        games = sorted(match.games.all(), key=lambda g: g.number)
        assert len(games) == 3, f"{match}: a best-of-3 match has its three games up front"
        for game, winner in zip(games, winners, strict=False):
            play(stage, game, plan.playoff_game(a, b, winner), people)
        winner = winners[-1]
        outcome[match.bracket_slot] = (winner, b if winner == a else a)
    verify_all(stage, people)
    return outcome


def standings_lines(page) -> list[tuple[int, int, int, int]]:
    """(rank, ID, points, 20s) of every line of the standings table on the page."""
    lines = []
    for row in page.locator("table.standings tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        lines.append((int(cells[0]), int(cells[2]), int(cells[4]), int(cells[5])))
    return lines


def bracket_winner(page, slot: str) -> str:
    match = page.locator(f"svg.bracket #match-{slot}")
    expect(match.locator("g.side.win")).to_have_count(1)
    return match.locator("g.side.win .name").text_content()


# The story -----------------------------------------------------------------------------------


def test_sixteen_player_singles_event(server, chromium, screenshots, fast_passwords, media):
    story = Story(chromium, server, screenshots)
    people = Officials()

    org = story.visitor("organizer", LAPTOP)
    tournament = set_up_tournament(org, people)
    people.link_players(tournament)
    category = tournament.categories.get()
    preliminary = category.stages.get(name="Preliminary")
    playoff = category.stages.get(name="Playoff")
    public_round_one(story, tournament, preliminary)

    # Round of play 1 at the boards, the referee and the scoring table ----------------------
    browser_games = round_one_at_the_boards(story, tournament, preliminary)
    referee_corrects(story, tournament, browser_games)
    table_verifies(story, tournament, preliminary, browser_games)

    # The rest of the preliminary through the services the pages call --------------------
    played = []
    for match in stage_matches(preliminary):
        game = match.games.all()[0]
        a, b = match.entry_a.player.number, match.entry_b.player.number
        rounds = plan.preliminary_game(a, b)
        played.append(plan.Played(a, b, rounds))
        if game.id not in browser_games:
            play(preliminary, game, rounds, people)
    verify_all(preliminary, people)
    assert len(played) == 32
    assert sorted(n for g in played for n in (g.a, g.b)) == sorted(
        p.number for p in plan.PLAYERS for _ in range(4)
    ), "every player plays four preliminary games"

    expected = plan.expected_standings(played)
    by_hand = plan.totals_by_hand(played)
    assert [(int(r.entry), r.points, r.twenties) for r in expected] == sorted(
        ((n, *t) for n, t in by_hand.items()), key=lambda x: (-x[1], -x[2])
    ), "the engine and the sums by hand disagree about the expected standings"
    assert [r.rank for r in expected] == list(range(1, 17)), "the plan leaves no tie"
    top4 = [int(r.entry) for r in expected[:4]]

    # The organizer reads the standings and advances the top 4 -----------------------------
    org.follow(f"/t/{tournament.slug}/manage/", text="Dashboard")
    org.follow(f"/t/{tournament.slug}/stages/{preliminary.pk}/standings/", text="standings")
    assert standings_lines(org.page) == [
        (r.rank, int(r.entry), r.points, r.twenties) for r in expected
    ]
    advancing = org.page.locator("table.standings tbody tr.advances td:nth-child(3)")
    assert [int(t) for t in advancing.all_inner_texts()] == top4
    org.shot("preliminary-standings")

    org.follow(f"/t/{tournament.slug}/manage/")
    org.follow(f"/t/{tournament.slug}/manage/categories/{category.pk}/", text=CATEGORY)
    advance = org.page.locator(f"form[action$='/stages/{preliminary.pk}/advance/']")
    advance.get_by_label("match for 3rd place").check()
    org.submit(advance, "Advance 4")
    expect(org.message()).to_contain_text("Preliminary: entries advanced; next: Playoff.")
    expect(org.page.locator("form[action$='/advance/']")).to_have_count(0)
    org.shot("playoffs-generated")
    semis = stage_matches(playoff)
    pairs = {frozenset((m.entry_a.player.number, m.entry_b.player.number)) for m in semis}
    assert pairs == {frozenset((top4[0], top4[3])), frozenset((top4[1], top4[2]))}

    fan = story.visitor("public", PHONE)
    fan.go(tournament.get_absolute_url())
    fan.follow(f"/t/{tournament.slug}/stages/{playoff.pk}/bracket/", text="bracket")
    for match in semis:
        box = fan.page.locator(f"svg.bracket #match-{match.bracket_slot}")
        expect(box).to_contain_text(match.entry_a.name)
        expect(box).to_contain_text(match.entry_b.name)
    fan.shot("semifinal-bracket")
    fan.close()

    # Printing the semifinals' cards as a background batch ----------------------------------
    with running_worker():
        org.follow(f"/t/{tournament.slug}/print/", text="Print")
        org.shot("print-menu")
        section = org.page.locator("section.stage", has=org.page.locator("h4", has_text="Playoff"))
        section.get_by_role("button", name="Print round 1").click()
        download = org.page.get_by_role("link", name="Download the PDF")
        expect(download).to_be_visible(timeout=90_000)
        expect(org.page.locator("#batch-status")).to_contain_text("Ready: 4 cards")
        org.shot("print-batch-done")
        cards_pdf = org.download(download.get_attribute("href"))
        org.go("about:blank")  # nothing polls the server while the worker stops
    # The worker's logging setup sends warnings to the log; give them back to pytest, which
    # shows the story's notes at the end.
    logging.captureWarnings(False)
    screenshots.keep("semifinal-cards.pdf", cards_pdf)
    text = pdf_text(cards_pdf)
    for number in top4:
        person = plan.BY_NUMBER[number]
        assert person.full_name in text and str(number) in text, f"{person.full_name} unprinted"

    # The knockout, through the services -----------------------------------------------------
    semi_results = play_knockout_round(playoff, people, semis)
    advance_knockout(playoff)
    finals = {m.bracket_slot: m for m in stage_matches(playoff, bracket_slot__in=["F", "3P"])}
    assert set(finals) == {"F", "3P"}, f"after the semifinals: {sorted(finals)}"
    winners = {w for w, _ in semi_results.values()}
    losers = {loser for _, loser in semi_results.values()}
    numbers = {s: {m.entry_a.player.number, m.entry_b.player.number} for s, m in finals.items()}
    assert numbers == {"F": winners, "3P": losers}
    final_results = play_knockout_round(playoff, people, list(finals.values()))
    assert advance_knockout(playoff) == []
    champion, runner_up = final_results["F"]
    third, fourth = final_results["3P"]
    places = [champion, runner_up, third, fourth]
    assert champion == min(top4, key=plan.RANK.get), "the strongest semifinalist wins the plan"
    champion_matches = [
        pair
        for m in [*semis, *finals.values()]
        if champion in (pair := (m.entry_a.player.number, m.entry_b.player.number))
    ]

    # The final standings --------------------------------------------------------------------
    org.go(f"/t/{tournament.slug}/")
    org.follow(f"/t/{tournament.slug}/stages/{playoff.pk}/bracket/", text="bracket")
    assert bracket_winner(org.page, "F") == plan.BY_NUMBER[champion].full_name
    assert bracket_winner(org.page, "3P") == plan.BY_NUMBER[third].full_name
    for slot, (winner, _) in semi_results.items():
        assert bracket_winner(org.page, slot) == plan.BY_NUMBER[winner].full_name
    org.shot("final-bracket")
    org.follow(f"/t/{tournament.slug}/stages/{playoff.pk}/standings/", text="Standings")
    org.shot("playoff-standings")
    ranked = [number for _, number, _, _ in standings_lines(org.page)]
    assert ranked == places, (
        f"{org.path}: the knockout's standings rank by points ({ranked}), not by the bracket: "
        f"champion, runner-up, 3rd, 4th are {places}"
    )
    org.go(f"/t/{tournament.slug}/")
    assert standings_lines(org.page)[:16] == [
        (r.rank, int(r.entry), r.points, r.twenties) for r in expected
    ]
    org.shot("tournament-page")

    org.follow(f"/t/{tournament.slug}/print/", text="Print")
    playoff_links = org.page.locator(
        "section.stage", has=org.page.locator("h4", has_text="Playoff")
    )
    bracket_pdf = org.download(
        playoff_links.get_by_role("link", name="Bracket sheet (PDF)").get_attribute("href")
    )
    screenshots.keep("bracket-sheet.pdf", bracket_pdf)
    text = pdf_text(bracket_pdf)
    for number in places:
        assert plan.BY_NUMBER[number].full_name in text
    prelim_links = org.page.locator(
        "section.stage", has=org.page.locator("h4", has_text="Preliminary")
    )
    standings_pdf = org.download(
        prelim_links.get_by_role("link", name="Standings sheet (PDF)").get_attribute("href")
    )
    screenshots.keep("preliminary-standings.pdf", standings_pdf)
    text = pdf_text(standings_pdf)
    places = [text.find(plan.BY_NUMBER[int(r.entry)].full_name) for r in expected]
    assert -1 not in places and places == sorted(places), "standings sheet out of order"
    org.close()

    champion_fan = story.visitor("public", PHONE)
    champion_fan.go(tournament.get_absolute_url())
    champion_fan.page.fill("#player-number", str(champion))
    champion_fan.page.get_by_role("button", name="Show games").click()
    expect(champion_fan.page.locator("h2")).to_contain_text(plan.BY_NUMBER[champion].full_name)
    results = [
        row.locator("td").nth(5).inner_text().strip()
        for row in champion_fan.page.locator("table.plain tbody tr").all()
    ]
    champion_games = [g for g in played if champion in (g.a, g.b)]
    won = sum(plan.stronger(champion, g.b if g.a == champion else g.a) for g in champion_games)
    knockout = [plan.playoff_winners(*pair) for pair in champion_matches]
    won += sum(w.count(champion) for w in knockout)
    lost = 4 + sum(len(w) for w in knockout) - won
    assert (results.count("won"), results.count("lost")) == (won, lost), results
    # A best-of-3 match has its three games drawn up front; after 2-0 the third is not needed.
    unneeded = sum(3 - len(w) for w in knockout)
    assert "to play" not in results, results
    assert results.count("not needed") == unneeded, results
    assert champion_fan.overflow() == 0, "the player's games go off the phone's screen"
    champion_fan.shot("champion-page")
    champion_fan.close()

    assert Player.objects.filter(tournament=tournament).count() == 16
    assert not story.problems, "\n".join(story.problems)
    if story.app_bugs:
        warnings.warn("app bugs met on the way:\n" + "\n".join(story.app_bugs), stacklevel=1)
    assert not story.missing_links, "pages the story reached only by typing their address:\n" + (
        "\n".join(sorted(set(story.missing_links)))
    )
