"""Recording official game results.

Results arrive from scorecards, from referees and from simulated games; they all pass through
``record_game`` so that the same checks apply and a bad round is reported with its game and
round number, without losing anything already saved.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from scoring.engine import points_from_score
from tournaments.models import Game, Round


@dataclass(frozen=True)
class RoundInput:
    """One round as a person reports it: points (or board scores) and 20s per side."""

    points: tuple[int, int] | None = None
    twenties: tuple[int, int] = (0, 0)
    score: tuple[int, int] | None = None
    time_expired: bool = False


def record_game(game: Game, rounds: Sequence[RoundInput]) -> list[Round]:
    """Replace the game's rounds with ``rounds``, all or nothing.

    Raises ``ValidationError`` naming the game and the round at fault; on error the rounds
    stored before the call are left exactly as they were.
    """
    category = game.match.stage.category
    limit = category.rounds_per_game + (1 if game.is_playoff else 0)
    label = f"game {game.number} ({game.match})"
    if len(rounds) > limit:
        raise ValidationError(f"{label}: {len(rounds)} rounds given, at most {limit} are played.")
    built = []
    for number, r in enumerate(rounds, start=1):
        if r.points is None and r.score is None and not r.time_expired:
            raise ValidationError(f"{label}, round {number}: give the points or board scores.")
        points = r.points
        if points is None:
            points = (0, 0) if r.time_expired else points_from_score(r.score)
        obj = Round(
            game=game,
            number=number,
            points_a=points[0],
            points_b=points[1],
            twenties_a=r.twenties[0],
            twenties_b=r.twenties[1],
            score_a=r.score[0] if r.score else None,
            score_b=r.score[1] if r.score else None,
            time_expired=r.time_expired,
            discs_per_side=category.discs_per_side,
        )
        try:
            # Field checks and Round.clean(), which words every CHECK constraint of the model;
            # full_clean() would also query the database once per constraint, for each round.
            obj.clean_fields(exclude=["game"])
            obj.clean()
        except ValidationError as exc:
            messages = "; ".join(m for ms in exc.message_dict.values() for m in ms)
            raise ValidationError(f"{label}: {messages}") from exc
        built.append(obj)
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
