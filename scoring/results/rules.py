"""The one translation from stored rows to the engine's judge: the rules a game is played by.

Every caller that needs to know how many rounds a game may have, whether it is over, or who won
(scorecards, official results, brackets, pages, PDFs, the API, the simulation) builds its
:class:`~scoring.engine.GameRules` here from the category and the game, and asks the judge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.engine import GameRules, Round, RoundOfThree
from scoring.engine.judge import AnyRound
from tournaments.models import Category, Game


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


def values_round(values: Mapping[str, Any]) -> AnyRound:
    """An engine round from a stored round's fields (``Round.objects.values(*ROUND_VALUES)``,
    or a row's ``__dict__``): a :class:`RoundOfThree` when the third player's points are kept."""
    if values["points_c"] is not None:
        has_score = values["score_a"] is not None
        return RoundOfThree(
            points=(values["points_a"], values["points_b"], values["points_c"]),
            twenties=(values["twenties_a"], values["twenties_b"], values["twenties_c"]),
            score=(values["score_a"], values["score_b"], values["score_c"]) if has_score else None,
        )
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
    "points_c",
    "twenties_a",
    "twenties_b",
    "twenties_c",
    "score_a",
    "score_b",
    "score_c",
    "scoring",
)
