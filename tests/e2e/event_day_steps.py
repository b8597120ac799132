"""The event-day story's people, its results decided before play, and the browser steps it
repeats (a paper card at the table, a row on a phone, the table's verification).

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

from playwright.sync_api import Page, expect

from tests.e2e.browsing import (
    Visitor,
    enter_round,
    fill_row,
    game_total,
    type_rounds,
    validate_row,
    winner_button,
)
from tests.e2e.story_results import Person

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


def phone_fill(phone: Visitor, game_id: int, rounds: Rounds) -> None:
    fill_row(phone.page, game_id, rounds)


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
