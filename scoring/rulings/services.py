"""Forfeits and withdrawals after the draw: the writes the pages and the API share.

WCC Tournament Rules: "Careless or deliberate contravention of the rules may result in the
forfeiture of a round or a game and possible disqualification from the tournament. ... In all
cases the decision of the referee will be final."

- :func:`forfeit_round`: the head referee forfeits one round of a 2-1-0 game: it scores 2-0
  against the side that forfeits it, the 20s as shot. The official round is rewritten through
  ``record_game``, which keeps the ruling whenever the cards write the game again. The rules say
  nothing of a forfeited round in a game to 100 or of three players: forfeit the game there.
- :func:`forfeit_game`: the head referee forfeits a whole game: its official rounds are replaced
  by the ruling, a walkover with the stage's bye score to the other side. The cards keep their
  rows as written and show the ruling; nothing more is written on them.
- :func:`withdraw` and :func:`reinstate`: an entry's withdrawal or disqualification
  (``tournaments.services.forfeits``), and in a knockout the matches a walkover decides are
  opened, as a recorded result opens them.

Every function checks the permission of ``user`` (``scoring.forfeit`` for the head referee's
rulings; see ``tournaments.services.forfeits`` for withdrawals), refuses with a message that
says what is wrong and where, and returns what it did with the sentence the pages and the API
both show.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from scoring.engine import round_to_data
from scoring.progression.services import advance_knockout
from scoring.results.knockout import knockout_state
from scoring.results.rules import ROUND_VALUES, game_rules, values_round
from scoring.results.services import check_round_forfeits, record_game
from tournaments.models import Category, Entry, Game, Match, Round, Stage
from tournaments.services import forfeits
from tournaments.services.game_locks import lock_games

Side = Game.Side
Kind = Game.ForfeitKind

#: Who rules on forfeits, as the pages and the API say it.
FORFEIT_ROLE = "the head referee"
REASON_MAX = forfeits.REASON_MAX


@dataclass(frozen=True)
class Ruling:
    """What a forfeit did: the game as it stands now, and the sentence that says so."""

    game: Game
    message: str


@dataclass(frozen=True)
class Withdrawal:
    """What a withdrawal, a disqualification or a reinstatement did."""

    entry: Entry
    games: list[Game]
    message: str
    opened: list[Match] = field(default_factory=list)


def _require(user: AbstractBaseUser | None, game: Game) -> None:
    if user is not None and not user.has_perm("scoring.forfeit", game.match):
        raise PermissionDenied(f"Only {FORFEIT_ROLE} forfeits a round or a game.")


def _load(game: Game) -> Game:
    """The game, locked first (one lock order with the scorecards: ``lock_games``)."""
    lock_games([game])
    return Game.objects.select_related(
        "match__stage__category__tournament",
        *(f"match__entry_{s}__{p}" for s in "abc" for p in forfeits.ENTRY_PEOPLE),
    ).get(pk=game.pk)


def _where(game: Game) -> str:
    return f"{game.match}, game {game.number}"


def _checked(game: Game, side: str, reason: str) -> tuple[str, str]:
    """The side and the reason of a ruling, or a refusal naming the game."""
    if side not in (Side.A, Side.B):
        raise ValidationError({"side": f"{_where(game)}: choose the side that forfeits: a or b."})
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError(
            {"reason": f"{_where(game)}: say why (the rule that was broken); it is printed."}
        )
    if len(reason) > REASON_MAX:
        raise ValidationError(
            {"reason": f"Keep the reason to {REASON_MAX} characters (it is printed on cards)."}
        )
    match = game.match
    if match.entry_b_id is None:
        raise ValidationError(f"{_where(game)} is a bye: there is nobody to forfeit it.")
    if match.entry_c_id is not None:
        raise ValidationError(
            f"{_where(game)} is a three-player game; the rules say nothing of a forfeit among "
            "three. Record the round as played, or disqualify the player."
        )
    if game.forfeited_by:
        raise ValidationError(f"{game.forfeit_refusal}.")
    return side, reason


def _entry(game: Game, side: str) -> Entry:
    return game.match.entry_a if side == Side.A else game.match.entry_b


def _other(side: str) -> str:
    return Side.B if side == Side.A else Side.A


def _advance(stage: Stage) -> list[Match]:
    """A knockout's next matches, opened by what was just decided (as a recorded result)."""
    if stage.kind != Stage.Kind.KNOCKOUT or knockout_state(stage) is None:
        return []
    return advance_knockout(stage)


@transaction.atomic
def forfeit_game(
    *, game: Game, side: str, reason: str, user: AbstractBaseUser | None = None
) -> Ruling:
    """The head referee forfeits ``game`` against ``side`` ("a" or "b", in the match's order),
    for ``reason``: its official rounds give way to the ruling, the other side wins it with the
    stage's bye score. In a knockout the bracket goes on from the new result; a stage drawn
    from the standings already is not changed behind the organizer's back (refused)."""
    game = _load(game)
    _require(user, game)
    side, reason = _checked(game, side, reason)
    stage = game.match.stage
    if stage.kind != Stage.Kind.KNOCKOUT:
        used = forfeits.result_used(game.match, because=f"the result of {_where(game)}")
        if used:
            raise ValidationError(f"{_where(game)} cannot be forfeited now: {used}")
    record_game(game, [], forfeits={})
    game.forfeited_by = side
    game.forfeit_kind = Kind.RULING
    game.forfeit_reason = reason
    game.forfeited_at = timezone.now()
    game.forfeit_ruled_by = user if user is not None and user.is_authenticated else None
    game._change_reason = f"forfeited by {_entry(game, side).name}: {reason}"
    game.save()
    _advance(stage)
    loser, winner = _entry(game, side).name, _entry(game, _other(side)).name
    return Ruling(
        game=game,
        message=f"{_where(game)}: forfeited by {loser} on the head referee's ruling ({reason}); "
        f"{winner} wins the game.",
    )


def official_rounds(game: Game) -> list[Round]:
    return list(game.rounds.order_by("number"))


@transaction.atomic
def forfeit_round(
    *, game: Game, number: int, side: str, reason: str, user: AbstractBaseUser | None = None
) -> Ruling:
    """The head referee forfeits round ``number`` of ``game`` against ``side``: the official
    round scores 2-0 to the other side (20s as shot), and stays so when the cards write the game
    again. The round must have its official result (the game's cards are in); only a game
    scored 2-1-0 per round between two sides has forfeitable rounds."""
    game = _load(game)
    _require(user, game)
    side, reason = _checked(game, side, reason)
    check_round_forfeits(game_rules(game), _where(game))
    stored = official_rounds(game)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(stored):
        have = f"rounds 1 to {len(stored)}" if stored else "no round yet"
        raise ValidationError(
            {
                "round": f"{_where(game)} has {have} with an official result; round {number} "
                "cannot be forfeited. A round is forfeited once the game's cards count (or "
                "forfeit the game)."
            }
        )
    stage = game.match.stage
    if stage.kind != Stage.Kind.KNOCKOUT:
        used = forfeits.result_used(game.match, because=f"the result of {_where(game)}")
        if used:
            raise ValidationError(f"Round {number} of {_where(game)} cannot be forfeited: {used}")
    rounds = [
        round_to_data(values_round(*(getattr(r, name) for name in ROUND_VALUES))) for r in stored
    ]
    rulings = {r.number: (r.forfeited_by, r.forfeit_reason) for r in stored if r.forfeited_by}
    rulings[number] = (side, reason)
    saved = record_game(game, rounds, forfeits=rulings)
    _advance(stage)
    loser, winner = _entry(game, side).name, _entry(game, _other(side)).name
    message = (
        f"{_where(game)}, round {number}: forfeited by {loser} on the head referee's ruling "
        f"({reason}); the round scores 2-0 to {winner}."
    )
    if len(saved) < len(stored):
        message += (
            f" The game is decided after round {len(saved)}: the rounds after it no longer count."
        )
    return Ruling(game=game, message=message)


# Withdrawals ----------------------------------------------------------------------------------


def _walkovers(games: list[Game]) -> str:
    count = len(games)
    if not count:
        return "no game was left to play"
    return f"{count} game{'s are' if count != 1 else ' is a'} walkover{'s' if count != 1 else ''}"


@transaction.atomic
def withdraw(
    *,
    entry: Entry,
    kind: str = Entry.WithdrawalKind.WITHDRAWAL,
    reason: str = "",
    user: AbstractBaseUser | None = None,
) -> Withdrawal:
    """Withdraw or disqualify ``entry`` (``tournaments.services.forfeits.withdraw_entry``: its
    games without a result become walkovers against it), then open the knockout matches those
    walkovers decide."""
    games = forfeits.withdraw_entry(entry=entry, kind=kind, reason=reason, user=user)
    opened = [m for stage in forfeits.stages_of(games) for m in _advance(stage)]
    entry.refresh_from_db()
    category = entry.category.name
    if entry.withdrawal_kind == Entry.WithdrawalKind.DISQUALIFICATION:
        done = f"{entry.name} is disqualified from {category} ({entry.withdrawal_reason})"
    else:
        done = f"{entry.name} has withdrawn from {category}"
        if entry.withdrawal_reason:
            done += f" ({entry.withdrawal_reason})"
    message = f"{done}: {_walkovers(games)}."
    if opened:
        names = "; ".join(str(m) for m in opened)
        message += f" Opened in the bracket: {names}."
    return Withdrawal(entry=entry, games=games, message=message, opened=opened)


@transaction.atomic
def reinstate(*, entry: Entry, user: AbstractBaseUser | None = None) -> Withdrawal:
    """Take back a withdrawal or disqualification (``forfeits.reinstate_entry``): its walkovers
    are games to play again, unless their result was used since (refused)."""
    if not Entry.objects.filter(pk=entry.pk, withdrawn=True).exists():
        raise ValidationError(f"{entry.name} has not withdrawn; there is nothing to reinstate.")
    games = forfeits.reinstate_entry(entry=entry, user=user)
    entry.refresh_from_db()
    count = len(games)
    again = (
        f"{count} walkover{'s are games' if count != 1 else ' is a game'} to play again"
        if count
        else "no walkover to take back"
    )
    return Withdrawal(entry=entry, games=games, message=f"{entry.name} is reinstated: {again}.")


def open_decided_matches(category: Category) -> list[Match]:
    """After a withdrawal made through an entry's plain edit (``withdrawn: true``), open the
    knockout matches its walkovers decided, as :func:`withdraw` does."""
    opened: list[Match] = []
    for stage in category.stages.filter(kind=Stage.Kind.KNOCKOUT).order_by("order"):
        opened += _advance(stage)
    return opened
