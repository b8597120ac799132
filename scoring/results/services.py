"""Recording official game results.

Results arrive from scorecards, from referees and from simulated games; they all pass through
``record_game`` so that the same checks apply (the judge of :mod:`scoring.engine.judge`) and a bad
round is reported with its game and round number, without losing anything already saved.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from scoring.engine import EngineInputError, judge_game, read_rounds
from scoring.engine.judge import AnyRound
from scoring.results.rules import game_rules
from tournaments.models import Game, Round


class ResultError(ValidationError):
    """A refused result, naming the game and, as data, the round at fault."""

    def __init__(self, message: str, *, round: int | None = None) -> None:
        super().__init__(message)
        self.round = round


def record_game(game: Game, rounds: Sequence[Mapping[str, Any]]) -> list[Round]:
    """Replace the game's rounds with ``rounds`` (card data, side ``a`` first, then ``b`` and, in
    a three-player game, ``c``), all or nothing.

    The rounds may stop before the game is over (a game being played), but never go past its
    end: the judge says when that is under the category's scoring system. Raises
    :class:`ResultError` naming the game and the round at fault; on error the rounds stored
    before the call are left exactly as they were.
    """
    game = Game.objects.select_related("match__stage__category").get(pk=game.pk)
    rules = game_rules(game)
    label = f"game {game.number} ({game.match})"
    try:
        checked = read_rounds(rounds, rules)
        judge_game(checked, rules)
    except EngineInputError as error:
        raise ResultError(f"{label}, {error}", round=error.round) from None
    built = [_stored(game, number, r, rules.discs) for number, r in enumerate(checked, start=1)]
    fields = [f.name for f in Round._meta.concrete_fields if f.name not in ("id", "game", "number")]
    with transaction.atomic():
        existing = {
            r.number: r for r in game.rounds.order_by("number").select_for_update(of=("self",))
        }
        saved = []
        for obj in built:
            # Update rounds in place so their history reads as a sequence of versions.
            current = existing.pop(obj.number, None)
            if current is not None and all(
                getattr(current, name) == getattr(obj, name) for name in fields
            ):
                # Both cards of a game record the same result: nothing to write, no new version.
                saved.append(current)
                continue
            if current is not None:
                for name in fields:
                    setattr(current, name, getattr(obj, name))
                obj = current
            obj.save()
            saved.append(obj)
        for stale in existing.values():
            stale.delete()
        return saved


def _stored(game: Game, number: int, r: AnyRound, discs: int) -> Round:
    """An engine round as the official row (the third player's figures in a three-player game)."""
    third = len(r.points) == 3
    return Round(
        game=game,
        number=number,
        points_a=r.points[0],
        points_b=r.points[1],
        points_c=r.points[2] if third else None,
        twenties_a=r.twenties[0],
        twenties_b=r.twenties[1],
        twenties_c=r.twenties[2] if third else None,
        score_a=r.score[0] if r.score else None,
        score_b=r.score[1] if r.score else None,
        score_c=r.score[2] if third and r.score else None,
        time_expired=r.is_time_expired,
        scoring=r.scoring,
        discs_per_side=discs,
    )
