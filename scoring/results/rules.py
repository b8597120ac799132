"""The one translation from stored rows to the engine's judge: the rules a game is played by.

Every caller that needs to know how many rounds a game may have, whether it is over, or who won
(scorecards, official results, brackets, pages, PDFs, the API, the simulation) builds its
:class:`~scoring.engine.GameRules` here from the category and the game, and asks the judge.
"""

from __future__ import annotations

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


def values_round(
    pa: int,
    pb: int,
    pc: int | None,
    ta: int,
    tb: int,
    tc: int | None,
    sa: int | None,
    sb: int | None,
    sc: int | None,
    scoring: str,
) -> AnyRound:
    """An engine round from a stored round's fields, in the order of :data:`ROUND_VALUES`
    (``Round.objects.values_list(*ROUND_VALUES)``): a :class:`RoundOfThree` when the third
    player's points are kept. Positional and flat because standings build thousands of them."""
    if pc is not None:
        return RoundOfThree((pa, pb, pc), (ta, tb, tc), None if sa is None else (sa, sb, sc))
    return Round((pa, pb), (ta, tb), None if sa is None else (sa, sb), scoring)


#: The fields :func:`values_round` reads, in its order.
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
