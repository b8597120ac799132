"""The pages the tournament story found hard to use, on a phone (390 px) and a laptop (1280 px)
in a real chromium: nothing off the phone's screen, the scorecard folded to the game at hand,
counts that follow the clicks, and words where the app keeps keys.

The tournament is built through the services (no story to tell here); each page is looked at
on both devices and left as a screenshot in tests/artifacts/layouts/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.models import CardRow
from scoring.scorecards import services as scorecards
from tests.e2e.browsing import DASH, LAPTOP, PHONE, Screenshots, Story, Visitor
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    PlayerFactory,
    allow_creating_tournaments,
)
from tests.tournaments.test_stages import field, record
from tournaments.models import Board, Entry, Match, Stage, Tournament, TournamentRole
from tournaments.services.draws import draw_knockout, draw_stage

pytestmark = [
    pytest.mark.browser,
    # One story, one pytest-xdist worker: its steps run in order (``make test`` uses loadgroup).
    pytest.mark.xdist_group("story-layouts"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "board-and-discs"
DEVICES = (PHONE, LAPTOP)
FOLDER = Path(__file__).resolve().parent.parent / "artifacts" / "layouts"
CLUB = ("ann", "bob", "cid", "dee", "eve", "fay")
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def mirror(rounds: list[dict]) -> list[dict]:
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


class Event:
    """A tournament with two singles categories.

    Open: a played 4-game preliminary (level points, set apart by 20s) and a best-of-3 knockout
    whose first semifinal ended 2-0. Club: a drawn 4-game preliminary whose players have logins;
    in round of play 1 two cards wait for the scoring table and one game's cards disagree, in
    games Ann does not play (her card has its four games to fill).
    """

    def __init__(self) -> None:
        self.open, entries = field(8, boards=6)
        self.tournament: Tournament = self.open.tournament
        self.prelim = Stage.objects.create(
            category=self.open, name="Preliminary", kind="preliminary", order=1,
            games_per_entry=4, advance_count=4,
        )  # fmt: skip
        self.final = Stage.objects.create(
            category=self.open, name="Final four", kind="knockout", order=2, best_of=3
        )
        draw_stage(self.prelim, method="rotation")
        for match in Match.objects.filter(stage=self.prelim, entry_b__isnull=False):
            # Entries 0-3 beat 4-7, and level among themselves; 20s set them apart.
            a, b = (entries.index(e) for e in (match.entry_a, match.entry_b))
            winner = None if (a < 4) == (b < 4) else ("a" if a < b else "b")
            record(match.games.get(), winner, (8 - a, 8 - b))
        draw_knockout(self.final, entries[:4])
        self.semi = Match.objects.filter(stage=self.final).order_by("bracket_slot").first()
        for number in (1, 2):
            record(self.semi.games.get(number=number), "a", (5, 2))
        self.champion = self.semi.entry_a.player

        self.people = {
            name: User.objects.create_user(name, password=PASSWORD)
            for name in ("olga", "tess", "rita", *CLUB)
        }
        for name, role in (
            ("olga", TournamentRole.Role.ORGANIZER),
            ("tess", TournamentRole.Role.SCORING_TABLE),
            ("rita", TournamentRole.Role.REFEREE),
        ):
            TournamentRole.objects.create(
                tournament=self.tournament, user=self.people[name], role=role
            )
        # Olga runs events of her own: the header offers her a new tournament.
        allow_creating_tournaments(self.people["olga"])
        self.club = CategoryFactory(tournament=self.tournament, name="Club Singles")
        self.club_entries = [
            EntryFactory(
                category=self.club,
                player=PlayerFactory(
                    tournament=self.tournament,
                    first_name=name.title(),
                    last_name="Example",
                    user=self.people[name],
                ),
            )
            for name in CLUB
        ]
        self.club_stage = Stage.objects.create(
            category=self.club, name="Round robin day", kind="preliminary", order=1,
            games_per_entry=4,
        )  # fmt: skip
        draw_stage(self.club_stage, method="rotation")
        Board.objects.filter(tournament=self.tournament).update(in_service=True)
        ann = self.club_entries[0]
        first, second = (
            Match.objects.filter(stage=self.club_stage, round_of_play=1, entry_b__isnull=False)
            .exclude(entry_a=ann)
            .exclude(entry_b=ann)
            .select_related("entry_a__player__user", "entry_b__player__user")
            .order_by("id")
        )
        self.signed(first, WIN, mirror(WIN))
        self.disputed = second.games.get()
        self.signed(second, WIN, mirror([*WIN[:3], {"points": [2, 0], "twenties": [1, 2]}]))
        # The draws above needed everyone checked in; the check-in page is tried from scratch.
        Entry.objects.filter(category__tournament=self.tournament).update(checked_in=False)

    def signed(self, match: Match, rounds_a: list[dict], rounds_b: list[dict]) -> None:
        """Both cards of the match's game filled by their players: cards that say the same
        validate each other, cards that differ are a dispute (services._after_change)."""
        a, b = match.entry_a, match.entry_b
        game = match.games.get()
        scorecards.fill_row(
            card=scorecards.card_for(self.club_stage, a),
            game=game,
            rounds=rounds_a,
            user=a.player.user,
        )
        row_b = scorecards.fill_row(
            card=scorecards.card_for(self.club_stage, b),
            game=game,
            rounds=rounds_b,
            user=b.player.user,
        )
        assert row_b.status in (CardRow.Status.VALIDATED, CardRow.Status.DISPUTED)

    def url(self, tail: str = "") -> str:
        return f"/t/{self.tournament.slug}/{tail}"


@pytest.fixture
def event(fast_passwords) -> Event:
    return Event()


@pytest.fixture
def story(chromium, server) -> Story:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for old in FOLDER.glob("*.png"):
        old.unlink()
    return Story(chromium, server, Screenshots(FOLDER))


def visitors(story: Story, login: str | None, then: str) -> list[Visitor]:
    """The same person on a phone and on a laptop, logged in when ``login`` is given."""
    people = []
    for device in DEVICES:
        person = story.visitor(login or "public", device)
        if login:
            person.log_in(login, PASSWORD, then=then)
        else:
            person.go(then)
        people.append(person)
    return people


def test_pages_fit_the_phone_and_follow_the_clicks(story, event):
    # The player's page: a 2-0 match's third game is not needed; on a phone nothing is
    # off-screen.
    for fan in visitors(story, None, event.url(f"players/{event.champion.number}/")):
        cells = fan.page.locator("table.player-games td.result").all_inner_texts()
        results = [text.strip() for text in cells]
        assert len(results) == 7 and results[4:] == ["won", "won", "not needed"], results
        assert fan.overflow() == 0, f"{fan.device.name}: {fan.overflow()} px off-screen"
        fan.shot("player-page")
        fan.close()

    # Standings: the tiebreak column in words.
    standings = event.url(f"stages/{event.prelim.pk}/standings/")
    for fan in visitors(story, None, standings):
        column = fan.page.locator("table.standings tbody td:nth-child(7)").all_inner_texts()
        assert "20s" in column and not {"twenties", "head-to-head", "shoot-out"} & set(column)
        fan.shot("standings")
        fan.close()

    # Ann's card: four games, the first one to fill open, the rest folded.
    for player in visitors(story, "ann", event.url("cards/")):
        player.page.get_by_role("link", name=re.compile("Round robin day")).click()
        expect(player.page.locator(".card-header")).to_contain_text("Ann Example")
        expect(player.page.locator("section.card-row")).to_have_count(4)
        expect(player.page.locator("details.edit[open]")).to_have_count(1)
        folded = player.page.locator("details.edit:not([open]) > summary")
        expect(folded).to_have_count(3)
        box = folded.first.bounding_box()
        assert box["height"] >= 44, "a folded game must stay easy to tap"
        second = player.page.locator("details.edit > summary").nth(1)
        second.click()  # one tap unfolds it, and folds it again
        expect(player.page.locator("details.edit[open]")).to_have_count(2)
        second.click()
        expect(player.page.locator("details.edit[open]")).to_have_count(1)
        assert player.overflow() == 0
        player.shot("scorecard")
        player.close()

    # The organizer: check-in counts follow fast clicks; the category page's buttons.
    for organizer in visitors(story, "olga", event.url("manage/check-in/")):
        page = organizer.page
        summary = page.locator("#checkin-summary")
        expect(summary).to_have_text("0 of 14 entries checked in")
        rows = page.locator("#checkin-rows tr").all()[:6]
        for row in rows:  # each click before the previous one is answered
            row.get_by_role("button", name="Check in").click()
        expect(page.get_by_role("button", name="✓ Here")).to_have_count(6)
        expect(summary).to_have_text("6 of 14 entries checked in")
        for row in rows:
            row.get_by_role("button", name="✓ Here").click()
        expect(summary).to_have_text("0 of 14 entries checked in")
        rows[0].get_by_role("button", name="Check in").click()
        expect(summary).to_have_text("1 of 14 entries checked in")
        assert organizer.overflow() == 0
        organizer.shot("check-in")
        organizer.follow(event.url("manage/"), text="Dashboard")
        organizer.follow(event.url(f"manage/categories/{event.open.pk}/"))
        expect(page.locator(f"form[action$='/stages/{event.final.pk}/draw/']")).to_have_count(0)
        for link in ("Print", "Scoring table", "Public pages"):
            expect(page.locator("nav.sub").get_by_role("link", name=link)).to_be_visible()
        expect(page.get_by_role("link", name="bracket", exact=True)).to_be_visible()
        expect(
            page.locator("header.top").get_by_role("link", name="New tournament")
        ).to_be_visible()
        organizer.shot("category")
        organizer.close()

    # The scoring table: the count above the cards follows each verification.
    phone, laptop = visitors(story, "tess", event.url("cards/table/"))
    count = laptop.page.locator("#queue .count")
    expect(count).to_have_text("2 cards waiting.")
    phone.shot("scoring-table")
    laptop.shot("scoring-table")
    laptop.page.locator("article.table-card").first.get_by_role(
        "button", name="Verify card"
    ).click()
    expect(count).to_have_text("1 card waiting.")
    laptop.page.locator("article.table-card:not(.result)").get_by_role(
        "button", name="Verify card"
    ).click()
    expect(count).to_have_text("0 cards waiting.")
    laptop.shot("scoring-table-verified")
    for person in (phone, laptop):
        person.close()

    # The dispute queue: one dash between two numbers.
    for referee in visitors(story, "rita", event.url("cards/disputes/")):
        table = referee.page.locator(f"#dispute-{event.disputed.pk} table.compare")
        text = table.inner_text()
        scores = re.findall(r"\d+\s*[-\u2013]\s*\d+", text)
        assert scores and all(DASH in s for s in scores), scores
        referee.shot("disputes")
        referee.close()

    assert not story.problems, "\n".join(story.problems)
