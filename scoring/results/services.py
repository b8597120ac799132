"""Recording official game results.

Results arrive from scorecards, from referees and from simulated games; they all pass through
``record_game`` so that the same checks apply (the judge of :mod:`scoring.engine.judge`) and a bad
round is reported with its game and round number, without losing anything already saved.
"""

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from scoring.engine import (
    EngineInputError,
    GameRules,
    RoundData,
    judge_game,
    read_rounds,
    round_to_data,
)
from scoring.engine import Round as EngineRound
from scoring.engine.judge import AnyRound
from scoring.engine.rounds import TWO_ONE_ZERO
from scoring.progression.locks import ensure_open
from scoring.ratings import hooks as ratings_hooks
from scoring.results.rules import ROUND_VALUES, game_rules, values_round
from tournaments import live
from tournaments.actions import Kind, Refused
from tournaments.models import Game, Round


class ResultError(Refused):
    """A refused result, naming the game and, as data, the round at fault."""

    def __init__(
        self, message: str, *, round: int | None = None, kind: Kind = Kind.INVALID
    ) -> None:
        super().__init__(message, kind=kind, round=round)


#: A round forfeited on the head referee's ruling: (the side that forfeits it, the reason), by
#: round number.
RoundForfeits = Mapping[int, tuple[str, str]]


def record_game(
    game: Game, rounds: Sequence[Mapping[str, Any]], *, forfeits: RoundForfeits | None = None
) -> list[Round]:
    """Replace the game's rounds with ``rounds`` (card data, side ``a`` first, then ``b`` and, in
    a three-player game, ``c``), all or nothing.

    The rounds may stop before the game is over (a game being played), but never go past its
    end: the judge says when that is under the category's scoring system. Raises
    :class:`ResultError` naming the game and the round at fault; on error the rounds stored
    before the call are left exactly as they were. A stage that has advanced is closed
    (``scoring.progression.locks``): its results are refused here too, whoever writes them.

    A forfeited game (a walkover, or the head referee's ruling) takes no rounds. The rounds the
    head referee forfeited (``forfeits``; by default the ones the game has stored) score 2-0
    against the side that forfeits them whatever the card says, their 20s as shot (WCC:
    "forfeiture of a round"); should the game then be decided before its last round, the rounds
    after it no longer count.
    """
    game = Game.objects.select_related(
        "match__stage__category", "match__entry_a", "match__entry_b"
    ).get(pk=game.pk)
    ensure_open(game.match.stage, error=ResultError)
    with transaction.atomic():
        return record_locked_game(game, rounds, forfeits=forfeits)


def record_locked_game(
    game: Game, rounds: Sequence[Mapping[str, Any]], *, forfeits: RoundForfeits | None = None
) -> list[Round]:
    """:func:`record_game` for a writer that did its first steps itself, in its own
    transaction: it holds the game's lock (``lock_games``), read ``game`` under it with its
    match, stage and category, and checked that the stage is open (``ensure_open``). The
    scorecard services do all three before any row is written, so that an official result
    written at the end of a round costs no second read of the game, no second look at the
    stage and no savepoint of its own: a refusal here comes before any write, and the
    caller's transaction undoes everything else."""
    if game.forfeited_by and rounds:
        raise ResultError(f"{game.forfeit_refusal}.")
    rules = game_rules(game)
    fields = [f.name for f in Round._meta.concrete_fields if f.name not in ("id", "game", "number")]
    # The stored rounds, read once under their lock: what is replaced, and the rounds the
    # head referee forfeited when the caller does not say.
    existing = {r.number: r for r in game.rounds.order_by("number").select_for_update(of=("self",))}
    if forfeits is None:
        forfeits = {
            n: (r.forfeited_by, r.forfeit_reason) for n, r in existing.items() if r.forfeited_by
        }
    try:
        checked = read_rounds(rounds, rules)
        if forfeits:
            checked = _with_forfeits(checked, forfeits, rules)
        judge_game(checked, rules)
    except EngineInputError as error:
        label = _("game %(number)s (%(match)s)") % {"number": game.number, "match": game.match}
        # The rounds are in the match's order: each figure is named after its side.
        named = error.named([entry.name for entry in game.match.entries])
        raise ResultError(f"{label}, {named}", round=error.round) from None
    built = [official_row(game, number, r, rules.discs) for number, r in enumerate(checked, 1)]
    for obj in built:
        obj.forfeited_by, obj.forfeit_reason = forfeits.get(obj.number, ("", ""))
    if not existing:
        # A game's first result (the usual case): its rounds and their history in two
        # statements, not two a round. Bulk writes send no signal: the live version is
        # bumped here.
        bulk_create_with_history(built, Round)
        live.touch("game", [game.pk])
        ratings_hooks.game_touched([game.pk])
        return built
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


def check_round_forfeits(rules: GameRules, label: str) -> None:
    """A round can be forfeited only where a round is worth 2-1-0 between two sides (NCA, WCC,
    match play): the rules say nothing of a forfeited round in a game to 100 or of three."""
    if rules.sides != 2 or rules.round_scoring != TWO_ONE_ZERO:
        raise ResultError(
            _(
                "%(game)s is not scored 2-1-0 per round between two sides, and the rules say "
                "nothing of a forfeited round there: forfeit the game instead."
            )
            % {"game": label}
        )


def _with_forfeits(
    checked: Sequence[AnyRound], forfeits: RoundForfeits, rules: GameRules
) -> list[AnyRound]:
    """The rounds with each forfeited one scored 2-0 against the side that forfeits it (its 20s
    as shot, no board scores); cut where the game is then decided."""
    check_round_forfeits(rules, _("this game"))
    rounds = list(checked)
    for number, (side, _reason) in forfeits.items():
        if 1 <= number <= len(rounds):
            shot = rounds[number - 1]
            points = (0, 2) if side == "a" else (2, 0)
            rounds[number - 1] = EngineRound(points, shot.twenties, None, TWO_ONE_ZERO)
    for end in range(1, len(rounds)):
        if judge_game(rounds[:end], rules).over:
            return rounds[:end]
    return rounds


def official_row(game: Game, number: int, r: AnyRound, discs: int) -> Round:
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


def official_rounds(game: Game, *, ruled_out: bool = False) -> list[RoundData | None]:
    """The game's official rounds as card data, in the match's order of sides.

    ``ruled_out``: a round the head referee forfeited is None, for a comparison with what a card
    says (its 2-0 is the ruling's, not a claim a card contradicts)."""
    stored = game.rounds.order_by("number").values_list(*ROUND_VALUES, "forfeited_by")
    return [
        None if ruled_out and forfeited else round_to_data(values_round(*values))
        for *values, forfeited in stored
    ]
