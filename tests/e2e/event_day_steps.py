"""The event-day story's people, its results decided before play, what its steps hand on to
the next (``EventDay``), and the browser steps it repeats (a paper card at the table, a row on a
phone, the table's verification, the standings read back).

The results are designed once the draw is known, so that the test knows the right standings
without asking the app, and so that the preliminary ends with exactly one tie, on the cut line:

- the withdrawn player and the opponent they leave without a game in round of play 4 lose every
  game they play 0-8 and sink no 20s, so whatever a walkover is worth (at most a game's 8
  points) they stay below everyone else;
- every other game is won 5-3 by the stronger player (2-0, 2-0, 1-1, 0-2), a game against the
  two above 8-0, a bye is worth the stage's 8 points;
- a strength order is chosen (a seeded shuffle, tried until it fits) for which the 8th and 9th
  places have the same points; then every player's 20s are set so that all are apart except
  those two, who end level on points and 20s: WCC, a shoot-out settles who advances.

Rounds are given as a scorecard row gives them, from one side of the board:
``{"points": [own, other], "twenties": [own, other]}``.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.e2e.browsing import (
    LAPTOP,
    PHONE,
    Device,
    Story,
    Visitor,
    enter_round,
    fill_row,
    game_total,
    type_rounds,
    validate_row,
    winner_button,
)
from tests.e2e.story_results import Person
from tournaments.models import Entry, Match, Stage

Rounds = list[dict[str, list[int]]]

PLAYERS = [
    Person(401, "Ada", "Kuepfer", "Tavistock"),
    Person(402, "Bram", "Jantzi", "Elmira"),
    Person(403, "Cora", "Lichti", "Milverton"),
    Person(404, "Dev", "Patel", "Kitchener"),
    Person(405, "Esme", "Roth", "Listowel"),
    Person(406, "Finn", "Bauman", "Elmira"),
    Person(407, "Greta", "Zehr", "New Hamburg"),
    Person(408, "Hugo", "Weber", "Listowel"),
    Person(409, "Iris", "Steckly", "Wellesley"),
    Person(410, "Jonas", "Gingerich", "Wellesley"),
    Person(411, "Kira", "Martin", "Kitchener"),
    Person(412, "Liam", "Brenneman", "Tavistock"),
    Person(413, "Maren", "de Wit", "Rotterdam", "Netherlands"),
    Person(414, "Nils", "Becker", "Hamburg", "Germany"),
    Person(415, "Olga", "Schultz", "Tavistock"),
    Person(416, "Paolo", "Rossi", "Toronto"),
    Person(417, "Quinn", "Erb", "Baden"),
    Person(418, "Rosa", "Hofstetter", "Baden"),
    Person(419, "Sam", "Kropf", "Milverton"),
    Person(420, "Tara", "Nafziger", "New Hamburg"),
    Person(421, "Uwe", "Richter", "Hamburg", "Germany"),
    Person(422, "Vera", "Wagler", "Millbank"),
    Person(423, "Wim", "Bakker", "Rotterdam", "Netherlands"),
    Person(424, "Yara", "Schmidt", "Shakespeare"),
]
BY_NUMBER = {p.number: p for p in PLAYERS}
#: Registered, but not in the hall when the draw is made.
ABSENT = 424
CATEGORY = "Competitive Singles"
CSV_HEADER = "first_name,last_name,number,club,country,categories"

ORGANIZER = "olivia"
PASSWORD = "twenty-in-the-hole"
SLUG = "wellesley-event-day"
STAFF = [
    # username, first name, last name, role as the staff page names it, device
    ("cole", "Cole", "Ropp", "Co-organizer", LAPTOP),
    ("hazel", "Hazel", "Brenneman", "Head referee", LAPTOP),
    ("reid", "Reid", "Albrecht", "Referee", PHONE),
    ("tamsin", "Tamsin", "Kipfer", "Scoring table", LAPTOP),
]
PRELIMINARY_LABEL = f"{CATEGORY}: Preliminary"
PLAYOFF_LABEL = f"{CATEGORY}: Playoff"

#: Round points of a game from the winner's side.
WON_5_3 = [(2, 0), (2, 0), (1, 1), (0, 2)]
WON_8_0 = [(2, 0)] * 4
WON_6_2 = [(2, 0), (2, 0), (0, 2), (2, 0)]
#: The final: level 4-4 after four rounds and 5-5 after a tied 5th; the 6th decides it.
FINAL = [(2, 0), (0, 2), (2, 0), (0, 2), (1, 1), (2, 0)]
FINAL_TWENTIES = [(3, 2), (1, 3), (2, 1), (0, 2), (2, 2), (3, 1)]
BYE_POINTS = 8
#: The shoot-out at the cut: 20s made with 12 shots, the winner's first.
SHOOTOUT = (9, 7)
#: 20s of the best player; each next place has one fewer (the two on the cut share one).
TOP_TWENTIES = 40


def players_csv(people: Iterable[Person]) -> bytes:
    lines = [CSV_HEADER] + [
        f"{p.first_name},{p.last_name},{p.number},{p.club},{p.country},{CATEGORY}" for p in people
    ]
    return ("\n".join(lines) + "\n").encode()


def mirror(rounds: Rounds) -> Rounds:
    """The same rounds seen from the other side of the board."""
    return [{k: list(reversed(v)) for k, v in r.items()} for r in rounds]


def with_mistake(rounds: Rounds) -> Rounds:
    """The row as a tired player writes it: one 20 too many for themselves in round 3."""
    wrong = [dict(r) for r in rounds]
    own, other = wrong[2]["twenties"]
    wrong[2] = {**wrong[2], "twenties": [own + 1, other]}
    return wrong


def spread(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` nearly equal whole numbers, the larger ones first."""
    base, extra = divmod(total, parts)
    return [base + 1 if i < extra else base for i in range(parts)]


def game_rows(points: Sequence[tuple[int, int]], twenties: tuple[int, int]) -> Rounds:
    """A game's rounds from one side: round points as given, each side's 20s spread evenly."""
    own, other = spread(twenties[0], len(points)), spread(twenties[1], len(points))
    return [{"points": list(p), "twenties": [own[i], other[i]]} for i, p in enumerate(points)]


def flip(points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(b, a) for a, b in points]


def totals(rounds: Rounds) -> tuple[int, int]:
    """Points and 20s of the row's owner."""
    return sum(r["points"][0] for r in rounds), sum(r["twenties"][0] for r in rounds)


@dataclass(frozen=True)
class Pairing:
    """A drawn match of the preliminary by player ID: ``b`` is None for a bye."""

    round: int
    a: int
    b: int | None


@dataclass
class Plan:
    """The preliminary as it will be played, and what it must add up to."""

    pairings: list[Pairing]
    withdrawn: int
    walkover_to: int
    #: Everyone else, best first (who wins a game between two of them).
    strength: list[int]
    #: The row of entry A's card for each game played, by (round, a, b).
    games: dict[tuple[int, int, int], Rounds] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    twenties: dict[int, int] = field(default_factory=dict)
    #: The two level on the 8th place, the shoot-out's winner first.
    cut: tuple[int, int] = (0, 0)

    @property
    def walkover(self) -> Pairing:
        return next(
            p
            for p in self.pairings
            if p.round == 4 and {p.a, p.b} == {self.withdrawn, self.walkover_to}
        )

    def rows(self, round_of_play: int) -> list[tuple[Pairing, Rounds]]:
        return [
            (p, self.games[(p.round, p.a, p.b)])
            for p in self.pairings
            if p.round == round_of_play and (p.round, p.a, p.b) in self.games
        ]

    def final_order(self) -> list[tuple[int, int, int]]:
        """(ID, points, 20s) of everyone but the two at the bottom, best first, after the
        shoot-out at the cut."""
        ordered = sorted(self.strength, key=lambda n: (-self.points[n], -self.twenties[n]))
        winner, loser = self.cut
        assert ordered[7:9] in ([winner, loser], [loser, winner])
        ordered[7:9] = [winner, loser]
        return [(n, self.points[n], self.twenties[n]) for n in ordered]

    @property
    def seeds(self) -> list[int]:
        """The eight who advance, in the order of the preliminary standings."""
        return [n for n, _, _ in self.final_order()[:8]]


def plan_preliminary(pairings: Sequence[Pairing]) -> Plan:
    """Decide every game of the drawn preliminary (see the module's docstring)."""
    byes = {p.a for p in pairings if p.b is None}
    walkover = next(
        p for p in pairings if p.round == 4 and p.b is not None and not {p.a, p.b} & byes
    )
    withdrawn, walkover_to = walkover.b, walkover.a
    losers = {withdrawn, walkover_to}
    others = sorted({n for p in pairings for n in (p.a, p.b) if n is not None} - losers)
    for seed in range(1000):
        strength = list(others)
        random.Random(seed).shuffle(strength)
        plan = _play(pairings, withdrawn, walkover_to, strength, byes)
        ordered = sorted(others, key=lambda n: (-plan.points[n], strength.index(n)))
        if plan.points[ordered[7]] == plan.points[ordered[8]]:
            break
    else:  # pragma: no cover - the draw leaves some shuffle that fits
        raise AssertionError("no strength order puts a tie on the cut line")
    twenties = {n: TOP_TWENTIES - place for place, n in enumerate(ordered)}
    twenties[ordered[8]] = twenties[ordered[7]]
    twenties |= {n: 0 for n in losers}
    plan.twenties = twenties
    plan.cut = (ordered[8], ordered[7])
    _write_rows(plan, byes)
    return plan


def _play(
    pairings: Sequence[Pairing], withdrawn: int, walkover_to: int, strength: list[int], byes
) -> Plan:
    """Who wins each game and the points it gives (the 20s come later)."""
    plan = Plan(list(pairings), withdrawn, walkover_to, strength)
    losers = {withdrawn, walkover_to}
    points = {n: 0 for p in pairings for n in (p.a, p.b) if n is not None}
    for n in byes:
        points[n] += BYE_POINTS
    for p in pairings:
        if p.b is None or {p.a, p.b} == losers:
            continue
        winner, loser = _winner(p, strength, losers)
        won = WON_8_0 if loser in losers else WON_5_3
        points[winner] += sum(a for a, _ in won)
        points[loser] += sum(b for _, b in won)
    plan.points = points
    return plan


def _winner(p: Pairing, strength: list[int], losers: set[int]) -> tuple[int, int]:
    if p.a in losers:
        return p.b, p.a
    if p.b in losers:
        return p.a, p.b
    return (p.a, p.b) if strength.index(p.a) < strength.index(p.b) else (p.b, p.a)


def _write_rows(plan: Plan, byes: set[int]) -> None:
    """Every game's row, each player's 20s spread over the games they play."""
    losers = {plan.withdrawn, plan.walkover_to}
    played = [p for p in plan.pairings if p.b is not None and {p.a, p.b} != losers]
    share: dict[int, list[int]] = {}
    for n, total in plan.twenties.items():
        games = sum(1 for p in played if n in (p.a, p.b))
        share[n] = spread(total, games) if games else []
    for p in played:
        winner, loser = _winner(p, plan.strength, losers)
        won = WON_8_0 if loser in losers else WON_5_3
        points = won if winner == p.a else flip(won)
        rows = game_rows(points, (share[p.a].pop(), share[p.b].pop()))
        plan.games[(p.round, p.a, p.b)] = rows
    for n in plan.twenties:
        assert not share[n], f"{n}: 20s left over"
    for n in plan.points:
        got = [0, 0]
        for (_, a, b), rows in plan.games.items():
            if n in (a, b):
                own = rows if n == a else mirror(rows)
                got = [got[0] + totals(own)[0], got[1] + totals(own)[1]]
        got[0] += BYE_POINTS if n in byes else 0
        assert tuple(got) == (plan.points[n], plan.twenties[n]), f"{n}: {got}"


def knockout_row(
    winner_side: bool,
    points: Sequence[tuple[int, int]] = WON_6_2,
    twenties: tuple[int, int] = (8, 4),
) -> Rounds:
    """A knockout game's row of the card's owner, who wins it when ``winner_side``."""
    rows = game_rows(points, twenties)
    return rows if winner_side else mirror(rows)


def final_row() -> Rounds:
    """The final from the winner's side: 5-5 after a tied 5th round, won in the 6th, 7-5."""
    return [
        {"points": list(p), "twenties": list(t)} for p, t in zip(FINAL, FINAL_TWENTIES, strict=True)
    ]


class Stopwatch:
    """The story's time, chapter by chapter (printed with -s, and kept with the screenshots)."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.last = self.started
        self.laps: list[str] = []

    def lap(self, chapter: str) -> None:
        now = time.monotonic()
        self.laps.append(f"{chapter}: {now - self.last:.0f} s")
        print(f"  {self.laps[-1]}", flush=True)
        self.last = now

    @property
    def total(self) -> float:
        return time.monotonic() - self.started


# Browser steps ---------------------------------------------------------------------------------


def enter_paper_card(
    table: Visitor,
    *,
    stage_label: str,
    round_of_play: int,
    owner: int,
    opponent: int,
    rounds: Rounds,
) -> None:
    """The table volunteer types a paper card's row as a pile of cards is typed: the ID
    printed on the card and Enter, then each round's winner and 20s (the board scores left
    empty), the opponent's ID and initials as written beside the row, and Enter."""
    page = table.page
    page.select_option("#id_stage", label=stage_label)
    page.fill("#id_round_of_play", str(round_of_play))
    page.fill("#id_who", str(owner))
    with page.expect_navigation():
        page.press("#id_who", "Enter")
    section = page.locator("#paper-row")
    expect(section.locator("h2")).to_contain_text(f"ID {owner}")
    expect(section).to_contain_text(f"ID {opponent}")
    for number, r in enumerate(rounds, start=1):
        enter_round(page, "paper", number, r)
    page.fill("#id_paper-opponent_number", str(opponent))
    page.fill("#id_paper-initials", BY_NUMBER[opponent].initials)
    with page.expect_navigation():
        page.press("#id_paper-initials", "Enter")
    expect(table.message()).to_contain_text(
        f"(ID {owner}), round of play {round_of_play}: validated on paper."
    )


def verify_waiting_cards(table: Visitor, stage_label: str, expected: int) -> None:
    """At the scoring table, the stage's cards waiting for verification, one click each."""
    page = table.page
    page.select_option("#id_stage", label=stage_label)
    expect(page).to_have_url(re.compile(r"stage=\d+"))
    count = page.locator("#queue .count")
    expect(count).to_have_text(f"{expected} card{'s' if expected != 1 else ''} waiting.")
    buttons = page.locator("#queue").get_by_role("button", name="Verify card")
    for left in range(expected - 1, -1, -1):
        buttons.first.click()
        expect(count).to_have_text(f"{left} card{'s' if left != 1 else ''} waiting.")


def phone_fill(phone: Visitor, game_id: int, rounds: Rounds, badge: str = "Filled") -> None:
    """The player fills their own row; ``badge``: what the row then says (the other card of the
    game saying the same validates it, saying otherwise disputes it)."""
    fill_row(phone.page, game_id, rounds, badge)


def phone_validate(phone: Visitor, card_path: str, game_id: int, number: int) -> None:
    """On their own phone, the opponent opens the card they played against (the QR code on it,
    or the owner's phone held out) and signs the row."""
    phone.go(card_path)
    validate_row(phone.page, game_id, number, BY_NUMBER[number].initials)


def type_final_row(page: Page, game_id: int, rounds: Rounds) -> None:
    """Four rounds level at 4-4: the card adds a 5th line; a tied 5th adds a 6th."""
    type_rounds(page, game_id, rounds[:4])
    total = page.locator(f"#total-{game_id}")
    expect(total).to_contain_text("round 5")
    expect(winner_button(page, f"g{game_id}", 5, "own")).to_be_visible()
    type_rounds_from(page, game_id, rounds, 5)
    expect(total).to_contain_text("round 6")
    expect(winner_button(page, f"g{game_id}", 6, "own")).to_be_visible()
    type_rounds_from(page, game_id, rounds, 6)
    page.keyboard.press("Tab")
    expect(total).to_have_text(game_total(rounds))


def type_rounds_from(page: Page, game_id: int, rounds: Rounds, number: int) -> None:
    enter_round(page, f"g{game_id}", number, rounds[number - 1])


# The story's people, and what each step hands on to the next -----------------------------------


class Hall:
    """The story with its people: every browser context listens for a request to /admin/."""

    def __init__(self, story: Story) -> None:
        self.story = story
        self.admin_requests: list[str] = []
        self.requests = 0
        self.links: dict[int, str] = {}

    def person(self, who: str, device: Device) -> Visitor:
        visitor = self.story.visitor(who, device)
        visitor.context.on("request", self._watch)
        return visitor

    def _watch(self, request) -> None:
        self.requests += 1
        if "/admin/" in request.url:
            self.admin_requests.append(request.url)

    def phone_of(self, number: int) -> Visitor:
        """A player opens their private link on their phone (the QR code of their sheet)."""
        phone = self.person(f"player {number}", PHONE)
        phone.go(self.links[number])
        expect(phone.page.locator(".private-link h2")).to_contain_text(BY_NUMBER[number].full_name)
        return phone


#: A step's number, from its name (``test_7_...``): the steps run in that order.
STEP_NUMBER = re.compile(r"test_(\d+)_")


class EventDay:
    """The day as the steps leave it for the next: the people still in the hall (their
    browsers stay open from step to step), the stages drawn and the planned results; and which
    steps passed, so that a step runs only where the one before it left the event.

    The attributes below the hall are set by the step that makes them.
    """

    org: Visitor
    staff: dict[str, Visitor]
    table: Visitor
    preliminary: Stage
    playoff: Stage
    plan: Plan
    round_one: list[Match]
    final: Match

    def __init__(self, hall: Hall, clock: Stopwatch) -> None:
        self.hall = hall
        self.story = hall.story
        self.clock = clock
        self.passed: list[str] = []
        self.failed: str | None = None
        self._problems_before = 0

    def begin(self, step: str) -> None:
        """Let ``step`` run only after every step before it passed: after a failed one it is
        skipped, saying which; when one before it did not run at all (picked out with ``-k``),
        it fails, since it would start from an event that is not there."""
        if self.failed is not None:
            pytest.skip(
                f"{self.failed} failed, and this step goes on from where the steps before it "
                "leave the event"
            )
        number = int(STEP_NUMBER.match(step)[1])
        if number != len(self.passed) + 1:
            done = ", ".join(self.passed) or "none"
            pytest.fail(
                f"{step} goes on from where steps 1 to {number - 1} leave the event, and they "
                f"did not all run before it (passed: {done}): run the story's steps together",
                pytrace=False,
            )
        self._problems_before = len(self.story.problems)

    def end(self, step: str, *, passed: bool) -> None:
        """Note how ``step`` ended, its time, and name it on the page problems it met (they
        fail the story's last step, with the rest of the story told)."""
        problems = self.story.problems
        problems[self._problems_before :] = [
            f"[{step}] {problem}" for problem in problems[self._problems_before :]
        ]
        if passed:
            self.passed.append(step)
        else:
            self.failed = step
        self.clock.lap(step)


# What the database and the pages say -----------------------------------------------------------


def card_path(stage: Stage, entry_id: int) -> str:
    return reverse("scoring:cards:card", args=[SLUG, stage.id, entry_id])


def entry_of(number: int) -> Entry:
    return Entry.objects.select_related("player").get(
        category__tournament__slug=SLUG, player__number=number
    )


def drawn(stage: Stage, **filters) -> list[Match]:
    return list(
        Match.objects.filter(stage=stage, **filters)
        .select_related("entry_a__player", "entry_b__player", "board")
        .prefetch_related("games")
        .order_by("round_of_play", "board__number", "bracket_slot", "id")
    )


def numbers(match: Match) -> tuple[int, int | None]:
    b = match.entry_b.player.number if match.entry_b_id else None
    return match.entry_a.player.number, b


def official_rounds(game) -> list[dict]:
    return [
        {"points": [r.points_a, r.points_b], "twenties": [r.twenties_a, r.twenties_b]}
        for r in game.rounds.order_by("number")
    ]


def standings_lines(page: Page) -> list[tuple[int, int, int, int]]:
    """(rank, ID, points, 20s) of every line of the standings table on the page."""
    lines = []
    for row in page.locator("table.standings tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        lines.append((int(cells[0]), int(cells[2]), int(cells[4]), int(cells[5])))
    return lines


def bracket_winner(page: Page, slot: str) -> str:
    match = page.locator(f"svg.bracket #match-{slot}")
    expect(match.locator("g.side.win")).to_have_count(1)
    return match.locator("g.side.win .name").text_content()


# Chapters the story goes through more than once ------------------------------------------------


def table_enters_rounds(table: Visitor, plan: Plan, rounds: list[int]) -> int:
    """Later rounds from the paper cards, entry A's card of each game; returns how many cards
    wait for verification."""
    table.follow(f"/t/{SLUG}/cards/table/paper/", text="Enter a paper card")
    owners = set()
    for number in rounds:
        for pairing, rows in plan.rows(number):
            enter_paper_card(
                table,
                stage_label=PRELIMINARY_LABEL,
                round_of_play=number,
                owner=pairing.a,
                opponent=pairing.b,
                rounds=rows,
            )
            owners.add(pairing.a)
    table.follow(f"/t/{SLUG}/cards/table/", text="Scoring table")
    return len(owners)


def preliminary_standings(org: Visitor, plan: Plan, stage: Stage, *, settled: bool) -> None:
    """The standings page: before the shoot-out the two on the cut share 8th place and a
    shoot-out is asked for; after it, everyone in the planned order."""
    org.go(f"/t/{SLUG}/")
    org.follow(f"/t/{SLUG}/manage/", text="Manage")
    category = stage.category
    org.follow(f"/t/{SLUG}/manage/categories/{category.pk}/", text=CATEGORY)
    org.follow(f"/t/{SLUG}/stages/{stage.pk}/standings/", text="standings")
    lines = standings_lines(org.page)
    bottom = {plan.withdrawn, plan.walkover_to}
    expected = plan.final_order()
    got = [line for line in lines if line[1] not in bottom]
    want = [(place, *line) for place, line in enumerate(expected, start=1)]
    winner, loser = plan.cut
    if not settled:
        # Level on points and 20s: they share the 8th place until the shoot-out.
        level = {(8, n, plan.points[n], plan.twenties[n]) for n in (winner, loser)}
        assert set(got[7:9]) == level, f"{org.path}: {got[7:9]} should share 8th place"
        got, want = got[:7] + got[9:], want[:7] + want[9:]
        notice = org.page.locator(".notice", has_text="Shoot-out required between")
        expect(notice).to_contain_text(BY_NUMBER[winner].full_name)
        expect(notice).to_contain_text(BY_NUMBER[loser].full_name)
    assert got == want, f"{org.path}: standings {got}, planned {want}"
    # The walkover is worth the stage's bye to the opponent (8 points, no 20s); the player
    # who left keeps the games they played (all lost 0-8).
    assert [line for line in lines if line[1] in bottom] == [
        (len(expected) + 1, plan.walkover_to, BYE_POINTS, 0),
        (len(expected) + 2, plan.withdrawn, 0, 0),
    ], lines
    org.shot("preliminary-standings" + ("" if settled else "-tied"))


def knockout_on_paper(table: Visitor, plan: Plan, matches: list[Match]) -> None:
    """The higher seed wins each match 6-2; the table types in entry A's paper card, then
    verifies: the verified results open the next matches of the bracket."""
    seeds = plan.seeds
    table.follow(f"/t/{SLUG}/cards/table/paper/", text="Enter a paper card")
    for match in matches:
        a, b = numbers(match)
        winner = min((a, b), key=seeds.index)
        enter_paper_card(
            table,
            stage_label=PLAYOFF_LABEL,
            round_of_play=match.round_of_play,
            owner=a,
            opponent=b,
            rounds=knockout_row(winner_side=winner == a),
        )
    table.follow(f"/t/{SLUG}/cards/table/", text="Scoring table")
    verify_waiting_cards(table, PLAYOFF_LABEL, expected=len(matches))
