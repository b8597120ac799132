"""An organizer dry-runs the WCC singles format from the browser, in a real chromium.

The issue: a dry run of the WCC singles preset completes from the browser with a progress bar,
and its standings, bracket, statistics and replays are shown.

What goes through the browser:
- the organizer, on a phone (390x844): logs in, opens the tournament page, follows its link to
  the simulation pages and starts a dry run of the WCC competitive singles format (10-game
  preliminary, two round-robin pools of 8, best-of-3 semifinals, final and 3rd place) with a
  generated field of 16 players, the smallest the format takes, on 8 boards; the progress bar
  advances until the page turns into the result;
- the organizer, on a laptop (1280x800): finds the finished dry run from the tournament page and
  reads its result: the time on the boards, the statistics of play, the bracket and the
  standings;
- on the phone again: from the result to a stage's matches, to the final, to a game's replay,
  which is played (the discs move) and stepped shot by shot.

The expected figures come from the copy tournament's official rounds in the database (points,
20s, games per match) and the preset's generated field, never from the app's own summary.
Screenshots are left in tests/artifacts/e2e/dryrun/ as dryrun-*.png.
"""

from __future__ import annotations

import datetime
import logging
import math
import re
import time
import warnings
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Count, Q, Sum
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from simulation.models import DryRun, Status
from simulation.presets import PRESETS, generated_players
from tests.celery_support import running_worker
from tests.e2e.browsing import LAPTOP, PHONE, Screenshots, Story, Visitor
from tests.e2e.conftest import SCREENSHOT_DIR
from tournaments.models import Entry, Game, Match, Round, Stage, Tournament, TournamentRole

pytestmark = [
    pytest.mark.browser,
    # One story, one pytest-xdist worker: its steps run in order (``make test`` uses loadgroup).
    pytest.mark.xdist_group("story-dry-run"),
    pytest.mark.django_db(transaction=True),
]

PASSWORD = "board-and-discs"
PRESET = PRESETS["wcc-singles"]
PLAYERS = PRESET.min_entries  # 16: the format sends 16 to the round-robin pools
BOARDS = 8
SEED = 2026
#: The whole dry run, worker and page polls included, on a busy 2-core machine (about 45 s
#: on an idle one), and the longest wait for the next news on the progress bar. Under
#: ``make test`` another pytest-xdist worker shares the cores, and the worker plays two batches
#: of games before it writes the first.
DRY_RUN_S = 360
STALL_S = 150
SHOT = re.compile(r"Round (\d+) of (\d+) · shot (\d+) of (\d+)")
#: The status line's words for a shot played to its end.
SHOT_OVER = re.compile(r"· (played|a 20!|foul|not valid)")
#: Where the replay page's clock starts (any fixed time: the replay measures only durations).
CLOCK_START = datetime.datetime(2026, 5, 1, 10, 0, 0)
#: Where every disc of the replay is on the screen, and what the status line says.
DISCS_JS = """root => ({
  status: root.querySelector('.replay-status').textContent,
  discs: Object.fromEntries([...root.querySelectorAll('.replay-discs g.disc')]
    .filter(g => g.style.display !== 'none')
    .map(g => {
      const box = g.querySelector('circle').getBoundingClientRect();
      return [g.textContent, [box.x + box.width / 2, box.y + box.height / 2]];
    }))
})"""


class DryRunShots(Screenshots):
    """The dry run's screenshots, named dryrun-NN-*.png."""

    def take(self, page: Page, name: str, *, full_page: bool = True) -> Path:
        path = self.folder / f"dryrun-{len(self.taken) + 1:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        self.taken.append(path)
        return path


@pytest.fixture
def dry_run_shots() -> DryRunShots:
    """A folder of its own: the story's screenshots fixture empties tests/artifacts/e2e/ of
    PNG files, and runs after this test."""
    folder = SCREENSHOT_DIR / "dryrun"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("dryrun-*.png"):
        old.unlink()
    return DryRunShots(folder)


# What the database says the result page must show ----------------------------------------------


def expected_minutes(copy: Tournament, boards: int) -> int:
    """Per round of play, ceil(matches / boards) time slots, each as long as the round's longest
    match needed games, each game ``game_minutes`` long (the estimate the issue asks for)."""
    games = defaultdict(list)
    played = (
        Match.objects.filter(stage__category__tournament=copy)
        .annotate(n=Count("games", filter=Q(games__rounds__isnull=False), distinct=True))
        .filter(n__gt=0)
        .values_list("stage_id", "round_of_play", "n")
    )
    for stage_id, round_of_play, n in played:
        games[(stage_id, round_of_play)].append(n)
    return sum(math.ceil(len(n) / boards) * max(n) * copy.game_minutes for n in games.values())


def entry_totals(stage: Stage) -> dict[str, tuple[int, int, int]]:
    """Games, points and 20s of every entry in the stage, added up from the official rounds."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    games = Game.objects.filter(match__stage=stage, rounds__isnull=False).distinct()
    for game in games.select_related("match__entry_a__player", "match__entry_b__player"):
        rounds = game.rounds.aggregate(
            pa=Sum("points_a"), pb=Sum("points_b"), ta=Sum("twenties_a"), tb=Sum("twenties_b")
        )
        for entry, points, twenties in (
            (game.match.entry_a, rounds["pa"], rounds["ta"]),
            (game.match.entry_b, rounds["pb"], rounds["tb"]),
        ):
            line = totals[entry.name]
            line[0] += 1
            line[1] += points
            line[2] += twenties
    return {name: tuple(line) for name, line in totals.items()}


def round_statistics(copy: Tournament) -> dict[str, float]:
    """20s per game, per player per round and the tied rounds' share, from the official rounds
    (singles: two players shoot in every round)."""
    rounds = Round.objects.filter(game__match__stage__category__tournament=copy)
    figures = rounds.aggregate(
        n=Count("id"),
        tied=Count("id", filter=Q(points_a=1, points_b=1)),
        twenties=Sum("twenties_a") + Sum("twenties_b"),
        games=Count("game", distinct=True),
    )
    return {
        "games": figures["games"],
        "per_game": figures["twenties"] / figures["games"],
        "per_player_round": figures["twenties"] / (2 * figures["n"]),
        "tied_percent": 100 * figures["tied"] / figures["n"],
    }


def table_rows(table: Locator) -> list[list[str]]:
    return [
        [c.strip() for c in row.locator("th, td").all_inner_texts()]
        for row in table.locator("tbody tr").all()
    ]


# The story's chapters --------------------------------------------------------------------------


def start_from_the_tournament_page(phone: Visitor, tournament: Tournament) -> None:
    """The tournament page offers the simulation to its organizer; the hub's form chooses the
    WCC format and a generated field small enough to play in a minute."""
    slug = tournament.slug
    phone.log_in("olivia", PASSWORD, then=tournament.get_absolute_url())
    block = phone.page.locator("section.sim-block")
    expect(block.get_by_role("button", name="Dry-run this tournament")).to_be_visible()
    phone.follow(f"/t/{slug}/sim/", text="dry runs")
    form = phone.page.locator("details.sim-form form")
    expect(form).to_be_visible()
    options = form.locator("select[name=preset] option").all_text_contents()
    assert PRESET.name in options, f"{phone.path}: the formats offered are {options}"
    form.locator("select[name=preset]").select_option(PRESET.key)
    form.locator("select[name=field]").select_option("generated")
    form.locator("input[name=players]").fill(str(PLAYERS))
    form.locator("input[name=boards]").fill(str(BOARDS))
    form.locator("input[name=seed]").fill(str(SEED))
    phone.shot("start-form", at=form)
    with phone.page.expect_navigation():
        phone.submit(form, "Start the dry run")


def watch_the_progress(phone: Visitor, dry: DryRun) -> list[tuple[int, int]]:
    """Read the progress bar until the page turns into the result (htmx reloads it when the run
    is done); returns the (percent, games played) pairs seen on the way. A run that stops, or
    shows no progress for ``STALL_S``, ends the watch at once with what the page showed."""
    page = phone.page
    assert phone.path == f"/t/{dry.source.slug}/sim/dry-runs/{dry.pk}/", phone.path
    progress = page.locator("#dry-run-progress")
    bar = progress.locator("[role=progressbar]")
    expect(bar).to_be_visible()
    seen: list[tuple[int, int]] = []
    shot = False
    start = changed = time.monotonic()
    while time.monotonic() - start < DRY_RUN_S and time.monotonic() - changed < STALL_S:
        try:
            if page.locator("section.sim-summary").count():
                break
            if progress.get_attribute("hx-get", timeout=2_000) is None:
                break  # stopped: the page no longer asks for news
            percent = int(bar.get_attribute("aria-valuenow", timeout=2_000) or 0)
            phase = progress.locator(".progress-phase").inner_text(timeout=2_000)
        except PlaywrightError:  # the page is being reloaded into the result
            continue
        games = re.search(r"(\d+) of about (\d+) games", phase)
        played = int(games.group(1)) if games else 0
        if not seen or seen[-1] != (percent, played):
            seen.append((percent, played))
            changed = time.monotonic()
        if not shot and 0 < percent < 100:
            width = bar.locator(".progress-bar").evaluate("e => e.style.width")
            assert width == f"{percent}%", f"the bar is {width} wide at {percent}%"
            phone.shot("progress", at=bar)
            shot = True
        page.wait_for_timeout(300)
    dry = DryRun.objects.select_related("run").get(pk=dry.pk)
    run = dry.run
    assert dry.status == Status.DONE, (
        f"dry run {dry.pk} is {dry.status} after {time.monotonic() - start:.0f} s "
        f"({dry.phase}; {dry.error or 'no error'}); "
        + (
            f"{run.games_played} of {run.games_expected} games, in flight {run.in_flight}; "
            if run
            else ""
        )
        + f"the page showed (percent, games): {seen}"
    )
    expect(page.locator("section.sim-summary")).to_be_visible()
    return seen


def read_the_result(laptop: Visitor, dry: DryRun) -> None:
    """Time on the boards, statistics, bracket and standings, checked against the database."""
    page = laptop.page
    copy = dry.copy
    source = dry.source
    laptop.log_in("olivia", PASSWORD, then=source.get_absolute_url())
    laptop.follow(f"/t/{source.slug}/sim/", text="dry runs")
    laptop.follow(f"/t/{source.slug}/sim/dry-runs/{dry.pk}/", text="result")
    summary = page.locator("section.sim-summary")
    expect(summary.locator("h3")).to_have_text(f"The event on {BOARDS} boards")
    minutes = expected_minutes(copy, BOARDS)
    expect(summary.locator(".sim-big")).to_contain_text(
        f"About {minutes / 60:.1f} hours of play ({minutes} minutes) "
        f"with {copy.game_minutes}-minute games"
    )
    stages = list(copy.categories.get().stages.exclude(kind=Stage.Kind.SHOOTOUT).order_by("order"))
    assert [s.name for s in stages] == [s.name for s in PRESET.stages]
    played = {
        s.name: Game.objects.filter(match__stage=s, rounds__isnull=False).distinct().count()
        for s in stages
    }
    time_rows = table_rows(summary.locator("table.sim-table").first)
    assert [(r[0].split("\n")[0], int(r[2])) for r in time_rows] == [
        (f"{s.category.name}: {s.name}", played[s.name]) for s in stages
    ], time_rows
    # 16 players: 8 matches a round on 8 boards; two pools of 8 play 7 rounds of 8 matches.
    assert played["Preliminary"] == PLAYERS * PRESET.stages[0].games_per_entry // 2
    assert [int(r[1]) for r in time_rows][:2] == [PRESET.stages[0].games_per_entry, 7]

    stats_section = page.locator("section", has=page.get_by_role("heading", name="Statistics"))
    stats = stats_section.locator("table.sim-table").first
    headers = stats.locator("thead th").all_inner_texts()
    for header in ("20s per player per round", "20s per game (both sides)", "Open-20 rate"):
        assert header in headers, headers
    assert "Tied rounds" in headers, headers
    rows = table_rows(stats)
    assert [r[0] for r in rows] == [s.name for s in stages] + ["All"], rows
    figures = round_statistics(copy)
    overall = dict(zip(headers, rows[-1], strict=True))
    assert int(overall["Games"]) == figures["games"] == sum(played.values())
    assert overall["20s per game (both sides)"] == f"{figures['per_game']:.2f}", overall
    assert overall["20s per player per round"] == f"{figures['per_player_round']:.2f}", overall
    tied = int(overall["Tied rounds"].rstrip("%"))
    assert abs(tied - figures["tied_percent"]) <= 1, (overall, figures)
    open20 = int(overall["Open-20 rate"].rstrip("%"))
    assert 0 < open20 < 100, overall

    knockout = stages[-1]
    svg = page.locator(".sim-bracket svg.bracket")
    expect(svg).to_have_count(1)
    expect(svg.locator("title")).to_have_text(f"{knockout.category.name}: {knockout.name}")
    matches = Match.objects.filter(stage=knockout).select_related(
        "entry_a__player", "entry_b__player"
    )
    assert {m.bracket_slot for m in matches} >= {"F", "3P"}, [m.bracket_slot for m in matches]
    for match in matches:
        box = svg.locator(f"#match-{match.bracket_slot}")
        expect(box).to_contain_text(match.entry_a.name)
        expect(box).to_contain_text(match.entry_b.name)
        expect(box.locator("g.side.win")).to_have_count(1)
    check_standings(page, stages[0])
    advancing = page.locator("section.stage", has_text="pool").locator(
        "tr.advances td:nth-child(2)"
    )
    went_on = {m.entry_a.name for m in matches} | {m.entry_b.name for m in matches}
    laptop.story.note_bug(
        sorted(advancing.all_inner_texts()) == sorted(went_on),
        f"{laptop.path}: the round-robin pools mark {advancing.count()} entries as advancing "
        f"({', '.join(advancing.all_inner_texts())}), but {len(went_on)} went on to the "
        f"{knockout.name} ({', '.join(sorted(went_on))}): each pool's rank is compared with the "
        "stage's advance count, not its share per pool",
    )
    laptop.shot("result")


def check_standings(page: Page, preliminary: Stage) -> None:
    """The preliminary's standings: every generated player once, ranked by points, each with
    the games, points and 20s their official rounds add up to."""
    names = {f"{p.first_name} {p.last_name}" for p in generated_players(PLAYERS, PRESET, SEED)}
    registered = Entry.objects.filter(category=preliminary.category).select_related("player")
    assert {e.name for e in registered} == names, "the copy's field is not the generated one"
    block = page.locator("section.stage", has=page.get_by_role("heading", name="Preliminary"))
    lines = [
        (int(r[0]), r[1], int(r[3]), int(r[4]), int(r[5]))
        for r in table_rows(block.locator("table.standings"))
    ]
    assert {name for _, name, *_ in lines} == names, lines
    assert lines[0][0] == 1, lines
    assert all(a[0] <= b[0] and a[3] >= b[3] for a, b in pairwise(lines)), lines
    totals = entry_totals(preliminary)
    assert {name: (g, p, t) for _, name, g, p, t in lines} == totals
    # Two layouts of the chart are in the page; the one that fits the screen is shown.
    expect(block.locator("svg.standings-chart:visible")).to_have_count(1)


def replay_a_game(phone: Visitor, dry: DryRun) -> None:
    """From the result to the final's match page, whose replay is played and stepped."""
    page = phone.page
    copy = dry.copy
    knockout = copy.categories.get().stages.get(kind=Stage.Kind.KNOCKOUT)
    final = Match.objects.select_related("entry_a__player", "entry_b__player").get(
        stage=knockout, bracket_slot="F"
    )
    game = final.games.filter(rounds__isnull=False).distinct().order_by("number").last()
    block = page.locator("section.stage", has=page.get_by_role("heading", name=knockout.name))
    with page.expect_navigation():
        block.get_by_role("link", name="matches and replays").first.click()
    assert phone.path == f"/t/{copy.slug}/sim/stages/{knockout.pk}/", phone.path
    phone.follow(f"/t/{copy.slug}/sim/matches/{final.pk}/", text="replay")
    expect(page.locator("h2")).to_contain_text(final.entry_a.name)
    # The replay animates on the page's clock (requestAnimationFrame, setTimeout): Playwright's
    # clock takes their place from the replay's page on, so the test can stop time.
    page.clock.install(time=CLOCK_START)
    with page.expect_navigation():
        page.locator(f'table.sim-table a[href="?game={game.pk}#replay"]').click()
    assert f"game={game.pk}" in page.url, page.url
    replay = page.locator("#replay")
    expect(replay.locator(".replay-title")).to_contain_text(f"Replay of game {game.number}")
    play = replay.get_by_role("button", name="Play")
    expect(play).to_be_enabled()
    expect(replay.locator(".replay-status")).to_have_text(re.compile(r"^Round 1 of \d+ · shot 1 "))
    # From here the page's time stands still and moves only when the test moves it: what the
    # test reads is where the replay is at that instant of play, however slow the machine.
    page.clock.pause_at(CLOCK_START + datetime.timedelta(days=1))

    play.click()
    expect(replay.get_by_role("button", name="Pause")).to_be_visible()
    assert discs_move(replay), "the replay is playing but no disc moves on the board"
    phone.shot("replay-playing", at=replay)
    replay.get_by_role("button", name="Pause").click()
    expect(replay.get_by_role("button", name="Play")).to_be_visible()
    expect(replay.locator(".replay-status")).not_to_have_text(SHOT_OVER)  # paused in a shot

    step_shot_by_shot(replay)
    phone.story.note_bug(
        phone.overflow() == 0, f"{phone.path}: the replay page is wider than the phone"
    )
    phone.shot("replay-stepped", at=replay)


def discs_move(replay) -> bool:
    """Move the page's clock on by 50 ms at a time, up to 3 s of play: some disc must be seen at
    two places while the status line names the same shot (a slide, not the board set for the
    next shot). The clock stands still between steps, so each reading is one instant of play,
    and the replay is left paused inside the shot where a disc was first seen to move."""
    before = replay.evaluate(DISCS_JS)
    for _ in range(60):
        replay.page.clock.run_for(50)
        now = replay.evaluate(DISCS_JS)
        if now["status"] == before["status"]:
            for disc, (x, y) in now["discs"].items():
                if disc in before["discs"]:
                    bx, by = before["discs"][disc]
                    if math.hypot(x - bx, y - by) > 0.5:
                        return True
        before = now
    return False


def shot_of(replay) -> tuple[int, int]:
    text = replay.locator(".replay-status").inner_text()
    found = SHOT.search(text)
    assert found, f"the replay's status line names no shot: {text!r}"
    return int(found.group(1)), int(found.group(3))


def step_shot_by_shot(replay) -> None:
    """Paused in a shot: "Shot ▶" ends it, "Shot ▶" again starts the next one (which stays at
    its start: the page's clock stands still), "◀ Shot" goes back to the board before it."""
    status = replay.locator(".replay-status")
    next_shot = replay.get_by_role("button", name="Shot ▶")
    here = shot_of(replay)
    next_shot.click()
    expect(status).to_have_text(SHOT_OVER)
    assert shot_of(replay) == here
    next_shot.click()
    expect(status).not_to_have_text(re.compile(rf"shot {here[1]} of"))
    after = shot_of(replay)
    assert after > here, f"Shot ▶ went from {here} to {after}"
    replay.get_by_role("button", name="◀ Shot").click()
    expect(status).not_to_have_text(SHOT_OVER)
    assert shot_of(replay) == after, "◀ Shot during a shot shows the board before it"


# The story -------------------------------------------------------------------------------------


def test_organizer_dry_runs_the_wcc_singles_format(server, chromium, dry_run_shots, fast_passwords):
    story = Story(chromium, server, dry_run_shots)
    organizer = User.objects.create_user("olivia", password=PASSWORD)
    tournament = Tournament.objects.create(
        name="Tavistock Open", slug="tavistock-open", venue="Tavistock Community Hall"
    )
    TournamentRole.objects.create(
        tournament=tournament, user=organizer, role=TournamentRole.Role.ORGANIZER
    )

    if connection.vendor == "sqlite":
        # The test database is an in-memory one shared by the live server (through this
        # connection) and the worker thread; a page reading a table the worker is writing
        # would find it locked (shared-cache locks do not wait). Reading uncommitted rows
        # takes no such lock, as tests/simulation/app/test_sim_dryrun.py does.
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")

    phone = story.visitor("organizer", PHONE)
    with running_worker():
        start_from_the_tournament_page(phone, tournament)
        dry = DryRun.objects.select_related("source").get(source=tournament)
        assert (dry.preset, dry.entries, dry.boards, dry.seed) == (
            PRESET.key,
            PLAYERS,
            BOARDS,
            SEED,
        )
        seen = watch_the_progress(phone, dry)
        phone.story.note_bug(
            phone.overflow() == 0, f"{phone.path}: the result is wider than the phone"
        )
        phone.shot("done", at=phone.page.locator("section.sim-summary"))
    # The worker's logging setup sends warnings to the log; give them back to pytest.
    logging.captureWarnings(False)
    percents = [p for p, _ in seen]
    games = [g for _, g in seen]
    assert any(0 < p < 100 for p in percents), f"the bar never showed a run in progress: {seen}"
    assert percents == sorted(percents) and games == sorted(games), f"it went back: {seen}"
    assert len(set(games)) >= 2, f"the games played never advanced on the page: {seen}"

    dry = DryRun.objects.select_related("source", "copy", "run").get(pk=dry.pk)
    played = Game.objects.filter(match__stage__category__tournament=dry.copy, rounds__isnull=False)
    assert dry.run.games_played == played.distinct().count()
    laptop = story.visitor("organizer", LAPTOP)
    read_the_result(laptop, dry)
    laptop.close()

    # The phone is still on the dry run's page, turned into the result.
    replay_a_game(phone, dry)
    phone.close()

    assert not story.problems, "\n".join(story.problems)
    if story.app_bugs:
        warnings.warn("app bugs met on the way:\n" + "\n".join(story.app_bugs), stacklevel=1)
    assert not story.missing_links, "pages the story reached only by typing their address:\n" + (
        "\n".join(sorted(set(story.missing_links)))
    )
