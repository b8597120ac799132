"""The record's "Done when", end to end from an empty database, in a real chromium.

What goes through the browser (people logging in, clicking, typing):
- the record keeper (the site's staff), on a laptop: uploads the real file of competitive
  singles results 2009-2017 (it has bad lines: they are left out with the page's option), reads
  the preview (new games, new people, bad lines), writes it into the record (the ratings are
  recomputed after the import), then searches the registry for a name, opens the profile of the
  top of the ranking with its rating, and reads the ranking; once the pools are drawn, says on
  the tournament's publish page that its games count for the ranking (the switch only record
  keepers see; nothing links them there, so they type its address);
- the organizer, on a laptop: creates the tournament (/new/), its singles category, opens the
  category's entry form with a capacity on the registrations page; accepts each request,
  choosing the registry's person the page offers for it (a new person for the newcomer); checks
  everyone in; adds a round-robin stage on the category page; follows "Seed from ratings", uses
  the seeds and draws one pool; once the games are played, follows "Publish to the ranking" from
  the dashboard and publishes;
- the players, on phones with no login: six ask to enter on the public form, five of them people
  of the imported file (the top five of the ranking, read from the database) and a newcomer;
- the public, on a phone and a laptop: the ranking after the event, with the places moved, and
  the winner's profile listing the new event with a rating other than before.

What is made without the pages: the users (ORM: the record keeper, the organizer, and the
scoring table's login with its role in the tournament), and the games' results, written with
the scorecard services (``enter_paper_row`` by the scoring table for each game's paper card,
then ``verify_card``): entering fifteen games by hand would make the story long and is told by other
stories. The results make the weakest of the five imported people (the fifth of the ranking)
beat every other player clearly (3 rounds won, 1 tied); otherwise the better-ranked one wins.
Every expected figure (the counts of the preview, the ranks, the places moved, the ratings) is
read from the database or computed from it, never typed in. Screenshots of every step are left
in tests/artifacts/e2e/.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from scoring.engine.rating import Belief, display
from scoring.models.record import Discipline, RankingSnapshot, Rating, RecordedGame
from scoring.models.scorecards import ScoreCard
from scoring.ratings.ranking import ranking
from scoring.scorecards import services as scorecards
from tests.celery_support import running_worker
from tests.e2e.browsing import LAPTOP, PHONE, Story, Visitor
from tests.factories import allow_creating_tournaments
from tournaments.models import (
    Entry,
    EntryRequest,
    Game,
    Person,
    Player,
    Stage,
    Tournament,
    TournamentRole,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-record-done-when"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "board-and-discs"
KEEPER, ORGANIZER, TABLE = "rhea", "olivia", "tamsin"
SLUG = "done-when-open"
CATEGORY = "Competitive Singles"
DATA = Path(__file__).resolve().parent.parent / "data" / "competitive-singles-2009-2017.csv"
NEWCOMER = ("Nora", "Newcomer")
#: The imported people who ask to enter: the top of the ranking after the import.
IMPORTED_PLAYERS = 5
#: A clear win for the side the rounds are written for: three rounds won, one tied.
CLEAR_WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [1, 1], "twenties": [2, 2]}]


def mirror(rounds: list[dict]) -> list[dict]:
    return [{"points": r["points"][::-1], "twenties": r["twenties"][::-1]} for r in rounds]


def shown_rating(person: Person) -> str:
    rating = Rating.objects.get(person=person, discipline=Discipline.SINGLES)
    number, plus_minus = display(Belief(rating.mu, rating.sigma))
    return f"{number} ± {plus_minus}"


# The story's chapters ------------------------------------------------------------------------


def record_keeper_imports(story: Story) -> None:
    keeper = story.visitor("record keeper", LAPTOP)
    keeper.log_in(KEEPER, PASSWORD, "/record/import/")
    page = keeper.page
    page.set_input_files("#id_file", str(DATA))
    keeper.press("Check the file")
    expect(page.get_by_role("heading", name="Import preview")).to_be_visible()
    assert RecordedGame.objects.count() == 0  # a preview writes nothing
    counts = page.locator("ul.counts")
    expect(counts).to_contain_text("4bad lines")
    new_games = int(counts.locator("li", has_text="new games").locator("strong").inner_text())
    new_people = int(counts.locator("li", has_text="new people").locator("strong").inner_text())
    lines = len(DATA.read_text(encoding="utf-8").strip().splitlines()) - 1  # the header
    expect(counts.locator("li", has_text="lines read")).to_contain_text(f"{lines}lines read")
    assert 0 < new_games < lines and new_people > IMPORTED_PLAYERS, (new_games, new_people)
    expect(page.locator("ol.lines li.row-error")).to_have_count(4)
    keeper.shot("done-when-import-preview")

    page.get_by_label(re.compile("bad lines", re.IGNORECASE)).check()
    keeper.press(f"Write {new_games} games into the record")
    expect(keeper.message()).to_contain_text(
        f"Imported: {new_games} new games, {new_people} new people"
    )
    keeper.shot("done-when-imported")
    assert RecordedGame.objects.count() == new_games
    assert Person.objects.count() == new_people
    # The ratings were recomputed after the import, and the ranking kept as it stood.
    assert Rating.objects.filter(discipline=Discipline.SINGLES).count() == new_people
    assert RankingSnapshot.objects.filter(reason=RankingSnapshot.Reason.IMPORT).count() == 1

    top = ranking(Discipline.SINGLES)
    assert len(top) >= IMPORTED_PLAYERS
    best = Person.objects.get(pk=top[0].person_id)
    keeper.go(f"/people/?q={best.last_name.lower()}")
    found = keeper.page.locator("table.registry tbody tr")
    expect(found.filter(has_text=best.full_name)).to_have_count(1)
    keeper.shot("done-when-registry-search")

    keeper.follow("/ranking/", text="Ranking")
    rows = page.locator("table.ranking-table tbody tr")
    expect(rows.first).to_contain_text(best.full_name)
    names = [rows.nth(n).locator("td").nth(1).inner_text().strip() for n in range(5)]
    assert names == [row.name for row in top[:5]]
    keeper.shot("done-when-ranking-after-import")
    keeper.follow(f"/record/people/{best.pk}/", text=best.full_name)
    expect(page.get_by_role("heading", level=1)).to_have_text(best.full_name)
    expect(page.locator("table.summary")).to_contain_text(shown_rating(best))
    keeper.shot("done-when-profile-after-import")
    keeper.close()


def organizer_opens_the_form(story: Story) -> Visitor:
    org = story.visitor("organizer", LAPTOP)
    page = org.page
    org.log_in(ORGANIZER, PASSWORD, then="/")
    org.follow("/new/")
    page.fill("#id_name", "Done When Open")
    page.fill("#id_slug", SLUG)
    page.fill("#id_venue", "Tavistock Community Hall")
    page.fill("#id_starts_on", "2026-06-13")
    page.fill("#id_ends_on", "2026-06-13")
    org.press("Create the tournament")
    expect(org.message()).to_contain_text("Done When Open is created")
    assert org.path == f"/t/{SLUG}/manage/"

    org.follow(f"/t/{SLUG}/manage/categories/new/", text="Add categories")
    page.get_by_label(re.compile(rf"{CATEGORY} \(singles")).check()
    org.press("Add the ticked categories")
    expect(org.message()).to_contain_text(f"Added {CATEGORY}.")
    category = Tournament.objects.get(slug=SLUG).categories.get(name=CATEGORY)

    org.follow(f"/t/{SLUG}/manage/registrations/", text="Entry form")
    settings = page.locator(f"form[action$='/registrations/categories/{category.pk}/']")
    settings.get_by_label("Form open").check()
    settings.locator(f"#id_c{category.pk}-capacity").fill("8")
    org.submit(settings, "Save")
    expect(org.message()).to_contain_text(f"The entry form of {CATEGORY} is saved.")
    expect(page.locator("main")).to_contain_text("The form takes requests.")
    org.shot("done-when-entry-form-open")
    category.refresh_from_db()
    assert category.registration_open and category.capacity == 8
    return org


def players_apply(story: Story, people: list[tuple[str, str]]) -> None:
    for number, (first, last) in enumerate(people):
        phone = story.visitor(f"{first} {last}", PHONE)
        phone.go(f"/t/{SLUG}/register/")
        page = phone.page
        page.fill("#id_first_name", first)
        page.fill("#id_last_name", last)
        page.fill("#id_email", f"player{number}@example.org")
        page.fill("#id_club", "Tavistock")
        if number == 0:
            assert phone.overflow() == 0
            phone.shot("done-when-public-form")
        phone.press("Send my request")
        expect(phone.message()).to_contain_text("Thank you: your request is recorded.")
        assert "/register/" in phone.path
        if number == 0:
            phone.shot("done-when-request-page")
        phone.close()
    assert EntryRequest.objects.count() == len(people)


def organizer_accepts(org: Visitor, chosen: dict[tuple[str, str], Person | None]) -> None:
    page = org.page
    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    org.follow(f"/t/{SLUG}/manage/registrations/", text="Entry form")
    org.shot("done-when-requests")
    for (first, last), person in chosen.items():
        item = EntryRequest.objects.get(first_name=first, last_name=last)
        article = page.locator(f"#request-{item.pk}")
        if person is None:
            article.locator("input[name=person][value=new]").check()
        else:
            # The page offers the registry's person of that name; the organizer picks them.
            offered = article.locator(f"input[name=person][value='{person.pk}']")
            expect(offered).to_have_count(1)
            offered.check()
        org.submit(article.locator("form").filter(has_text="Who in the registry"), "Accept")
        expect(org.message()).to_contain_text("accepted and entered.")
    tournament = Tournament.objects.get(slug=SLUG)
    for (first, last), person in chosen.items():
        player = Player.objects.get(tournament=tournament, first_name=first, last_name=last)
        if person is None:
            assert player.person is not None
            assert player.person.pk not in {p.pk for p in chosen.values() if p}
            assert not Rating.objects.filter(person=player.person).exists()
        else:
            assert player.person_id == person.pk, (first, last)


def organizer_seeds_and_draws(org: Visitor, by_mean: list[Entry]) -> Stage:
    """The seeds follow each person's rating (its mean, the number shown), the newcomer last:
    not the ranking's order, which is by the rating's lower end (``mu - 2 sigma``)."""
    page = org.page
    tournament = Tournament.objects.get(slug=SLUG)
    category = tournament.categories.get(name=CATEGORY)
    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    org.follow(f"/t/{SLUG}/manage/check-in/", text="Check-in")
    page.locator("summary", has_text="Check in many at once").click()
    org.press("Check in everyone")
    count = len(by_mean)
    expect(page.locator("#checkin-summary")).to_have_text(f"{count} of {count} entries checked in")

    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    org.follow(f"/t/{SLUG}/manage/categories/{category.pk}/", text=CATEGORY)
    form = page.locator("details:has(> summary:has-text('Add a stage'))")
    if form.get_attribute("open") is None:
        form.locator("summary").click()
    page.fill("#id_name", "Pools")
    page.select_option("#id_kind", Stage.Kind.ROUND_ROBIN.value)
    page.fill("#id_best_of", "1")
    org.submit(form.locator("form"), "Add the stage")
    expect(org.message()).to_contain_text("Added the stage Pools.")
    stage = category.stages.get(name="Pools")

    org.follow(f"/t/{SLUG}/manage/stages/{stage.pk}/seeds/", text="seeds and pools")
    org.follow(
        f"/t/{SLUG}/manage/categories/{category.pk}/seeds-from-ratings/?stage={stage.pk}",
        text="Seed from ratings",
    )
    page.fill("input[name=pools]", "1")
    org.press("Show")
    rows = page.locator("table.ratings tbody tr")
    expect(rows).to_have_count(count)
    order = [rows.nth(n).locator("td").nth(1).inner_text() for n in range(count)]
    for entry, row in zip(by_mean, order, strict=True):
        assert row.startswith(entry.player.full_name), (entry, row)
    org.shot("done-when-seeds-from-ratings")
    org.press("Use these seeds")
    expect(org.message()).to_contain_text(f"{CATEGORY}: seeds from ratings saved")
    seeds = [e.pk for e in Entry.objects.filter(category=category).order_by("seed")]
    assert seeds == [e.pk for e in by_mean]

    org.follow(f"/t/{SLUG}/manage/categories/{category.pk}/", text=f"Back to {CATEGORY}")
    draw = page.locator(f"form[action$='/stages/{stage.pk}/draw/']")
    pools = draw.locator("input[name=pool_count]")
    if pools.count():
        pools.fill("1")
    org.submit(draw, "Draw")
    expect(org.message()).to_contain_text("Pools")
    org.shot("done-when-drawn")
    games = Game.objects.filter(match__stage=stage, match__entry_b__isnull=False).count()
    assert games == count * (count - 1) // 2
    return stage


def record_keeper_says_it_counts(story: Story, tournament: Tournament) -> None:
    """A tournament's games count for the ratings once the site's record keepers say so: the
    switch on the tournament's publish page. Nothing links a record keeper there (the
    organizer's dashboard does, for the organizer): the record keeper types its address."""
    keeper = story.visitor("record keeper", LAPTOP)
    keeper.log_in(KEEPER, PASSWORD, f"/ranking/publish/{SLUG}/")
    expect(keeper.page.locator("main")).to_contain_text(
        "This tournament does not count for the ranking yet."
    )
    keeper.press("It counts for the ranking")
    expect(keeper.message()).to_contain_text(
        f"{tournament.name} counts for the ranking: its verified games are in the record."
    )
    keeper.shot("done-when-counts-for-the-ranking")
    keeper.close()
    tournament.refresh_from_db()
    assert tournament.rated


def games_are_played(stage: Stage, underdog: Entry, best_first: list[Entry], user: User) -> None:
    """Each game's paper card typed in at the scoring table, then every card verified."""
    place = {e.pk: n for n, e in enumerate(best_first)}
    games = Game.objects.filter(match__stage=stage, match__entry_b__isnull=False).select_related(
        "match__entry_a__player", "match__entry_b__player"
    )
    for game in games:
        a, b = game.match.entry_a, game.match.entry_b
        a_wins = a.pk == underdog.pk or (b.pk != underdog.pk and place[a.pk] < place[b.pk])
        scorecards.enter_paper_row(
            card=scorecards.card_for(stage, a),
            game=game,
            rounds=CLEAR_WIN if a_wins else mirror(CLEAR_WIN),
            opponent_number=str(b.player.number),
            initials="XY",
            user=user,
        )
    for card in ScoreCard.objects.filter(stage=stage).distinct():
        if card.rows.filter(status="validated").exists():
            scorecards.verify_card(card=card, user=user)
    tournament = stage.category.tournament
    assert RecordedGame.objects.filter(tournament=tournament).count() == games.count()


def organizer_publishes(org: Visitor) -> None:
    """The recompute runs as a task on a real worker (through Redis under CI), as in
    production; the page follows its progress."""
    org.follow(f"/t/{SLUG}/manage/", text="Dashboard")
    org.follow(f"/ranking/publish/{SLUG}/", text="Publish to the ranking")
    org.shot("done-when-publish")
    with running_worker() as worker:
        org.press("Publish to the ranking")
        expect(org.message()).to_contain_text("is being published to the ranking")
        worker.wait_until_idle()
    tournament = Tournament.objects.get(slug=SLUG)
    assert RankingSnapshot.objects.filter(
        reason=RankingSnapshot.Reason.EVENT, tournament=tournament
    ).exists()


def public_sees_the_movement(
    story: Story, before: dict[int, int], winner: Person, rating_before: str
) -> None:
    after = ranking(Discipline.SINGLES)
    moved = {r.person_id: before[r.person_id] - r.rank for r in after if r.person_id in before}
    assert moved[winner.pk] > 0, "the underdog's clear wins moved them up"

    for device in (PHONE, LAPTOP):
        fan = story.visitor("fan", device)
        fan.go("/ranking/")
        page = fan.page
        # The first event measured against the ranking the import left.
        expect(page.locator("main")).to_contain_text(
            "Arrows: places gained or lost since the ranking after the import of"
        )
        table_rows = page.locator("table.ranking-table tbody tr")
        row = table_rows.filter(has=page.get_by_role("link", name=winner.full_name, exact=True))
        expect(row).to_have_count(1)
        expect(row.locator("td.moved")).to_contain_text(f"▲ {moved[winner.pk]}")
        down = [r for r in after if moved.get(r.person_id, 0) < 0][:1]
        for r in down:
            loser = table_rows.filter(
                has=page.get_by_role("link", name=r.name, exact=True)
            ).locator("td.moved")
            expect(loser).to_contain_text(f"▼ {-moved[r.person_id]}")
        assert fan.overflow() == 0
        fan.shot("done-when-ranking-moved", at=row)

        fan.follow(f"/record/people/{winner.pk}/", text=winner.full_name)
        expect(page.get_by_role("heading", level=1)).to_have_text(winner.full_name)
        now = shown_rating(winner)
        assert now != rating_before
        expect(page.locator("table.summary")).to_contain_text(now)
        expect(page.locator("table.events")).to_contain_text("Done When Open")
        fan.shot("done-when-winner-profile")
        fan.close()


def test_done_when_past_results_to_a_published_event(chromium, server, screenshots, fast_passwords):
    User.objects.create_user(KEEPER, password=PASSWORD, is_staff=True)
    organizer = User.objects.create_user(ORGANIZER, password=PASSWORD)
    allow_creating_tournaments(organizer)
    story = Story(chromium, server, screenshots)

    record_keeper_imports(story)
    top = ranking(Discipline.SINGLES)[:IMPORTED_PLAYERS]
    imported = [Person.objects.get(pk=row.person_id) for row in top]
    chosen: dict[tuple[str, str], Person | None] = {
        (p.first_name, p.last_name): p for p in imported
    }
    chosen[NEWCOMER] = None

    org = organizer_opens_the_form(story)
    players_apply(story, list(chosen))
    organizer_accepts(org, chosen)

    tournament = Tournament.objects.get(slug=SLUG)
    by_person = {
        e.player.person_id: e
        for e in Entry.objects.filter(category__tournament=tournament).select_related("player")
    }
    newcomer = Entry.objects.get(category__tournament=tournament, player__last_name=NEWCOMER[1])
    best_first = [by_person[p.pk] for p in imported] + [newcomer]
    mean = dict(Rating.objects.filter(discipline=Discipline.SINGLES).values_list("person_id", "mu"))
    by_mean = [*sorted(best_first[:-1], key=lambda e: -mean[e.player.person_id]), newcomer]
    stage = organizer_seeds_and_draws(org, by_mean)

    underdog_person = imported[-1]
    before = {r.person_id: r.rank for r in ranking(Discipline.SINGLES)}
    rating_before = shown_rating(underdog_person)
    record_keeper_says_it_counts(story, tournament)
    table = User.objects.create_user(TABLE, password=PASSWORD)
    TournamentRole.objects.create(
        tournament=tournament, user=table, role=TournamentRole.Role.SCORING_TABLE
    )
    games_are_played(stage, by_person[underdog_person.pk], best_first, table)
    organizer_publishes(org)
    org.close()
    public_sees_the_movement(story, before, underdog_person, rating_before)

    assert not story.problems, "\n".join(story.problems)
    if story.app_bugs:
        warnings.warn("app bugs met on the way:\n" + "\n".join(story.app_bugs), stacklevel=1)
    assert not story.missing_links, "pages the story reached only by typing their address:\n" + (
        "\n".join(sorted(set(story.missing_links)))
    )
