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


def records_of(game: Game, entries: Sequence[Entry]) -> list[Record]:
    """Each entry's 20s in the official results of its other games of the category so far
    (rounds time ran out on left out), in the order of ``entries``; one query."""
    ids = [entry.id for entry in entries]
    rounds = (
        OfficialRound.objects.filter(
            Q(game__match__entry_a__in=ids)
            | Q(game__match__entry_b__in=ids)
            | Q(game__match__entry_c__in=ids),
            game__match__stage__category_id=game.match.stage.category_id,
            time_expired=False,
        )
        .exclude(game=game)
        .values_list(
            "game_id",
            "game__match__entry_a_id",
            "game__match__entry_b_id",
            "game__match__entry_c_id",
            "twenties_a",
            "twenties_b",
            "twenties_c",
        )
    )
    twenties: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    games: dict[int, set[int]] = defaultdict(set)
    for game_id, a, b, c, ta, tb, tc in rounds:
        for entry_id, count in ((a, ta), (b, tb), (c, tc)):
            if entry_id in ids:
                twenties[entry_id] += count or 0
                played[entry_id] += 1
                games[entry_id].add(game_id)
    return [Record(twenties[i], played[i], len(games[i])) for i in ids]


def row_doubts(row: CardRow, opponents: Sequence[Entry]) -> list[Doubt]:
    """What looks wrong on ``row`` (its owner's figures first, then ``opponents`` in the
    match's order, as the row keeps them); [] for a row the engine cannot even read."""
    game = row.game
    entries = [row.card.entry, *opponents]
    rules = game_rules(game)
    try:
        scoring = rules.round_scoring
    except EngineInputError:
        return []
    return check_rounds(
        row.rounds,
        discs=rules.discs,
        scoring=scoring,
        names=[entry.name for entry in entries],
        records=records_of(game, entries),
    )
