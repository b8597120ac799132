"""The players and the results of the story, decided before play so that the test knows the
right standings without asking the app.

Every player has a fixed strength; the stronger player of a game wins it, by more the wider the
gap. Each player sinks the same number of 20s in every game (a different number for each
player), so the preliminary standings have no tie anywhere: no shoot-out interrupts the story,
and the expected order follows from points and 20s alone. Rounds are given as a scorecard row
gives them, from one side of the board: ``{"points": [own, other], "twenties": [own, other]}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring import engine

Rounds = list[dict[str, list[int]]]


@dataclass(frozen=True)
class Person:
    number: int
    first_name: str
    last_name: str
    club: str
    country: str = "Canada"

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def initials(self) -> str:
        return f"{self.first_name[0]}{self.last_name[0]}"


PLAYERS = [
    Person(101, "Anna", "Brubacher", "Tavistock"),
    Person(102, "Ben", "Schmidt", "Tavistock"),
    Person(103, "Carla", "Martin", "Kitchener"),
    Person(104, "Dan", "Okafor", "Kitchener"),
    Person(105, "Eli", "Bauman", "Elmira"),
    Person(106, "Fern", "Jantzi", "Elmira"),
    Person(107, "Gord", "Weber", "Listowel"),
    Person(108, "Hanna", "Roth", "Listowel"),
    Person(109, "Ira", "Kuepfer", "Milverton"),
    Person(110, "Jo", "Lichti", "Milverton"),
    Person(111, "Kees", "de Vries", "Rotterdam", "Netherlands"),
    Person(112, "Lena", "Fischer", "Hamburg", "Germany"),
    Person(113, "Mo", "Ahmed", "London", "United Kingdom"),
    Person(114, "Nora", "Gingerich", "Wellesley"),
    Person(115, "Owen", "Steckly", "Wellesley"),
    Person(116, "Pia", "Zehr", "New Hamburg"),
]
BY_NUMBER = {p.number: p for p in PLAYERS}

#: Best first. Not the order of the ID numbers, so the draw matters.
STRENGTH_ORDER = [107, 112, 103, 115, 101, 110, 105, 116, 102, 109, 113, 104, 111, 106, 114, 108]
RANK = {number: index for index, number in enumerate(STRENGTH_ORDER)}


def stronger(a: int, b: int) -> bool:
    return RANK[a] < RANK[b]


def twenties_plan(number: int) -> tuple[int, int]:
    """20s in round 1 and in each later round: ``first + 3 * later`` is 16 for the strongest,
    15 for the next ... 1 for the weakest, so every player's total is different."""
    total = 16 - RANK[number]
    later = min(4, total // 3)
    return total - 3 * later, later


def _rounds(own: int, other: int, points: Sequence[tuple[int, int]]) -> Rounds:
    first_own, later_own = twenties_plan(own)
    first_other, later_other = twenties_plan(other)
    rounds = []
    for index, (mine, theirs) in enumerate(points):
        twenties = [first_own, first_other] if index == 0 else [later_own, later_other]
        rounds.append({"points": [mine, theirs], "twenties": twenties})
    return rounds


def _flip(points: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(b, a) for a, b in points]


def preliminary_game(own: int, other: int) -> Rounds:
    """The row of ``own``'s card for the preliminary game against ``other``."""
    gap = abs(RANK[own] - RANK[other])
    if gap >= 6:
        winner = [(2, 0)] * 4
    elif gap >= 3:
        winner = [(2, 0), (2, 0), (1, 1), (2, 0)]
    else:
        winner = [(2, 0), (0, 2), (2, 0), (1, 1)]
    return _rounds(own, other, winner if stronger(own, other) else _flip(winner))


def playoff_winners(a: int, b: int) -> list[int]:
    """Who wins each game of a best-of-3 knockout match: the stronger player, who drops the
    second game to a close opponent (so one match goes the distance)."""
    best, other = (a, b) if stronger(a, b) else (b, a)
    if RANK[other] - RANK[best] <= 3:
        return [best, other, best]
    return [best, best]


def playoff_game(own: int, other: int, winner: int) -> Rounds:
    """The row of ``own``'s card for a knockout game that ``winner`` won 5-3."""
    won = [(2, 0), (2, 0), (0, 2), (1, 1)]
    return _rounds(own, other, won if winner == own else _flip(won))


def mirror(rounds: Rounds) -> Rounds:
    """The same rounds seen from the other side of the board."""
    return [{k: list(reversed(v)) for k, v in r.items()} for r in rounds]


def with_mistake(rounds: Rounds) -> Rounds:
    """The row as a tired player writes it: one 20 too many for themselves in round 3."""
    wrong = [dict(r) for r in rounds]
    own, other = wrong[2]["twenties"]
    wrong[2] = {**wrong[2], "twenties": [own + 1, other]}
    return wrong


@dataclass(frozen=True)
class Played:
    """A preliminary game as the test entered it, from ``a``'s side."""

    a: int
    b: int
    rounds: Rounds


def expected_standings(games: Iterable[Played]) -> list[engine.StandingRow]:
    """The preliminary standings by the scoring engine (WCC: points, then 20s, then a
    shoot-out), from what the test entered, by player ID."""
    return engine.compute_standings(
        [
            engine.Game(
                a=str(g.a),
                b=str(g.b),
                rounds=[engine.Round(points=r["points"], twenties=r["twenties"]) for r in g.rounds],
            )
            for g in games
        ],
        method="preliminary",
    ).rows


def totals_by_hand(games: Iterable[Played]) -> dict[int, tuple[int, int]]:
    """Points and 20s of each player, added up round by round."""
    totals: dict[int, tuple[int, int]] = {}
    for g in games:
        for side, number in enumerate((g.a, g.b)):
            points = sum(r["points"][side] for r in g.rounds)
            twenties = sum(r["twenties"][side] for r in g.rounds)
            before = totals.get(number, (0, 0))
            totals[number] = (before[0] + points, before[1] + twenties)
    return totals
