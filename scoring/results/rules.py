"""The one translation from stored rows to the engine's judge: the rules a game is played by.

Every caller that needs to know how many rounds a game may have, whether it is over, or who won
(scorecards, official results, brackets, pages, PDFs, the API, the simulation) builds its
:class:`~scoring.engine.GameRules` here from the category and the game, and asks the judge.
Likewise every caller that needs what a bye or a walkover is worth (the results, the standings,
the cards, the schedule, the organizer's stage form) asks :func:`unplayed_game` or
:func:`unplayed_rule`, which ask the category's scoring system.
"""

from __future__ import annotations

from scoring.engine import GameRules, Round, RoundOfThree, UnplayedGame, UnplayedRule
from scoring.engine.judge import AnyRound
from tournaments.models import Category, Game, Stage


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


def unplayed_game(stage: Stage) -> UnplayedGame:
    """What a bye, a walkover or a forfeited game of ``stage`` credits (its category loaded or
    fetched): the scoring system's value of a win, the stage's bye points in its place only
    where the system lets an event choose them (NCA 2-1-0: 8-0 by default), and the stage's
    bye 20s (see :meth:`scoring.engine.ScoringSystem.unplayed_game`)."""
    system = category_rules(stage.category).scoring_system()
    return system.unplayed_game(points=stage.bye_points, twenties=stage.bye_twenties)


def unplayed_rule(category: Category) -> UnplayedRule:
    """What a bye or a walkover is worth in ``category``, for the organizer's stage form: the
    system's value, whether a stage may set its own, and the rule in words."""
    return category_rules(category).scoring_system().unplayed_rule()


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
