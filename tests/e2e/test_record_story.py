"""The record, from past results to a seeded draw, in a real chromium.

What goes through the browser (people logging in, clicking, typing):
- the record keeper (the site's staff), on a laptop: uploads eight players' past results in the
  Crokinole Reference layout, reads the preview (56 new games, 8 new people) and writes them into
  the record, which computes everyone's rating;
- the public, on a phone: the ranking (strongest first, by the results the test wrote), a
  person's profile from it with their rating, and the registry found by a name typed without its
  accent;
- the organizer, on a laptop: imports the tournament's nine players from a CSV file (eight of
  them linked to the people the record knows, one newcomer), checks everyone in, opens the seed
  editor of the round robin, follows "Seed from ratings", previews two pools with their average
  ratings (on a phone too: nothing to scroll sideways), uses those seeds, and draws the stage
  with two pools: the pools drawn are the pools shown.

What is made with the ORM, to keep the story short: the users, the tournament with its category
and round-robin stage (other stories create them through the pages). The expected order comes
from the results the test wrote (each player beats every weaker one 3 rounds to 1), never from
the app's own pages. Screenshots of every step are left in tests/artifacts/e2e/.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from datetime import date
from itertools import combinations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import expect

from scoring.engine.rating import Belief, display
from scoring.models.record import Discipline, Rating, RecordedGame
from tests.e2e.browsing import LAPTOP, PHONE, Story
from tests.factories import CategoryFactory, StageFactory, TournamentFactory
from tournaments.models import Entry, Player, Stage, TournamentRole
from tournaments.services import seeding

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-record"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "board-and-discs"
CATEGORY = "Open singles"
REFERENCE_HEADER = (
    "date,event,stage,pool,game,player_a,player_b,first_in_round_1,"
    "points_a,points_b,twenties_a,twenties_b"
)
CSV_HEADER = "first_name,last_name,number,club,country,categories"


@dataclass(frozen=True)
class Person:
    first_name: str
    last_name: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


#: Strongest first: each beats every one after them, 3 rounds to 1, in every game.
PEOPLE = [
    Person("Élodie", "Gagné"),
    Person("Nathan", "Walsh"),
    Person("Brian", "Cook"),
    Person("Ray", "Beierling"),
    Person("Justin", "Slater"),
    Person("Andrew", "Hutchinson"),
    Person("Connor", "Reinman"),
    Person("Jason", "Beierling"),
]
NEWCOMER = Person("Nora", "Newcomer")


def reference_file() -> bytes:
    """Two meetings of every pair, on two days: 56 games, 14 for each of the eight."""
    lines = [REFERENCE_HEADER]
    game = 0
    for day, event in ((date(2025, 5, 3), "Spring League"), (date(2025, 9, 6), "Fall League")):
        for strong, weak in combinations(PEOPLE, 2):
            game += 1
            lines.append(
                ",".join(
                    [
                        day.isoformat(),
                        event,
                        "Round robin",
                        "A",
                        str(game),
                        strong.full_name,
                        weak.full_name,
                        strong.full_name,
                        "2 2 0 2",
                        "0 0 2 0",
                        "2 1 0 3",
                        "0 1 2 1",
                    ]
                )
            )
    return ("\n".join(lines) + "\n").encode()


def csv_file(name: str, content: bytes) -> list[dict]:
    return [{"name": name, "mimeType": "text/csv", "buffer": content}]


# The story's chapters ------------------------------------------------------------------------


def record_keeper_imports(story: Story) -> None:
    keeper = story.visitor("record keeper", LAPTOP)
    keeper.log_in("rhea", PASSWORD, "/record/import/")
    page = keeper.page
    page.set_input_files("#id_file", files=csv_file("leagues-2025.csv", reference_file()))
    keeper.press("Check the file")
    expect(page.get_by_role("heading", name="Import preview")).to_be_visible()
    counts = page.locator("ul.counts")
    expect(counts).to_contain_text("56new games")
    expect(counts).to_contain_text("8new people")
    assert RecordedGame.objects.count() == 0  # a preview writes nothing
    keeper.shot("record-import-preview")
    keeper.press("Write 56 games into the record")
    expect(keeper.message()).to_contain_text("Imported: 56 new games, 8 new people")
    keeper.shot("record-imported")
    assert RecordedGame.objects.count() == 56
    ratings = Rating.objects.filter(discipline=Discipline.SINGLES).select_related("person")
    assert {r.person.full_name: r.games for r in ratings} == {p.full_name: 14 for p in PEOPLE}
    keeper.close()


def public_reads_the_ranking(story: Story) -> None:
    fan = story.visitor("fan", PHONE)
    fan.go("/")
    story.note_bug(
        fan.page.locator('a[href="/ranking/"]').count() > 0,
        "the front page has no link to the ranking",
    )
    fan.go("/ranking/")
    rows = fan.page.locator("table.ranking-table tbody tr")
    expect(rows).to_have_count(len(PEOPLE))
    shown = [rows.nth(n).locator("td").nth(1).inner_text().strip() for n in range(len(PEOPLE))]
    assert shown == [p.full_name for p in PEOPLE]
    assert fan.overflow() == 0
    fan.shot("ranking")

    best = PEOPLE[0]
    link = rows.first.get_by_role("link", name=best.full_name)
    fan.follow(link.get_attribute("href"), text=best.full_name)
    expect(fan.page.get_by_role("heading", level=1)).to_have_text(best.full_name)
    rating = Rating.objects.get(person__first_name=best.first_name, discipline=Discipline.SINGLES)
    number, plusminus = display(Belief(rating.mu, rating.sigma))
    expect(fan.page.locator("table.summary")).to_contain_text(f"{number} ± {plusminus}")
    fan.shot("profile")

    fan.go("/people/?q=gagne")  # no accent typed
    found = fan.page.locator("table.registry tbody tr")
    expect(found).to_have_count(1)
    expect(found).to_contain_text(best.full_name)
    fan.shot("registry-search")
    fan.close()


def organizer_seeds_from_ratings(story: Story, stage: Stage) -> None:
    tournament = stage.category.tournament
    slug = tournament.slug
    org = story.visitor("organizer", LAPTOP)
    org.log_in("olivia", PASSWORD, f"/t/{slug}/manage/")
    page = org.page

    org.follow(f"/t/{slug}/manage/players/import/", text="Import CSV")
    lines = [CSV_HEADER] + [
        f"{p.first_name},{p.last_name},{100 + n},Tavistock,Canada,{CATEGORY}"
        for n, p in enumerate([*PEOPLE, NEWCOMER])
    ]
    page.set_input_files(
        "#id_file", files=csv_file("players.csv", ("\n".join(lines) + "\n").encode())
    )
    org.press("Check the file")
    org.press("Import 9 players")
    expect(org.message()).to_contain_text("Imported 9 players and 9 entries")
    linked = set(
        Player.objects.filter(tournament=tournament, person__isnull=False).values_list(
            "last_name", flat=True
        )
    )
    assert linked >= {p.last_name for p in PEOPLE}

    org.follow(f"/t/{slug}/manage/check-in/", text="Check-in")
    page.locator("summary", has_text="Check in many at once").click()
    org.press("Check in everyone")
    expect(page.locator("#checkin-summary")).to_have_text("9 of 9 entries checked in")

    category = stage.category
    org.follow(f"/t/{slug}/manage/", text="Dashboard")
    org.follow(f"/t/{slug}/manage/categories/{category.pk}/", text=CATEGORY)
    org.follow(f"/t/{slug}/manage/stages/{stage.pk}/seeds/", text="seeds and pools")
    proposal_url = reverse("seeds-from-ratings", args=[slug, category.pk])
    org.follow(f"{proposal_url}?stage={stage.pk}", text="Seed from ratings")
    page.fill("input[name=pools]", "2")
    org.press("Show")
    expect(
        page.get_by_role("heading", name=re.compile("the 2 pools the snake draw makes"))
    ).to_be_visible()

    rows = page.locator("table.ratings tbody tr")
    expect(rows).to_have_count(9)
    order = [rows.nth(n).locator("td").nth(1).inner_text() for n in range(9)]
    for person, row in zip([*PEOPLE, NEWCOMER], order, strict=True):
        assert row.startswith(person.full_name), (person, row)
    assert "unrated" in order[-1]
    picture = page.locator("figure.pools-picture svg")
    expect(picture.locator("text", has_text="Pool A: average")).to_have_count(1)
    expect(picture.locator("text", has_text="Pool B: average")).to_have_count(1)
    shown = {
        card.get_attribute("data-pool"): [
            int(li.get_attribute("data-entry")) for li in card.locator("li").all()
        ]
        for card in page.locator("section.card[data-pool]").all()
    }
    assert sorted(shown) == ["A", "B"]
    org.shot("seeds-from-ratings")

    phone = story.visitor("organizer on the phone", PHONE)
    phone.log_in("olivia", PASSWORD, f"{proposal_url}?stage={stage.pk}&pools=2")
    expect(phone.page.locator("figure.pools-picture svg")).to_be_visible()
    assert phone.overflow() == 0
    phone.shot("seeds-from-ratings")
    phone.close()

    org.press("Use these seeds")
    expect(org.message()).to_contain_text(f"{CATEGORY}: seeds from ratings saved (9 changed).")
    assert org.path == f"/t/{slug}/manage/stages/{stage.pk}/seeds/"
    seeds = dict(Entry.objects.filter(category=category).values_list("pk", "seed"))
    assert sorted(seeds.values()) == list(range(1, 10))
    org.shot("seed-editor")

    org.follow(f"/t/{slug}/manage/categories/{category.pk}/", text=f"Back to {CATEGORY}")
    draw = page.locator(f"form[action$='/stages/{stage.pk}/draw/']")
    draw.locator("input[name=pool_count]").fill("2")
    org.submit(draw, "Draw")
    expect(org.message()).to_contain_text("Pools")
    drawn = {line.name: [e.pk for e in line.entries] for line in seeding.stage_pools(stage)}
    assert drawn == shown
    org.shot("drawn")
    org.close()


def test_past_results_to_a_draw_seeded_from_ratings(chromium, server, screenshots, fast_passwords):
    User.objects.create_user("rhea", password=PASSWORD, is_staff=True)
    organizer = User.objects.create_user("olivia", password=PASSWORD)
    tournament = TournamentFactory(name="Spring Open", slug="spring-open")
    TournamentRole.objects.create(
        tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER
    )
    category = CategoryFactory(tournament=tournament, name=CATEGORY)
    stage = StageFactory(category=category, name="Pools", kind=Stage.Kind.ROUND_ROBIN, order=1)
    story = Story(chromium, server, screenshots)

    record_keeper_imports(story)
    public_reads_the_ranking(story)
    organizer_seeds_from_ratings(story, stage)

    assert not story.problems, "\n".join(story.problems)
    if story.app_bugs:
        warnings.warn("app bugs met on the way:\n" + "\n".join(story.app_bugs), stacklevel=1)
    assert not story.missing_links, "pages the story reached only by typing their address:\n" + (
        "\n".join(sorted(set(story.missing_links)))
    )
