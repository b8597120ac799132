"""Four rules of the event's steps, each tried in a real chromium as the people concerned meet it.

The rules are implemented and unit-tested elsewhere; here each is tried through the pages:

- a walkover in a category scored by the family rulebook's difference, play to 100, is worth
  what a win is worth there (100 points), so on the public standings its winner does not rank
  below a player who lost a played game;
- a round-robin stage of fixed matches of 10 games (WCC Scoring: "The number of games in a
  'match' is normally 10"): the stage form takes it, refuses it for a knockout with the model's
  words, and the draw, the board list and a player's card have 10 games a match;
- auto-play of a stage in a real tournament stops at the end of that stage: the next stage is
  left undrawn, the category page offers the organizer the advance, and the simulation's
  accounts stay off the staff page;
- the head referee's change of a closed result that unsettles the shoot-out on the cut line:
  the change page says so in names, the public standings ask for the shoot-out again, and the
  organizer's dashboard warns that the next stage no longer matches the standings.

Each test builds its own event with the factories and services (fast), and does in the browser
what the rule is about, on a laptop (1280x800) and, where a player or the public looks, on a
phone (390x844). Expected figures are added up in this file from the results it enters, never
read from the app. Screenshots are left in tests/artifacts/e2e/.
"""

from __future__ import annotations

import re
import warnings
from collections import defaultdict

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from config.celery import app as celery_app
from scoring.engine import round_data
from scoring.models import StageAdvance
from scoring.progression.services import CutLineTieError, advance, record_shootout
from scoring.results.services import record_game
from simulation.services.system_users import REFEREE_USERNAME, TABLE_USERNAME
from tests.e2e.browsing import DASH, LAPTOP, PHONE, Story, enter_round
from tests.events import build_small_event
from tests.factories import (
    BoardFactory,
    CategoryFactory,
    EntryFactory,
    PlayerFactory,
    StageFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tests.simulation.app.support import add_stage, make_tournament, organizer_of
from tournaments.models import Category, Entry, Game, Match, Round, Stage, TournamentRole
from tournaments.services.draws import draw_stage

pytestmark = [
    pytest.mark.browser,
    pytest.mark.xdist_group("story-rules-of-the-steps"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "steps-in-the-browser"
Role = TournamentRole.Role


def finish(story: Story, *, refused: tuple[str, ...] = ()) -> None:
    """No page failed on the way, except the refusals the test asked for (a form sent back with
    its words answers 400), each met exactly once; a page reached only by typing its address is
    reported as a warning, naming the page that lacks the link."""
    problems = list(story.problems)
    for expected in refused:
        met = [p for p in problems if expected in p]
        assert len(met) == 1, f"expected one refusal {expected!r}, met: {problems}"
        problems.remove(met[0])
    assert not problems, "\n".join(problems)
    if story.missing_links:
        warnings.warn(
            "pages reached only by typing their address:\n"
            + "\n".join(sorted(set(story.missing_links))),
            stacklevel=2,
        )


def standings_rows(page: Page) -> list[tuple[int, int, int, int]]:
    """(rank, ID, points, 20s) of every line of the standings table, as the page shows them."""
    rows = []
    for row in page.locator("table.standings tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        rows.append((int(cells[0]), int(cells[2]), int(cells[4]), int(cells[5])))
    return rows


def staff_user(tournament, role: str, username: str) -> User:
    return TournamentRoleFactory(
        tournament=tournament, role=role, user__username=username, user__password=PASSWORD
    ).user


# 1. A walkover to 100 ------------------------------------------------------------------------

#: Family rulebook, Scoring 6: "Play to 100 points." A won game is worth at least that, and
#: what a walkover credits is what a win is worth.
WIN_TO_100 = 100

#: A round as side A of the match tells it: (A's board score, B's, A's 20s, B's 20s).
Line = tuple[int, int, int, int]
#: A wins 110-95: B leads 95-40 after three rounds, A takes the fourth by 70.
A_WINS_110_95: list[Line] = [(40, 95, 1, 3), (80, 40, 2, 1), (30, 70, 0, 2), (115, 45, 4, 1)]
#: A wins 120-90: B takes round 1 by 90, A round 2 by 120.
A_WINS_120_90: list[Line] = [(20, 110, 0, 4), (140, 20, 6, 1)]


def differences(lines: list[Line]) -> tuple[int, int]:
    """The game score by hand: each round's winner adds the difference of the board scores."""
    a = sum(x - y for x, y, _, _ in lines if x > y)
    b = sum(y - x for x, y, _, _ in lines if y > x)
    return a, b


def test_a_walkover_to_100_ranks_its_winner_above_the_players_who_lost_at_the_board(
    chromium, server, screenshots, fast_passwords
):
    """After the draw the organizer withdraws a player from the check-in page: the confirm page
    names the game that becomes a walkover, worth 100 points to the opponent, and asks a reason.
    The public standings (laptop and phone) then show the walkover's winner with 100 points,
    ranked above the two players who lost a played game (95 and 90), and the round's board list
    on a phone shows the walkover 100-0."""
    for lines in (A_WINS_110_95, A_WINS_120_90):
        a, b = differences(lines)
        assert a >= WIN_TO_100 > b and all(x >= 20 * tx and y >= 20 * ty for x, y, tx, ty in lines)
    tournament = TournamentFactory(name="Family Night", slug="family-night", published=True)
    for number in (1, 2, 3):
        BoardFactory(tournament=tournament, number=number)
    category = CategoryFactory(
        tournament=tournament,
        name="Family Singles",
        scoring_system=Category.ScoringSystem.DIFFERENCE_TO_100,
    )
    names = [("Maple", "Hart"), ("Rowan", "Pike"), ("Ellis", "Grant")]
    names += [("Tamsin", "Reeve"), ("Avery", "Stone"), ("Jude", "Marsh")]
    for n, (first, last) in enumerate(names):
        EntryFactory(
            category=category,
            player=PlayerFactory(
                tournament=tournament, first_name=first, last_name=last, number=31 + n
            ),
        )
    stage = StageFactory(
        category=category, name="Preliminary", kind=Stage.Kind.PRELIMINARY, games_per_entry=1
    )
    draw_stage(stage)
    staff_user(tournament, Role.ORGANIZER, "oona")
    matches = list(
        Match.objects.filter(stage=stage)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("board__number", "id")
    )
    assert len(matches) == 3 and all(m.entry_b_id for m in matches)
    walkover, second, third = matches
    for match, lines in ((second, A_WINS_110_95), (third, A_WINS_120_90)):
        record_game(
            match.games.get(),
            [{"score": [a, b], "twenties": [ta, tb]} for a, b, ta, tb in lines],
        )
    leaving, staying = walkover.entry_b, walkover.entry_a

    # What the standings must be, added up here: a walkover is a win worth 100, 0 20s.
    points: dict[int, tuple[int, int]] = {
        staying.player.number: (WIN_TO_100, 0),
        leaving.player.number: (0, 0),
    }
    for match, lines in ((second, A_WINS_110_95), (third, A_WINS_120_90)):
        a, b = differences(lines)
        points[match.entry_a.player.number] = (a, sum(line[2] for line in lines))
        points[match.entry_b.player.number] = (b, sum(line[3] for line in lines))
    order = sorted(points, key=lambda n: (-points[n][0], -points[n][1]))
    assert len({p for p, _ in points.values()}) == 6, "no tie on points in the plan"
    expected = [(rank, n, *points[n]) for rank, n in enumerate(order, start=1)]
    losers = [second.entry_b.player.number, third.entry_b.player.number]

    story = Story(chromium, server, screenshots)
    slug = tournament.slug
    org = story.visitor("organizer", LAPTOP)
    page = org.page
    org.log_in("oona", PASSWORD, then=f"/t/{slug}/manage/")
    org.follow(f"/t/{slug}/manage/check-in/", text="Check-in")
    row = page.locator(f"#entry-{leaving.pk}")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Withdraw").click()
    reason = page.locator("main input[name=reason]")
    expect(reason).to_be_visible()
    assert org.path == f"/t/{slug}/rulings/entries/{leaving.pk}/", org.path
    listed = page.locator("main ul.walkovers li")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text(leaving.name)
    expect(listed).to_contain_text(staying.name)
    expect(listed).to_contain_text(f"{WIN_TO_100} points to the opponent")
    reason.fill("Unwell after the draw.")
    org.shot("walkover-confirm")
    with page.expect_navigation():
        org.press("Confirm")
    expect(org.message()).to_contain_text(f"{leaving.name} has withdrawn from {category.name}")
    expect(page.locator(f"#entry-{leaving.pk}")).to_have_class("withdrawn")
    org.close()
    assert Entry.objects.get(pk=leaving.pk).withdrawn

    for device in (LAPTOP, PHONE):
        fan = story.visitor("public", device)
        fan.go(f"/t/{slug}/")
        fan.follow(f"/t/{slug}/stages/{stage.pk}/standings/", text=stage.name)
        shown = standings_rows(fan.page)
        assert shown == expected, f"{device.name}: the standings {shown}, by hand {expected}"
        ranks = {number: rank for rank, number, _, _ in shown}
        assert all(ranks[staying.player.number] < ranks[n] for n in losers), shown
        winner_line = fan.page.locator("table.standings tbody tr").filter(has_text=staying.name)
        expect(winner_line).to_contain_text("1 W/O")
        assert fan.overflow() == 0, f"the standings go off the {device.name}'s screen"
        fan.shot("walkover-standings")
        if device is PHONE:
            fan.go(f"/t/{slug}/stages/{stage.pk}/rounds/1/")
            board = fan.page.locator("table.schedule tbody tr").filter(has_text=staying.name)
            result = board.locator("td.result")
            expect(result).to_have_text(re.compile(rf"^W/O {WIN_TO_100}{DASH}0(?!\d)"))
            expect(result).to_contain_text("Walkover (withdrawal)")
            expect(board.locator("td.state")).to_contain_text("walkover")
            assert fan.overflow() == 0
            fan.shot("walkover-board-list")
        fan.close()
    finish(story)


# 2. A fixed match of 10 games ----------------------------------------------------------------

GAMES = 10
#: Entry A wins games 1-6 by 6-2 (three rounds won, the last lost, a 20 each a round); entry B
#: wins games 7-10 by 8-0. A wins more games, B more points: the points decide a fixed match.
A_WINS_6_2 = [{"points": [2, 0], "twenties": [1, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 1]}]
B_WINS_8_0 = [{"points": [0, 2], "twenties": [0, 0]}] * 4
KNOCKOUT_REFUSAL = (
    "A knockout match must have a winner, and a fixed match of N games can end level on points: "
    "play the knockout best of N"
)


def planned_game(number: int) -> list[dict]:
    return A_WINS_6_2 if number <= 6 else B_WINS_8_0


def open_stage_form(page: Page):
    form = page.locator("details:has(> summary:has-text('Add a stage'))")
    if form.get_attribute("open") is None:
        form.locator("summary").click()
    return form.locator("form")


def fill_stage(page: Page, name: str, kind: str) -> None:
    page.fill("#id_name", name)
    page.select_option("#id_kind", kind)
    page.locator("input[name=match_format][value=fixed]").check()
    page.fill("#id_best_of", str(GAMES))


def test_a_fixed_match_of_10_games_is_set_on_the_stage_form_drawn_and_shown(
    chromium, server, screenshots, fast_passwords
):
    """The organizer (laptop) asks the stage form for a knockout of fixed matches and is refused
    beside the match format with the model's words; a round robin of fixed matches of 10 games
    is added, listed as such and drawn: 6 matches of 10 games. Once a match is played, the
    public board list (laptop and phone) shows its 10 games' points and the total that decides
    it; a player's card on their phone has the 10 games of their round-1 match."""
    tournament = TournamentFactory(name="Fixed Open", slug="fixed-open", published=True)
    for number in (1, 2):
        BoardFactory(tournament=tournament, number=number)
    category = CategoryFactory(tournament=tournament, name="Open Singles")
    entries = [
        EntryFactory(
            category=category,
            player=PlayerFactory(
                tournament=tournament, first_name=first, last_name="Fixed", number=41 + n
            ),
        )
        for n, first in enumerate(("Ada", "Bram", "Cleo", "Dov"))
    ]
    staff_user(tournament, Role.ORGANIZER, "fern")
    slug = tournament.slug
    story = Story(chromium, server, screenshots)
    org = story.visitor("organizer", LAPTOP)
    page = org.page
    org.log_in("fern", PASSWORD, then=f"/t/{slug}/manage/")
    category_url = f"/t/{slug}/manage/categories/{category.pk}/"
    org.follow(category_url, text=category.name)

    form = open_stage_form(page)
    fill_stage(page, "Final", "knockout")
    org.submit(form, "Add the stage")
    form = open_stage_form(page)
    field = form.locator(":scope > div").filter(has=page.locator("input[name=match_format]"))
    expect(field).to_contain_text(KNOCKOUT_REFUSAL)
    expect(page.locator("input[name=match_format][value=fixed]")).to_be_checked()
    org.shot("fixed-knockout-refused", at=field)
    assert not category.stages.exists()

    fill_stage(page, "Pools", "round-robin")
    org.submit(form, "Add the stage")
    expect(org.message()).to_contain_text("Added the stage Pools.")
    stage = category.stages.get()
    assert (stage.match_format, stage.best_of) == (Stage.MatchFormat.FIXED, GAMES)
    stage_row = page.locator("table.stages tbody tr").filter(has_text="Pools")
    expect(stage_row).to_contain_text(f"fixed match of {GAMES} games")
    pairings = len(entries) * (len(entries) - 1) // 2
    org.submit(stage_row.locator(f"form[action$='/stages/{stage.pk}/draw/']"), "Draw")
    expect(org.message()).to_contain_text(f"Pools: drawn ({pairings} matches).")
    org.shot("fixed-drawn")
    matches = list(Match.objects.filter(stage=stage).order_by("round_of_play", "board__number"))
    assert len(matches) == pairings
    for match in matches:
        assert sorted(match.games.values_list("number", flat=True)) == list(range(1, GAMES + 1))

    # Round 1, board 1 is played (through the results service); the other match waits.
    played = matches[0]
    assert played.round_of_play == 1
    for game in played.games.all():
        record_game(game, planned_game(game.number))
    points = [0, 0]
    scores = []
    for number in range(1, GAMES + 1):
        game = [sum(r["points"][side] for r in planned_game(number)) for side in (0, 1)]
        points = [points[0] + game[0], points[1] + game[1]]
        scores.append(f"{game[0]}{DASH}{game[1]}")
    assert points[1] > points[0], "B wins fewer games but more points"
    result = f"{points[0]}{DASH}{points[1]} ({', '.join(scores)})"

    org.follow(f"/t/{slug}/stages/{stage.pk}/schedule/", text="schedule")
    assert org.path == f"/t/{slug}/stages/{stage.pk}/rounds/1/", org.path
    org.close()
    for device in (LAPTOP, PHONE):
        fan = story.visitor("public", device)
        fan.go(f"/t/{slug}/stages/{stage.pk}/rounds/1/")
        rows = fan.page.locator("table.schedule tbody tr")
        expect(rows).to_have_count(len(entries) // 2)
        row = rows.filter(has_text=played.entry_a.name)
        expect(row.locator("td.result")).to_have_text(result)
        expect(row.locator("td.state")).to_have_text("finished")
        expect(row.locator("td.side.win")).to_contain_text(played.entry_b.name)
        assert fan.overflow() == 0, f"the board list goes off the {device.name}'s screen"
        fan.shot("fixed-board-list")
        fan.close()

    # A player of the other match of round 1 opens their card on their phone.
    other = matches[1]
    assert other.round_of_play == 1
    entry, opponent = other.entry_a, other.entry_b
    player = User.objects.create_user("ada-or-so", password=PASSWORD)
    entry.player.user = player
    entry.player.save(update_fields=["user"])
    phone = story.visitor("player", PHONE)
    phone.log_in("ada-or-so", PASSWORD, then=f"/t/{slug}/")
    phone.follow(f"/t/{slug}/cards/", text="cards")
    phone.page.get_by_role("link", name=f"{category.name} · Pools").click()
    first_round = phone.page.locator("section.card-row").filter(has_text="Round of play 1")
    expect(first_round).to_have_count(GAMES)
    for number in range(1, GAMES + 1):
        expect(first_round.nth(number - 1).locator(".where")).to_contain_text(f"Game {number}")
        expect(first_round.nth(number - 1).locator(".opponent")).to_contain_text(opponent.name)
    expect(phone.page.locator("section.card-row")).to_have_count(GAMES * (len(entries) - 1))
    assert phone.overflow() == 0
    phone.shot("fixed-card", at=first_round.first)
    phone.close()
    finish(story, refused=(f"400 for POST {server}/t/{slug}/manage/categories/{category.pk}/",))


# 3. Auto-play stops at the end of its stage --------------------------------------------------


@pytest.fixture
def long_work_in_the_request(settings):
    """Long work runs inside the request that starts it (no broker, no worker): the page that
    starts the auto-play answers once it is played."""
    settings.LONG_WORK_IN_REQUEST = True
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def test_auto_play_stops_at_the_end_of_its_stage_and_leaves_the_advance_to_the_organizer(
    chromium, server, screenshots, fast_passwords, long_work_in_the_request
):
    """A real tournament: a drawn preliminary of two rounds (4 players, top 2 go on) and a final
    not drawn. The organizer (laptop) auto-plays the preliminary from the simulation pages: the
    run's page says the stage is complete and the organizer advances it; the category page
    offers "Advance 2" and the final has no match. The public standings (phone) count two games
    each, with the points of the official results; the final's schedule says it is not drawn.
    The staff page lists the organizer and the referee, never the simulation's accounts."""
    tournament, category = make_tournament("autoplay-open", players=4)
    prelim = add_stage(
        category, 1, Stage.Kind.PRELIMINARY, name="Preliminary", games_per_entry=2, advance_count=2
    )
    final = add_stage(category, 2, Stage.Kind.KNOCKOUT, name="Final", best_of=1)
    draw_stage(prelim)
    organizer = organizer_of(tournament, "olga")
    organizer.set_password(PASSWORD)
    organizer.save()
    staff_user(tournament, Role.REFEREE, "rita")
    games = Game.objects.filter(match__stage=prelim, match__entry_b__isnull=False)
    assert games.count() == 4 and not Round.objects.filter(game__in=games).exists()
    slug = tournament.slug

    story = Story(chromium, server, screenshots)
    org = story.visitor("organizer", LAPTOP)
    page = org.page
    org.log_in("olga", PASSWORD, then=f"/t/{slug}/")
    org.follow(f"/t/{slug}/sim/", text="auto-play")
    stage_item = page.locator("ul.sim-list li").filter(
        has=page.get_by_role("link", name="Preliminary", exact=True)
    )
    with page.expect_navigation(timeout=240_000):
        stage_item.get_by_role("button", name="Auto-play this stage").click()
    notice = page.locator("main p.notice[role=status]")
    expect(notice).to_contain_text(
        "Stage complete: advance and draw the next stage from the category page. "
        "Preliminary is finished; advancing it draws Final."
    )
    org.shot("autoplay-done")
    assert not Game.objects.filter(pk__in=games, rounds__isnull=True).exists()
    assert not final.matches.exists() and not StageAdvance.objects.filter(stage=prelim).exists()

    org.follow(f"/t/{slug}/manage/categories/{category.pk}/", text="category page")
    rows = page.locator("table.stages tbody tr")
    prelim_row = rows.filter(has=page.locator("strong", has_text="Preliminary"))
    final_row = rows.filter(has=page.locator("strong", has_text="Final"))
    expect(prelim_row.get_by_role("button", name="Advance 2")).to_be_visible()
    expect(final_row.locator("td").nth(3)).to_have_text("0")
    expect(final_row.get_by_role("link", name="schedule")).to_have_count(0)
    org.shot("autoplay-category", at=prelim_row)

    # The simulation's accounts hold their roles (its cards needed them), off the staff page.
    hidden = TournamentRole.objects.filter(
        tournament=tournament, user__username__in=(REFEREE_USERNAME, TABLE_USERNAME)
    )
    assert hidden.count() == 2
    org.follow(f"/t/{slug}/manage/", text="Dashboard")
    org.follow(f"/t/{slug}/manage/staff/")
    staff_page = page.locator("main")
    expect(staff_page).to_contain_text("olga")
    expect(staff_page).to_contain_text("rita")
    for username in (REFEREE_USERNAME, TABLE_USERNAME):
        expect(staff_page).not_to_contain_text(username)
    org.shot("autoplay-staff")
    org.close()

    # What the official results add up to, entry by entry, counted here.
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in Round.objects.filter(game__match__stage=prelim).select_related(
        "game__match__entry_a__player", "game__match__entry_b__player"
    ):
        match = r.game.match
        for entry, points, twenties in (
            (match.entry_a, r.points_a, r.twenties_a),
            (match.entry_b, r.points_b, r.twenties_b),
        ):
            totals[entry.player.number][0] += points
            totals[entry.player.number][1] += twenties
    for game in games.select_related("match__entry_a__player", "match__entry_b__player"):
        for entry in (game.match.entry_a, game.match.entry_b):
            totals[entry.player.number][2] += 1
    assert len(totals) == 4 and all(t[2] == 2 for t in totals.values())

    fan = story.visitor("public", PHONE)
    fan.go(f"/t/{slug}/")
    fan.follow(f"/t/{slug}/stages/{prelim.pk}/standings/", text="Preliminary")
    lines = fan.page.locator("table.standings tbody tr")
    expect(lines).to_have_count(4)
    shown = {}
    for row in lines.all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        shown[int(cells[2])] = (int(cells[4]), int(cells[5]), int(cells[3].split()[0]))
    assert shown == {n: tuple(t) for n, t in totals.items()}, shown
    assert fan.overflow() == 0
    fan.shot("autoplay-standings")
    fan.go(f"/t/{slug}/stages/{final.pk}/schedule/")
    expect(fan.page.locator("main")).to_contain_text("This stage has not been drawn yet.")
    fan.close()
    finish(story)


# 4. A closed change that unsettles a shoot-out -----------------------------------------------


def rounds_of(points: list[tuple[int, int]], twenties: tuple[int, int]) -> list[dict]:
    """Four rounds, side A first, the 20s all made in round 1."""
    return [
        round_data(points=p, twenties=twenties if n == 0 else (0, 0)) for n, p in enumerate(points)
    ]


#: The preliminary as played: the player beats the opponent 8-0 (5 20s to 1); the other player
#: and the fourth draw every round, two 20s each, and tie for the last place that goes on.
A_WINS = rounds_of([(2, 0)] * 4, (5, 1))
DRAWN = rounds_of([(1, 1)] * 4, (2, 2))
#: The head referee's change: the opponent won rounds 3 and 4, and made two 20s, not one.
OPPONENT_WINS_TWO = rounds_of([(2, 0), (2, 0), (0, 2), (0, 2)], (5, 2))
IDS = re.compile(r"\[|\(\d+(, \d+)+\)|could not be ranked|does not settle a tie")


def names_in(pattern: str, text: str) -> list[str]:
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not in {text!r}"
    return list(found.groups())


def test_a_closed_change_that_widens_the_tie_asks_for_the_shootout_again(
    chromium, server, screenshots, fast_passwords
):
    """A preliminary of four (two go on) whose tie on the cut line a shoot-out settled, advanced
    to a round-robin playoff. The head referee (laptop) changes a closed result so that the
    opponent joins the tie: the preview and the message after it name the shoot-out that no
    longer counts and the three now tied, with no internal ids. The public standings (phone and
    laptop) show the new order, say the old shoot-out no longer counts and ask for one among the
    three; the organizer's dashboard warns that the playoff no longer matches the standings and
    that a shoot-out must settle the tie first."""
    event = build_small_event(players=4, games_per_entry=1)
    stage = event.stage
    stage.advance_count = 2
    stage.save()
    playoff = StageFactory(
        category=event.category,
        name="Playoff",
        kind=Stage.Kind.ROUND_ROBIN,
        order=2,
        advance_count=2,
    )
    StageFactory(category=event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=3)
    drawn = Match.objects.get(stage=stage, entry_a=event.other_player)
    player, opponent, other, fourth = (
        event.player,
        event.opponent,
        event.other_player,
        drawn.entry_b,
    )
    record_game(event.game, A_WINS)
    record_game(drawn.games.get(), DRAWN)
    with pytest.raises(CutLineTieError):
        advance(stage)
    record_shootout(stage, {other: 5, fourth: 3}, user=event.users["referee"])
    advance(stage)
    assert Match.objects.filter(stage=playoff).exists()
    for role in ("head-referee", "organizer"):
        event.users[role].set_password(PASSWORD)
        event.users[role].save()

    # After the change, added up here: points and 20s of each entry over its one game.
    totals = {}
    for match_entries, rounds in (
        ((player, opponent), OPPONENT_WINS_TWO),
        ((other, fourth), DRAWN),
    ):
        for side, entry in enumerate(match_entries):
            totals[entry.player.number] = (
                sum(r["points"][side] for r in rounds),
                sum(r["twenties"][side] for r in rounds),
            )
    best = max(totals, key=lambda n: totals[n])
    tied = {n for n in totals if n != best}
    assert best == player.player.number and len({totals[n] for n in tied}) == 1
    expected = sorted([(1, best, *totals[best])] + [(2, n, *totals[n]) for n in tied])
    by_number = {e.player.number: e.name for e in (player, opponent, other, fourth)}
    tied_names = {by_number[n] for n in tied}
    shot_before = {other.name, fourth.name}

    slug = event.tournament.slug
    story = Story(chromium, server, screenshots)
    head = story.visitor("head referee", LAPTOP)
    page = head.page
    head.log_in(event.users["head-referee"].username, PASSWORD, then=f"/t/{slug}/")
    # From the scorecards, as a head referee goes: the closed card's notice links the closed
    # results to the officials.
    head.follow(f"/t/{slug}/cards/")
    head.follow(f"/t/{slug}/cards/{stage.pk}/{player.pk}/")
    expect(page.locator(".notice.closed")).to_contain_text("Preliminary is closed")
    head.follow(f"/t/{slug}/stages/{stage.pk}/closed/", text="Open the closed results")
    expect(page.locator("#closure")).to_contain_text("Preliminary is closed: it advanced to")
    head.follow(
        f"/t/{slug}/stages/{stage.pk}/closed/games/{event.game.pk}/", text="change the result"
    )
    for number, r in enumerate(OPPONENT_WINS_TWO, start=1):
        enter_round(page, "change", number, r)
    page.fill("#id_change-reason", "Rounds 3 and 4 were misread on the card.")
    page.fill("#id_change-initials", "HR")
    with page.expect_navigation():
        head.press("Show what it would change")
    impact = page.locator("#impact")
    expect(impact).to_be_visible()
    text = impact.locator("strong").inner_text()
    assert not IDS.search(text), text
    assert set(names_in(r"Shoot-out 1 \((.+?) and (.+?)\) would no longer count", text)) == (
        shot_before
    ), text
    among = names_in(r"the tie would be among (.+?), (.+?) and (.+?)\.", text)
    assert set(among) == tied_names, text
    assert "a shoot-out would decide who advances to Playoff" in text, text
    head.shot("closed-change-preview", at=impact)
    with page.expect_navigation():
        head.press("Confirm the change")
    message = head.message()
    expect(message).to_contain_text("Result changed")
    expect(message).to_contain_text("would no longer count")
    assert not IDS.search(message.inner_text()), message.inner_text()
    head.shot("closed-change-done")
    head.close()

    for device in (PHONE, LAPTOP):
        fan = story.visitor("public", device)
        fan.go(f"/t/{slug}/")
        fan.follow(f"/t/{slug}/stages/{stage.pk}/standings/", text=stage.name)
        assert sorted(standings_rows(fan.page)) == expected, standings_rows(fan.page)
        notices = fan.page.locator("main p.notice")
        required = notices.filter(has_text="Shoot-out required between:").inner_text()
        asked = names_in(r"Shoot-out required between:\s*(.+?), (.+?), (.+?)\.", required)
        assert set(asked) == tied_names, required
        aside = notices.filter(has_text="no longer counts").inner_text()
        assert set(names_in(r"Shoot-out 1 \((.+?) and (.+?)\) no longer counts", aside)) == (
            shot_before
        ), aside
        assert not IDS.search(aside), aside
        assert fan.overflow() == 0, f"the standings go off the {device.name}'s screen"
        fan.shot("closed-change-standings")
        fan.close()

    org = story.visitor("organizer", LAPTOP)
    org.log_in(event.users["organizer"].username, PASSWORD, then=f"/t/{slug}/manage/")
    drift = org.page.locator(".notice.drift")
    expect(drift).to_have_count(1)
    expect(drift).to_contain_text("Playoff no longer matches the standings of Preliminary.")
    expect(drift).to_contain_text(
        "until it is recorded, Playoff cannot be advanced nor its next round drawn"
    )
    warning = drift.inner_text()
    assert not IDS.search(warning), warning
    assert all(name in warning for name in tied_names), warning
    expect(drift.get_by_role("link", name="Record the shoot-out")).to_be_visible()
    org.shot("closed-change-dashboard", at=drift)
    org.close()
    finish(story)
