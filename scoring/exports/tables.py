"""The organizers' tables of one tournament: players, entries, results per game and per round,
and the standings of each stage, each a header and rows of plain values.

Organizers hand these to the federation, the club's results page or a spreadsheet of their own,
so the tables say what the event's own pages say, read from the same rows: the official rounds
(``tournaments.Round``, written once a scorecard row counts), each match judged by the one judge
(:func:`scoring.results.outcomes.outcome_of`, which also scores walkovers with the stage's bye
score), and the standings as the standings page computes them
(:func:`scoring.standings.selectors.stage_standings`). Nothing here writes, and nothing ranks or
scores on its own: a rule changed there shows here.

Each table runs a fixed number of queries whatever the number of players (the standings one per
stage), so a WCC-sized event downloads as fast as a club night. Entries are named by the ID
numbers printed on their scorecards (``Entry.number``: a team's is both partners' joined by a
slash), which are unique in a tournament where names need not be.

The column names are a data format, the same in every language: the standings tool reads the
rounds table back by them (``scoring.exports.standings_input``), and a federation's import or a
club's spreadsheet finds its columns whatever language the organizer's pages are in. The sheets'
titles and the words in the cells (a game's state, a bye, a walkover) are in the language of the
request, as on the pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.results.outcomes import GameRounds, GameScore, forfeit_words, outcome_of
from scoring.standings.selectors import stage_standings
from scoring.templatetags.scoring_labels import tiebreak_label
from tournaments.models import ENTRY_PEOPLE, Entry, Match, Player, Stage, Tournament

#: A cell: what a CSV cell or a spreadsheet cell holds without formatting.
Value = str | int | bool | None


@dataclass(frozen=True)
class Table:
    """One table: ``name`` is its file name (``players.csv``), ``title`` its sheet's name."""

    name: str
    title: str
    header: tuple[str, ...]
    rows: list[tuple[Value, ...]] = field(default_factory=list)

    def records(self) -> list[dict[str, Value]]:
        """The rows keyed by column, as a CSV reader gives them back."""
        return [dict(zip(self.header, row, strict=True)) for row in self.rows]


# --- players and entries ----------------------------------------------------------------------

PLAYER_COLUMNS = ("ID", "First name", "Last name", "Club", "Country")  # untranslated: columns


def players_table(tournament: Tournament) -> Table:
    """Every registered player, by ID number (one query)."""
    players = Player.objects.filter(tournament=tournament).order_by("number")
    rows = [
        (p.number, p.first_name, p.last_name, p.club, p.country)
        for p in players.only("number", "first_name", "last_name", "club", "country")
    ]
    return Table("players", _("Players"), PLAYER_COLUMNS, rows)


ENTRY_COLUMNS = (
    "Category",
    "Entry",
    "ID numbers",  # untranslated: a column name
    "Seed",
    "Checked in",  # untranslated: a column name
    "Withdrawn",
)


def _entries(tournament: Tournament):
    return Entry.objects.filter(category__tournament=tournament).select_related(
        "category", *ENTRY_PEOPLE
    )


def entries_table(tournament: Tournament) -> Table:
    """Every entry of every category, by category, then seed (unseeded last), then name (one
    query). Withdrawn entries stay: who withdrew is part of the event's record."""
    entries = sorted(
        _entries(tournament),
        key=lambda e: (e.category.name, e.seed is None, e.seed or 0, e.name, e.id),
    )
    rows = [(e.category.name, e.name, e.number, e.seed, e.checked_in, e.withdrawn) for e in entries]
    return Table("entries", _("Entries"), ENTRY_COLUMNS, rows)


# --- results: one read of every match, game and official round -------------------------------


class _Round(NamedTuple):
    number: int
    points: tuple[int, ...]
    twenties: tuple[int, ...]
    score: tuple[int, ...] | None


@dataclass
class _Game:
    number: int
    playoff: bool
    forfeited_by: str
    forfeit_kind: str
    forfeit_reason: str
    rounds: list[_Round] = field(default_factory=list)

    def as_judged(self) -> GameRounds:
        """The game as :func:`outcome_of` reads it."""
        return GameRounds(
            self.number,
            self.playoff,
            [r.points for r in self.rounds],
            [r.twenties for r in self.rounds],
            self.forfeited_by,
            self.forfeit_kind,
            forfeit_words(self.forfeit_kind, self.forfeit_reason),
        )


@dataclass
class _Match:
    """A match as :func:`outcome_of` reads it (``entry_b_id``, ``entry_c_id``, ``best_of``,
    ``stage``), with its board and games."""

    id: int
    stage: Stage
    round_of_play: int
    best_of: int
    board: int | None
    entry_a_id: int
    entry_b_id: int | None
    entry_c_id: int | None
    games: list[_Game] = field(default_factory=list)


_MATCH_FIELDS = (
    "id",
    "stage_id",
    "round_of_play",
    "best_of",
    "board__number",
    "entry_a_id",
    "entry_b_id",
    "entry_c_id",
)
_GAME_FIELDS = (
    "games__number",
    "games__is_playoff",
    "games__forfeited_by",
    "games__forfeit_kind",
    "games__forfeit_reason",
)
_ROUND_FIELDS = tuple(
    f"games__rounds__{name}"
    for name in (
        "number",
        "points_a",
        "points_b",
        "points_c",
        "twenties_a",
        "twenties_b",
        "twenties_c",
        "score_a",
        "score_b",
        "score_c",
    )
)


def _sides(values: tuple, three: bool) -> tuple:
    return values if three else values[:2]


def _read_matches(tournament: Tournament) -> tuple[list[_Match], dict[int, Entry]]:
    """Every match of the tournament with its games and official rounds, in the order of the
    event (category, stage, round of play, board), and the entries they name (three queries:
    stages, entries, and matches joined with games and rounds)."""
    stages = {
        s.id: s
        for s in Stage.objects.filter(category__tournament=tournament).select_related("category")
    }
    entries = {e.id: e for e in _entries(tournament)}
    rows = (
        Match.objects.filter(stage__category__tournament=tournament)
        .order_by(
            "stage__category__name",
            "stage__order",
            "round_of_play",
            F("board__number").asc(nulls_last=True),
            "id",
            "games__number",
            "games__rounds__number",
        )
        .values_list(*_MATCH_FIELDS, *_GAME_FIELDS, *_ROUND_FIELDS)
    )
    matches: list[_Match] = []
    for row in rows:
        if not matches or matches[-1].id != row[0]:
            match_id, stage_id, round_of_play, best_of, board, a, b, c = row[:8]
            matches.append(
                _Match(match_id, stages[stage_id], round_of_play, best_of, board, a, b, c)
            )
        match = matches[-1]
        number, playoff, forfeited_by, kind, reason = row[8:13]
        if number is None:  # a match without games: a bye
            continue
        if not match.games or match.games[-1].number != number:
            match.games.append(_Game(number, playoff, forfeited_by, kind, reason))
        round_number, pa, pb, pc, ta, tb, tc, sa, sb, sc = row[13:]
        if round_number is None:  # a game without official rounds yet
            continue
        three = pc is not None
        score = None if sa is None else _sides((sa, sb, sc), three)
        match.games[-1].rounds.append(
            _Round(round_number, _sides((pa, pb, pc), three), _sides((ta, tb, tc), three), score)
        )
    return matches, entries


def _game_status(score: GameScore) -> str:
    """A game's state in the words the lists use."""
    if score.forfeited_by:
        return score.label if score.walkover else _("Not needed (forfeited after the match)")
    if score.finished:
        return _("Finished")
    return _("In progress") if score.rounds else _("Not started")


#: What a bye's missing opponent and its state say (translated where a table is built).
BYE = gettext_noop("Bye")

#: The columns both results tables start with: where and between whom a game was played.
GAME_KEYS = (
    "Category",
    "Stage",
    "Round of play",  # untranslated: a column name, read back by the standings tool
    "Board",
    "Game",
    "Side A ID",  # untranslated: a column name, read back by the standings tool
    "Side A",
    "Side B ID",  # untranslated: a column name, read back by the standings tool
    "Side B",
)
#: Added to the results tables when a three-player game was drawn (family rulebook, Option Two).
THIRD_SIDE_KEYS = ("Side C ID", "Side C")  # untranslated: column names


def _game_keys(
    match: _Match, game: int | None, entries: dict[int, Entry], three: bool
) -> tuple[Value, ...]:
    def side(entry_id: int | None) -> tuple[Value, Value]:
        if entry_id is None:
            return None, None
        entry = entries[entry_id]
        return entry.number, entry.name

    b_number, b_name = side(match.entry_b_id) if match.entry_b_id else (None, _(BYE))
    keys: tuple[Value, ...] = (
        match.stage.category.name,
        match.stage.name,
        match.round_of_play,
        match.board,
        game,
        *side(match.entry_a_id),
        b_number,
        b_name,
    )
    return (*keys, *side(match.entry_c_id)) if three else keys


def _per_side(name: str, three: bool) -> tuple[str, ...]:
    return tuple(f"{name} {side}" for side in ("A", "B", "C")[: 3 if three else 2])


def games_table(tournament: Tournament) -> Table:
    """One row per game (and one per bye): who played where, each side's points and 20s as the
    judge scores the game (a walkover at what a bye is worth), and its state (three
    queries)."""
    matches, entries = _read_matches(tournament)
    three = any(m.entry_c_id is not None for m in matches)
    header = (
        *GAME_KEYS,
        *(THIRD_SIDE_KEYS if three else ()),
        *_per_side("Points", three),
        *_per_side("20s", three),
        "Status",
    )
    blanks = (None,) * (6 if three else 4)
    rows: list[tuple[Value, ...]] = []
    for match in matches:
        if match.entry_b_id is None:
            rows.append((*_game_keys(match, None, entries, three), *blanks, _(BYE)))
            continue
        outcome = outcome_of(match, [g.as_judged() for g in match.games])
        scores = {score.number: score for score in outcome.games}
        for game in match.games:
            score = scores[game.number]
            rows.append(
                (
                    *_game_keys(match, game.number, entries, three),
                    *_padded(score.points, three),
                    *_padded(score.twenties, three),
                    _game_status(score),
                )
            )
    return Table("games", _("Results per game"), header, rows)


def _padded(values: tuple[int, ...] | None, three: bool) -> tuple[Value, ...]:
    """One value per side of the table: a two-sided game leaves side C empty."""
    width = 3 if three else 2
    if values is None:
        return (None,) * width
    return (*values, *(None,) * (width - len(values)))


def rounds_table(tournament: Tournament) -> Table:
    """One row per official round: the game's keys, the round's number, each side's points, 20s
    and board score when the card kept it (three queries). A game without rounds (not started, or
    won by walkover) has no row here; the games table has it."""
    matches, entries = _read_matches(tournament)
    three = any(m.entry_c_id is not None for m in matches)
    header = (
        *GAME_KEYS,
        *(THIRD_SIDE_KEYS if three else ()),
        "Round",
        *_per_side("Points", three),
        *_per_side("20s", three),
        *_per_side("Score", three),
    )
    rows: list[tuple[Value, ...]] = []
    for match in matches:
        for game in match.games:
            keys = _game_keys(match, game.number, entries, three)
            rows.extend(
                (
                    *keys,
                    r.number,
                    *_padded(r.points, three),
                    *_padded(r.twenties, three),
                    *_padded(r.score, three),
                )
                for r in game.rounds
            )
    return Table("rounds", _("Results per round"), header, rows)


# --- standings --------------------------------------------------------------------------------

STANDING_COLUMNS = (
    "Category",
    "Stage",
    "Rank",
    "ID",
    "Entry",
    "Games",
    "Points",
    "20s",
    "Tiebreak",
)


def standings_table(tournament: Tournament) -> Table:
    """Each stage's standings as its standings page shows them (``stage_standings``: points,
    the stage's tiebreak chain, byes and walkovers credited, a knockout by bracket place), in
    the order of the event. A shoot-out stage has none: its result shows in the stage it
    settles, as on the tournament's pages. A fixed number of queries per stage."""
    stages = (
        Stage.objects.filter(category__tournament=tournament)
        .exclude(kind=Stage.Kind.SHOOTOUT)
        .select_related("category")
        .order_by("category__name", "order")
    )
    rows: list[tuple[Value, ...]] = []
    for stage in stages:
        rows.extend(
            (
                stage.category.name,
                stage.name,
                line.rank,
                line.entry.number,
                line.entry.name,
                line.games,
                line.points,
                line.twenties,
                tiebreak_label(line.tiebreak),
            )
            for line in stage_standings(stage).lines
        )
    return Table("standings", _("Standings"), STANDING_COLUMNS, rows)


#: Every table by its name in the URL and the file name, in the workbook's order of sheets.
TABLES: dict[str, Callable[[Tournament], Table]] = {
    "players": players_table,
    "entries": entries_table,
    "games": games_table,
    "rounds": rounds_table,
    "standings": standings_table,
}


def tournament_tables(tournament: Tournament) -> list[Table]:
    """Every table, in :data:`TABLES` order (the workbook's sheets)."""
    return [build(tournament) for build in TABLES.values()]
