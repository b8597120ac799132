"""The Crokinole Reference layout of past results: one game a line, round by round.

Pure (no Django): the import page, the API, ``manage.py import_record`` and the export of an
event all read and write the layout here, so a file this app writes reads back the same.

The layout
----------
A CSV file (UTF-8, comma separated) whose first line names the columns, :data:`COLUMNS`:
``date, event, stage, pool, game, player_a, player_b, first_in_round_1, points_a, points_b,
twenties_a, twenties_b`` (in any order; other columns are ignored). A line of the WCC's 2009
final reads ``2009-06-06,WCC,Final G1,1v2,1,Nathan Walsh,Brian Cook,Nathan Walsh,`` then
``0 2 2 0 0,2 0 0 2 2,3 2 6 0 2,4 2 4 1 3``.

- ``date``: the day the game was played, ``YYYY-MM-DD``.
- ``event``, ``stage``, ``pool``: where it was played (the event is required; stage and pool may
  be empty).
- ``game``: the game's number there (a whole number from 1).
- ``player_a``, ``player_b``: each side, as ``First Last``. A name is split into first and last
  name at its **last space**: "Jon Conrad Hamm" is first name "Jon Conrad", last name "Hamm"
  (so a last name of two words, "Anna van Dyk", reads as first name "Anna van", last name
  "Dyk": the layout cannot tell them apart).
- **Doubles** (this app's convention; the published files are singles): a side is the two
  partners joined by ``" & "``, ``Anna Lee & Ben Roy``. Both sides of a line are then teams.
- ``first_in_round_1``: who shot first in round 1 (a name of either side, or a doubles side as
  written); may be empty when not known. The first shot alternates from round to round, so
  the side that shot first in every round follows from it.
- ``points_a``, ``points_b``, ``twenties_a``, ``twenties_b``: one whole number per round,
  separated by spaces, the four lists of equal length: the 2-1-0 points of each round and the
  20s each side made in it.

A line whose four round lists are all empty records no round at all (a forfeit, or a result
that was never typed in): it is skipped, and the preview says so with its line number. A game
may have any number of rounds from 1 (finals are often decided in three, tied games go to a
fifth): the rounds are checked one by one, not the game's length.

Each round is checked by the engine's own rules (:class:`~scoring.engine.rounds.Round` and
:func:`~scoring.engine.rounds.check_round`: points 2-0, 1-1, 0-2 or 0-0, 20s never negative
nor more than a side's discs, 8 in singles, 12 for a doubles team), so a past result passes the
same checks as a scorecard. Every problem is reported with its line number (the header is
line 1) and its column; a line that repeats an earlier line's game (same date, event, stage,
pool, game number and players) is reported too.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from tournaments.translation import _

from .errors import EngineInputError
from .rounds import DEFAULT_DISCS, Round, check_round

#: The columns, in the order of the layout.
COLUMNS = (
    "date",
    "event",
    "stage",
    "pool",
    "game",
    "player_a",
    "player_b",
    "first_in_round_1",
    "points_a",
    "points_b",
    "twenties_a",
    "twenties_b",
)
#: The four round lists, in the order a round is kept: ``[points_a, points_b, twenties_a,
#: twenties_b]``.
ROUND_COLUMNS = ("points_a", "points_b", "twenties_a", "twenties_b")
#: How two partners of a doubles side are written in one column.
PARTNERS = " & "
#: Discs per side in a round: 8 in singles; a doubles team shoots 6 each (WCC Tournament Scoring
#: Information), 12 in all.
DOUBLES_DISCS = 12
#: The record's limits on each text (``scoring.models.RecordedGame``,
#: ``tournaments.models.Person``).
MAX_LENGTHS = {"event": 200, "stage": 100, "pool": 40, "name": 100}
#: ``RecordedGame.number`` is a small positive whole number on every supported database.
MAX_GAME_NUMBER = 32767
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

Names = tuple[str, ...]
#: One round as the record keeps it: points A, points B, 20s A, 20s B.
Rounds = tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class ReferenceGame:
    """One game of the layout, read and checked.

    ``side_a``/``side_b`` hold one name (singles) or two (doubles), as written (spaces tidied);
    ``first`` is the side that shot first in round 1 (0 for A, 1 for B) or None when unknown;
    ``line`` is the line of the file it came from (0 for a game made here, to be written)."""

    played_on: date
    event: str
    stage: str
    pool: str
    number: int
    side_a: Names
    side_b: Names
    rounds: Rounds
    first: int | None = None
    line: int = 0

    @property
    def doubles(self) -> bool:
        return len(self.side_a) == 2

    @property
    def points(self) -> tuple[int, int]:
        return (sum(r[0] for r in self.rounds), sum(r[1] for r in self.rounds))

    @property
    def twenties(self) -> tuple[int, int]:
        return (sum(r[2] for r in self.rounds), sum(r[3] for r in self.rounds))

    def first_of_round(self, number: int) -> int | None:
        """The side that shot first in round ``number`` (from 1): round 1's, alternating."""
        if self.first is None:
            return None
        return (self.first + number - 1) % 2

    def identity(self) -> tuple[str, ...]:
        """What tells this game apart from every other: where and when, its number and its
        players (not its rounds, so a corrected result is still the same game)."""
        return (
            self.played_on.isoformat(),
            self.event,
            self.stage,
            self.pool,
            str(self.number),
            PARTNERS.join(self.side_a),
            PARTNERS.join(self.side_b),
        )

    def digest(self) -> str:
        """A fingerprint of :meth:`identity`: the same game in any file gives the same one."""
        joined = "\x1f".join(self.identity())
        return hashlib.sha256(joined.encode("utf-8")).hexdigest()[:40]


@dataclass(frozen=True)
class LineError:
    """A problem with one line: its number, the column at fault ("" for the whole line) and
    what is wrong, in words."""

    line: int
    column: str
    message: str

    def __str__(self) -> str:
        if self.column:
            return _("line %(line)s, %(column)s: %(message)s") % {
                "line": self.line,
                "column": self.column,
                "message": self.message,
            }
        return _("line %(line)s: %(message)s") % {"line": self.line, "message": self.message}


@dataclass
class ParsedFile:
    """Every game of a file that reads, every problem by line, and the lines skipped as
    recording no round."""

    games: list[ReferenceGame] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    skipped: list[LineError] = field(default_factory=list)
    lines: int = 0


class _LineProblem(Exception):
    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


def split_name(name: str) -> tuple[str, str]:
    """First and last name of ``First Last``, split at the last space ("Jon Conrad Hamm" is
    "Jon Conrad" and "Hamm")."""
    first, _space, last = " ".join(name.split()).rpartition(" ")
    return first, last


def join_name(first_name: str, last_name: str) -> str:
    """A person's name as the layout writes it."""
    return " ".join(f"{first_name} {last_name}".split())


def parse(text: str) -> ParsedFile:
    """Read a whole file of the layout (its text, a byte-order mark allowed)."""
    result = ParsedFile()
    text = text.removeprefix("\ufeff")
    rows = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(rows, None)
    except csv.Error as exc:
        result.errors.append(LineError(1, "", _("the file does not read as CSV: %s") % exc))
        return result
    if header is None or not any(cell.strip() for cell in header):
        result.errors.append(
            LineError(
                1, "", _("the file is empty; its first line is the header: %s") % ",".join(COLUMNS)
            )
        )
        return result
    names = [cell.strip().lower() for cell in header]
    missing = [column for column in COLUMNS if column not in names]
    if missing:
        result.errors.append(
            LineError(
                1,
                "",
                _(
                    "the header lacks the columns %(missing)s; a Crokinole Reference file "
                    "starts with: %(header)s"
                )
                % {"missing": ", ".join(missing), "header": ",".join(COLUMNS)},
            )
        )
        return result
    where = {column: names.index(column) for column in COLUMNS}
    seen: dict[tuple[str, ...], int] = {}
    number = 1
    try:
        for number, row in enumerate(rows, 2):
            result.lines = number - 1
            if not any(cell.strip() for cell in row):
                continue  # a blank line (a spreadsheet's last) says nothing
            if len(row) < len(names):
                result.errors.append(
                    LineError(
                        number,
                        "",
                        _("%(found)s values where the header has %(expected)s columns")
                        % {"found": len(row), "expected": len(names)},
                    )
                )
                continue
            values = {column: row[index] for column, index in where.items()}
            try:
                game = read_line(values, number)
            except _LineProblem as problem:
                result.errors.append(LineError(number, problem.column, problem.message))
                continue
            if game is None:
                result.skipped.append(
                    LineError(number, "", _("no round is recorded; the line is skipped"))
                )
                continue
            identity = game.identity()
            if identity in seen:
                result.errors.append(
                    LineError(
                        number,
                        "",
                        _(
                            "the same game as line %(earlier)s (same date, event, stage, pool, "
                            "game number and players)"
                        )
                        % {"earlier": seen[identity]},
                    )
                )
                continue
            seen[identity] = number
            result.games.append(game)
    except csv.Error as exc:
        result.errors.append(
            LineError(number + 1, "", _("the line does not read as CSV: %s") % exc)
        )
    return result


def read_line(values: dict[str, str], line: int = 0) -> ReferenceGame | None:
    """One line's values by column, checked; None for a line that records no round. Raises
    ``_LineProblem`` (the column and the words) at the first problem."""
    played_on = _date(values["date"])
    event = _text(values, "event", required=True)
    stage = _text(values, "stage")
    pool = _text(values, "pool")
    number = _game_number(values["game"])
    side_a = _side(values["player_a"], "player_a")
    side_b = _side(values["player_b"], "player_b")
    if len(side_a) != len(side_b):
        raise _LineProblem(
            "player_b",
            _(
                "one side is a doubles team (two names joined by “&”) and the other a single "
                "player; both sides of a game are alike"
            ),
        )
    shared = {n.casefold() for n in side_a} & {n.casefold() for n in side_b}
    if shared:
        raise _LineProblem(
            "player_b",
            _("%(name)s plays on both sides") % {"name": sorted(shared)[0]},
        )
    lists = {column: _numbers(values[column], column) for column in ROUND_COLUMNS}
    lengths = {len(numbers) for numbers in lists.values()}
    if lengths == {0}:
        return None
    if len(lengths) > 1:
        counts = ", ".join(f"{column} {len(lists[column])}" for column in ROUND_COLUMNS)
        rounds = len(lists["points_a"])
        raise _LineProblem(
            next(c for c in ROUND_COLUMNS if len(lists[c]) != rounds),
            _("the four round lists must give one number per round each, but they give %(counts)s")
            % {"counts": counts},
        )
    discs = DOUBLES_DISCS if len(side_a) == 2 else DEFAULT_DISCS
    sides = (PARTNERS.join(side_a), PARTNERS.join(side_b))
    rounds = tuple(
        check_line_round(
            number_,
            (lists["points_a"][i], lists["points_b"][i]),
            (lists["twenties_a"][i], lists["twenties_b"][i]),
            discs,
            sides,
        )
        for i, number_ in enumerate(range(1, len(lists["points_a"]) + 1))
    )
    first = _first(values["first_in_round_1"], side_a, side_b)
    return ReferenceGame(played_on, event, stage, pool, number, side_a, side_b, rounds, first, line)


def check_line_round(
    number: int,
    points: tuple[int, int],
    twenties: tuple[int, int],
    discs: int,
    sides: Sequence[str] = (),
) -> tuple[int, int, int, int]:
    """One round checked by the engine's rules; the problem names the round and its column
    (points first, then the 20s)."""
    try:
        Round(points=points, twenties=(0, 0))
    except EngineInputError as error:
        raise _LineProblem("points_a", _round_words(number, error, sides)) from None
    try:
        round_ = Round(points=points, twenties=twenties)
        check_round(round_, discs)
    except EngineInputError as error:
        raise _LineProblem("twenties_a", _round_words(number, error, sides)) from None
    return (points[0], points[1], twenties[0], twenties[1])


def _round_words(number: int, error: EngineInputError, sides: Sequence[str]) -> str:
    named = error.named(sides) if len(sides) == 2 else error
    return _("round %(number)s: %(error)s") % {"number": number, "error": named}


def _date(value: str) -> date:
    text = value.strip()
    if _DATE.fullmatch(text):
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
    raise _LineProblem("date", _("“%(value)s” is not a date written YYYY-MM-DD") % {"value": text})


def _text(values: dict[str, str], column: str, *, required: bool = False) -> str:
    text = " ".join(values[column].split())
    if required and not text:
        raise _LineProblem(column, _("it is empty; every game names its event"))
    limit = MAX_LENGTHS[column]
    if len(text) > limit:
        raise _LineProblem(
            column,
            _("%(length)s characters long; at most %(limit)s")
            % {"length": len(text), "limit": limit},
        )
    return text


def _game_number(value: str) -> int:
    text = value.strip()
    if not text.isdigit() or not 1 <= int(text) <= MAX_GAME_NUMBER:
        raise _LineProblem(
            "game",
            _("“%(value)s” is not a game number (a whole number from 1 to %(most)s)")
            % {"value": text, "most": MAX_GAME_NUMBER},
        )
    return int(text)


def _side(value: str, column: str) -> Names:
    text = " ".join(value.split())
    if not text:
        raise _LineProblem(column, _("no player is named"))
    names = tuple(" ".join(part.split()) for part in text.split("&"))
    if len(names) > 2:
        raise _LineProblem(
            column,
            _(
                "“%(value)s” names more than two players; a doubles side is “First Last & First "
                "Last”"
            )
            % {"value": text},
        )
    for name in names:
        first, last = split_name(name)
        if not first or not last:
            raise _LineProblem(
                column,
                _("“%(name)s” is not a first and a last name (write “First Last”)")
                % {"name": name},
            )
        if len(first) > MAX_LENGTHS["name"] or len(last) > MAX_LENGTHS["name"]:
            raise _LineProblem(
                column,
                _("“%(name)s” is too long; a first or last name has at most %(limit)s characters")
                % {"name": name[:40], "limit": MAX_LENGTHS["name"]},
            )
    if len(names) == 2 and names[0].casefold() == names[1].casefold():
        raise _LineProblem(column, _("%(name)s is named twice") % {"name": names[0]})
    return names


def _numbers(value: str, column: str) -> list[int]:
    numbers = []
    for position, token in enumerate(value.split(), 1):
        if not re.fullmatch(r"-?\d+", token):
            raise _LineProblem(
                column,
                _("round %(number)s: “%(value)s” is not a whole number")
                % {"number": position, "value": token},
            )
        numbers.append(int(token))
    return numbers


def _first(value: str, side_a: Names, side_b: Names) -> int | None:
    text = " ".join(value.split()).casefold()
    if not text:
        return None
    for side, names in enumerate((side_a, side_b)):
        written = {name.casefold() for name in names} | {PARTNERS.join(names).casefold()}
        if text in written:
            return side
    raise _LineProblem(
        "first_in_round_1",
        _("“%(value)s” is neither side's player (%(a)s, %(b)s)")
        % {"value": value.strip(), "a": PARTNERS.join(side_a), "b": PARTNERS.join(side_b)},
    )


# --- writing -------------------------------------------------------------------------------


def row_of(game: ReferenceGame) -> list[str]:
    """A game as the layout's values, in the order of :data:`COLUMNS`."""
    first = ""
    if game.first is not None:
        first = PARTNERS.join(game.side_a if game.first == 0 else game.side_b)
    return [
        game.played_on.isoformat(),
        game.event,
        game.stage,
        game.pool,
        str(game.number),
        PARTNERS.join(game.side_a),
        PARTNERS.join(game.side_b),
        first,
        *(" ".join(str(r[i]) for r in game.rounds) for i in range(4)),
    ]


def write(games: Iterable[ReferenceGame]) -> str:
    """A file of the layout holding ``games``, in the order given (the header first)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for game in games:
        writer.writerow(row_of(game))
    return out.getvalue()
