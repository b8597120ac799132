"""Does a row look right? The doubts a validator should look at before signing.

A row the engine accepts may still be wrong: the winner tapped on the wrong side, a 20 counted
for the other player, a board score misheard. Before the opponent signs, this module points at
the rounds that look wrong, in words that name the round and what looks wrong in it. It never
refuses anything: a doubt is a reason to read the round again, not a rule of the game (the
engine's checks, :func:`scoring.engine.check_round`, are the rules).

Two kinds of doubt:

- ``impossible``: figures the discs cannot make, derived from the rules alone (NCA 6a: a disc
  counts 20, 15, 10, 5 or nothing; a round gives 2 points to the higher board score, 1 each for
  a tie). A side with ``t`` 20s of ``d`` discs scores between ``20 t`` (its 20s, the rest off the
  board) and ``20 t + 15 (d - t)`` (every other disc in the 15), in steps of 5, and every value
  in between can be made. So a board score outside that range or off the steps is impossible,
  and so is a round won by a side whose best possible score does not beat what the loser's 20s
  alone are worth (8 discs: no 20s make at most 120, which six 20s already reach), or a tie
  between two sides whose ranges do not meet.
- ``unlikely``: legal, but rare enough in real play to check again.

  * A round won by a side with :data:`FEWER_TWENTIES_WON` or more 20s fewer than a side it
    beat. In competitive singles 2009-2017 (3,610 rounds of 836 games), a side with 2 or more
    20s fewer won 5 of 698 such rounds (0.72 %), with 3 or more 1 of 228 (0.44 %): both under
    1 %, so the check starts at 2, where the data already says "under 1 %"
    (``tests/scoring/engine/test_plausibility.py`` computes these from the data).
  * A side's 20s in the game far beyond its record in the event so far (:class:`Record`, at
    least :data:`RECORD_GAMES` games): more than ``e + 3 sqrt(e) + 3``, where ``e`` is the
    side's 20s per round so far times the rounds played in this game. In the same data, with
    each player's record from their earlier games of the same event, that flags 2 of 1,094
    player-games (0.18 %).

Pure: plain data in (a row's rounds as ``scoring.engine.RoundData``, own side first), plain data
out. Rounds that do not even read (a missing figure) are left to the engine's checks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.translation import _, pgettext

from .rounds import DIFFERENCE, DISC_VALUE_STEP, FIFTEEN, TWENTY, TWO_ONE_ZERO

IMPOSSIBLE = "impossible"
UNLIKELY = "unlikely"

#: A round won by a side with this many 20s fewer than a side it beat, or more, is unlikely:
#: under 1 % of such rounds in competitive singles 2009-2017 (see the module's docstring).
FEWER_TWENTIES_WON = 2
#: The games a side's record needs before its game total is compared with it.
RECORD_GAMES = 2
#: How far beyond a side's expected 20s a game total is "far": ``e + SPREAD sqrt(e) + SLACK``.
SPREAD = 3.0
SLACK = 3.0


@dataclass(frozen=True, slots=True)
class Record:
    """What a side has made so far in the event: its 20s over the rounds and games it played
    (rounds that time ran out on not counted)."""

    twenties: int
    rounds: int
    games: int

    @property
    def per_round(self) -> float:
        return self.twenties / self.rounds if self.rounds else 0.0

    @property
    def per_game(self) -> float:
        return self.twenties / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Doubt:
    """One thing that looks wrong on a row: the round it is in (1-based; None for the game as
    a whole), whether the discs cannot make it or it is only rare, and what it is, in words."""

    round: int | None
    kind: str
    code: str
    text: str

    @property
    def impossible(self) -> bool:
        return self.kind == IMPOSSIBLE


def least(twenties: int) -> int:
    """The least board score of a side with ``twenties`` 20s: the 20s alone."""
    return TWENTY * twenties


def most(twenties: int, discs: int) -> int:
    """The most a side with ``twenties`` 20s of ``discs`` discs can score: every other disc in
    the 15."""
    return TWENTY * twenties + FIFTEEN * max(discs - twenties, 0)


def _ints(value: Any) -> tuple[int, ...] | None:
    if not isinstance(value, list | tuple):
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return None
    return tuple(value)


def _winner(points: tuple[int, ...], score: tuple[int, ...] | None) -> int | None:
    """The side that won the round: the highest board score if known, else the most points;
    None for a tie for first."""
    figures = score if score is not None else points
    best = max(figures)
    top = [i for i, value in enumerate(figures) if value == best]
    return top[0] if len(top) == 1 else None


def check_rounds(
    rounds: Sequence[Mapping[str, Any]],
    *,
    discs: int,
    scoring: str = TWO_ONE_ZERO,
    names: Sequence[str] = (),
    records: Sequence[Record | None] = (),
) -> list[Doubt]:
    """The doubts about a row's rounds, round by round, then about the game as a whole.

    ``rounds``: the row's rounds (``RoundData``: points, twenties, score or None, time_expired),
    each side's figures in the same order as ``names``; ``discs``: the discs one side shoots in
    a round (the category's discs per player times the players per side); ``scoring``: how the
    round's points follow from the board ("2-1-0", "difference", "three"); ``records``: each
    side's record in the event so far, where known."""
    doubts: list[Doubt] = []
    played_rounds = 0
    totals: list[int] = []
    for number, data in enumerate(rounds, start=1):
        twenties = _ints(data.get("twenties"))
        points = _ints(data.get("points"))
        if twenties is None or points is None or len(twenties) != len(points):
            continue
        score = _ints(data.get("score")) if data.get("score") is not None else None
        if score is not None and len(score) != len(twenties):
            score = None
        if not totals:
            totals = [0] * len(twenties)
        totals = [t + n for t, n in zip(totals, twenties, strict=False)]
        side = _namer(names)
        if data.get("time_expired"):
            if any(twenties):
                doubts.append(_time_expired_twenties(number, twenties, side))
            continue
        played_rounds += 1
        impossible = _impossible(number, points, twenties, score, discs, scoring, side)
        # A round the discs cannot make says so alone: its rarity would only repeat it.
        doubts.extend(impossible or _fewer_twenties_won(number, points, twenties, score, side))
    doubts.extend(_beyond_records(totals, played_rounds, records, _namer(names)))
    return doubts


def _namer(names: Sequence[str]):
    def side(index: int) -> str:
        if index < len(names) and names[index]:
            return str(names[index])
        return _("side %(letter)s") % {"letter": "abc"[index] if index < 3 else index + 1}

    return side


def _round_words(number: int) -> str:
    return pgettext("round of a game", "Round %(number)s") % {"number": number}


def _time_expired_twenties(number: int, twenties: tuple[int, ...], side) -> Doubt:
    return Doubt(
        number,
        IMPOSSIBLE,
        "twenties-without-play",
        _("%(round)s: time expired before a disc was shot, yet it has 20s (%(twenties)s).")
        % {"round": _round_words(number), "twenties": _figures(twenties, side)},
    )


def _figures(values: tuple[int, ...], side) -> str:
    return ", ".join(
        _("%(figure)s for %(side)s") % {"figure": v, "side": side(i)} for i, v in enumerate(values)
    )


def _impossible(
    number: int,
    points: tuple[int, ...],
    twenties: tuple[int, ...],
    score: tuple[int, ...] | None,
    discs: int,
    scoring: str,
    side,
) -> list[Doubt]:
    """What the discs cannot make in one round (see the module's docstring)."""
    found: list[Doubt] = []
    where = _round_words(number)
    for i, count in enumerate(twenties):
        if count > discs:
            found.append(
                Doubt(
                    number,
                    IMPOSSIBLE,
                    "twenties-beyond-discs",
                    _(
                        "%(round)s: %(side)s has %(count)s 20s, but a side shoots only "
                        "%(discs)s discs."
                    )
                    % {"round": where, "side": side(i), "count": count, "discs": discs},
                )
            )
    if found:
        return found
    if score is not None:
        for i, (value, count) in enumerate(zip(score, twenties, strict=True)):
            if value < 0 or value % DISC_VALUE_STEP:
                text = _(
                    "%(round)s: %(side)s's board score %(score)s is not a multiple of 5; every "
                    "disc counts 5, 10, 15 or 20."
                )
            elif value < least(count):
                text = _(
                    "%(round)s: %(side)s's board score %(score)s is less than their %(count)s "
                    "20s alone make (%(least)s)."
                )
            elif value > most(count, discs):
                text = _(
                    "%(round)s: %(side)s's board score %(score)s is more than %(discs)s discs "
                    "with %(count)s 20s can make (at most %(most)s, every other disc in the 15)."
                )
            else:
                continue
            found.append(
                Doubt(
                    number,
                    IMPOSSIBLE,
                    "board-score",
                    text
                    % {
                        "round": where,
                        "side": side(i),
                        "score": value,
                        "count": count,
                        "least": least(count),
                        "most": most(count, discs),
                        "discs": discs,
                    },
                )
            )
        if not found and len(score) == 2 and scoring in (TWO_ONE_ZERO, DIFFERENCE):
            a, b = score
            if scoring == TWO_ONE_ZERO:
                expected = (2, 0) if a > b else (0, 2) if a < b else (1, 1)
            else:
                expected = (a - b, 0) if a >= b else (0, b - a)
            if points != expected:
                found.append(
                    Doubt(
                        number,
                        IMPOSSIBLE,
                        "points-against-board",
                        _(
                            "%(round)s: the points (%(points)s) do not follow from the board "
                            "scores (%(score)s)."
                        )
                        % {
                            "round": where,
                            "points": _figures(points, side),
                            "score": _figures(score, side),
                        },
                    )
                )
        return found
    # Points (or who won) without board scores: can the winner have outscored the others?
    winner = _winner(points, None)
    if winner is not None:
        best = most(twenties[winner], discs)
        for j, count in enumerate(twenties):
            if j != winner and points[j] < points[winner] and best <= least(count):
                found.append(
                    Doubt(
                        number,
                        IMPOSSIBLE,
                        "win-beyond-discs",
                        _(
                            "%(round)s: %(winner)s won it, but with %(own)s 20s their %(discs)s "
                            "discs make at most %(best)s, and %(loser)s's %(count)s 20s alone "
                            "make %(least)s."
                        )
                        % {
                            "round": where,
                            "winner": side(winner),
                            "own": twenties[winner],
                            "discs": discs,
                            "best": best,
                            "loser": side(j),
                            "count": count,
                            "least": least(count),
                        },
                    )
                )
    elif len(points) == 2 and points[0] == points[1] and points != (0, 0):
        low = max(least(t) for t in twenties)
        high = min(most(t, discs) for t in twenties)
        if low > high:
            found.append(
                Doubt(
                    number,
                    IMPOSSIBLE,
                    "tie-beyond-discs",
                    _(
                        "%(round)s: a tie, but the 20s (%(twenties)s) cannot give equal board "
                        "scores with %(discs)s discs a side."
                    )
                    % {"round": where, "twenties": _figures(twenties, side), "discs": discs},
                )
            )
    return found


def _fewer_twenties_won(
    number: int,
    points: tuple[int, ...],
    twenties: tuple[int, ...],
    score: tuple[int, ...] | None,
    side,
) -> list[Doubt]:
    """A round won by a side with many 20s fewer than a side it beat (see the module)."""
    winner = _winner(points, score)
    if winner is None:
        return []
    found = []
    for j, count in enumerate(twenties):
        fewer = count - twenties[winner]
        if j == winner or fewer < FEWER_TWENTIES_WON:
            continue
        found.append(
            Doubt(
                number,
                UNLIKELY,
                "won-with-fewer-twenties",
                _(
                    "%(round)s: %(winner)s won it with %(fewer)s 20s fewer than %(loser)s "
                    "(%(own)s against %(count)s); in competitive play a side %(least)s or more "
                    "20s down wins under 1 %% of rounds. Check who won and whose 20s they are."
                )
                % {
                    "round": _round_words(number),
                    "winner": side(winner),
                    "fewer": fewer,
                    "loser": side(j),
                    "own": twenties[winner],
                    "count": count,
                    "least": FEWER_TWENTIES_WON,
                },
            )
        )
    return found


def expected_twenties(record: Record, rounds: int) -> float:
    """The 20s a side with ``record`` makes in ``rounds`` rounds, on average."""
    return record.per_round * rounds


def twenties_limit(record: Record, rounds: int) -> float:
    """Beyond this many 20s in ``rounds`` rounds, a game total is far beyond the record."""
    expected = expected_twenties(record, rounds)
    return expected + SPREAD * math.sqrt(expected) + SLACK


def _beyond_records(
    totals: Sequence[int], rounds: int, records: Sequence[Record | None], side
) -> list[Doubt]:
    found = []
    for i, (total, record) in enumerate(zip(totals, records, strict=False)):
        if record is None or record.games < RECORD_GAMES or not record.rounds or not rounds:
            continue
        if total <= twenties_limit(record, rounds):
            continue
        found.append(
            Doubt(
                None,
                UNLIKELY,
                "twenties-beyond-record",
                _(
                    "The game: %(side)s has %(total)s 20s, far beyond their record in this event "
                    "(%(per_game).1f a game over %(games)s games, about %(expected).0f expected "
                    "in %(rounds)s rounds). Check the 20s round by round."
                )
                % {
                    "side": side(i),
                    "total": total,
                    "per_game": record.per_game,
                    "games": record.games,
                    "expected": expected_twenties(record, rounds),
                    "rounds": rounds,
                },
            )
        )
    return found
