"""The plausibility check of a card row, from the database's side: the row's rounds, its
category's discs and scoring, and each side's record in the event so far, handed to the pure
check (``scoring.engine.plausibility``). What it returns is shown to the validator beside the
row; it never refuses anything."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db.models import Q

from scoring.engine import EngineInputError
from scoring.engine.plausibility import Doubt, Record, check_rounds
from scoring.models import CardRow
from scoring.results.rules import game_rules
from tournaments.models import Entry, Game
from tournaments.models import Round as OfficialRound

#: Per entry, per game of its official results: the entry's 20s and the rounds played.
Played = dict[int, dict[int, tuple[int, int]]]


def records_of(game: Game, entries: Sequence[Entry]) -> list[Record]:
    """Each entry's 20s in the official results of its other games of the category so far
    (rounds time ran out on left out), in the order of ``entries``; one query."""
    played = played_by([entry.id for entry in entries], [game.match.stage.category_id])
    return [record_without(played, entry.id, game.id) for entry in entries]


def record_without(played: Played, entry_id: int, game_id: int) -> Record:
    """The entry's record from ``played``, leaving out the game being checked."""
    games = {g: figures for g, figures in played.get(entry_id, {}).items() if g != game_id}
    return Record(
        twenties=sum(t for t, _ in games.values()),
        rounds=sum(r for _, r in games.values()),
        games=len(games),
    )


def played_by(entry_ids: Sequence[int], category_ids: Sequence[int]) -> Played:
    """The official rounds of the entries' games in these categories, added up per entry and
    game (rounds time ran out on left out); one query."""
    ids = list(entry_ids)
    rounds = OfficialRound.objects.filter(
        Q(game__match__entry_a__in=ids)
        | Q(game__match__entry_b__in=ids)
        | Q(game__match__entry_c__in=ids),
        game__match__stage__category_id__in=list(category_ids),
        time_expired=False,
    ).values_list(
        "game_id",
        "game__match__entry_a_id",
        "game__match__entry_b_id",
        "game__match__entry_c_id",
        "twenties_a",
        "twenties_b",
        "twenties_c",
    )
    wanted = set(ids)
    played: Played = defaultdict(dict)
    for game_id, a, b, c, ta, tb, tc in rounds:
        for entry_id, count in ((a, ta), (b, tb), (c, tc)):
            if entry_id in wanted:
                twenties, number = played[entry_id].get(game_id, (0, 0))
                played[entry_id][game_id] = (twenties + (count or 0), number + 1)
    return played


def row_doubts(
    row: CardRow, opponents: Sequence[Entry], played: Played | None = None
) -> list[Doubt]:
    """What looks wrong on ``row`` (its owner's figures first, then ``opponents`` in the
    match's order, as the row keeps them); [] for a row the engine cannot even read.
    ``played``: the entries' official rounds already read (:func:`played_by`), else read."""
    game = row.game
    entries = [row.card.entry, *opponents]
    rules = game_rules(game)
    try:
        scoring = rules.round_scoring
    except EngineInputError:
        return []
    if played is None:
        records = records_of(game, entries)
    else:
        records = [record_without(played, entry.id, game.id) for entry in entries]
    return check_rounds(
        row.rounds,
        discs=rules.discs,
        scoring=scoring,
        names=[entry.name for entry in entries],
        records=records,
    )


def with_doubts(rows: Sequence[CardRow]) -> Sequence[CardRow]:
    """Each row with ``doubts``, what looks wrong on it (the scoring table's queue, before it
    verifies): the records of every entry at their boards read in one query. Each row needs
    ``opponents`` (``selectors._with_opponents``) and its game's match, stage and category."""
    entries = {row.card.entry_id for row in rows} | {
        entry.id for row in rows for entry in row.opponents
    }
    categories = {row.game.match.stage.category_id for row in rows}
    played = played_by(sorted(entries), sorted(categories)) if rows else {}
    for row in rows:
        row.doubts = row_doubts(row, row.opponents, played)
    return rows
