"""The one translation from stored rows to the engine's judge: the rules a game is played by.

Every caller that needs to know how many rounds a game may have, whether it is over, or who won
(scorecards, official results, brackets, pages, PDFs, the API, the simulation) builds its
:class:`~scoring.engine.GameRules` here from the category and the game, and asks the judge.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.engine import GameRules, Round, round_from_data
from tournaments.models import Category, Game
from tournaments.models import Round as RoundRow


def category_rules(category: Category, *, playoff: bool = False) -> GameRules:
    """The rules of a game of ``category``; ``playoff`` for a championship game.

    The family systems fix their own targets (100, 8); first-to-N takes the category's N.
    """
    system = category.scoring_system
    target = category.target_points if system == Category.ScoringSystem.FIRST_TO_N else None
    return GameRules(
        system=system,
        rounds=category.rounds_per_game,
        playoff=playoff,
        target=target,
        discs=category.discs_per_side,
    )


def game_rules(game: Game) -> GameRules:
    """The rules of one stored game (its match, stage and category loaded or fetched)."""
    return category_rules(game.match.stage.category, playoff=game.is_playoff)


def row_round(row: RoundRow) -> Round:
    """One stored official round as an engine round."""
    score = (row.score_a, row.score_b) if row.score_a is not None else None
    return Round(
        points=(row.points_a, row.points_b),
        twenties=(row.twenties_a, row.twenties_b),
        score=score,
        scoring=row.scoring,
    )


def values_round(values: Mapping[str, Any]) -> Round:
    """An engine round from ``Round.objects.values(...)`` holding :data:`ROUND_VALUES`."""
    score = (values["score_a"], values["score_b"]) if values["score_a"] is not None else None
    return Round(
        points=(values["points_a"], values["points_b"]),
        twenties=(values["twenties_a"], values["twenties_b"]),
        score=score,
        scoring=values["scoring"],
    )


#: The fields :func:`values_round` reads.
ROUND_VALUES = (
    "points_a",
    "points_b",
    "twenties_a",
    "twenties_b",
    "score_a",
    "score_b",
    "scoring",
)


def card_rounds(rounds: Iterable[Mapping[str, Any]], rules: GameRules) -> list[Round]:
    """A card row's rounds (already checked) as engine rounds under ``rules``."""
    return [round_from_data(data, rules.round_scoring) for data in rounds]
