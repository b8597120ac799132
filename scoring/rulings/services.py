"""Forfeits and withdrawals after the draw: the writes the pages and the API share.

WCC Tournament Rules: "Careless or deliberate contravention of the rules may result in the
forfeiture of a round or a game and possible disqualification from the tournament. ... In all
cases the decision of the referee will be final."

- :func:`forfeit_round`: the head referee forfeits one round of a 2-1-0 game: it scores 2-0
  against the side that forfeits it, the 20s as shot. The official round is rewritten through
  ``record_game``, which keeps the ruling whenever the cards write the game again. The rules say
  nothing of a forfeited round in a game to 100 or of three players: forfeit the game there.
- :func:`forfeit_game`: the head referee forfeits a whole game: its official rounds are replaced
  by the ruling, a walkover to the other side, scored as the category's scoring system scores a
  bye (``scoring.results.rules.unplayed_game``). The cards keep their rows as written and show
  the ruling; nothing more is written on them.
- :func:`withdraw` and :func:`reinstate`: an entry's withdrawal or disqualification
  (``tournaments.services.forfeits``), and in a knockout the matches a walkover decides are
  opened, as a recorded result opens them.

Every function checks the permission of ``user`` (``scoring.forfeit`` for the head referee's
rulings; see ``tournaments.services.forfeits`` for withdrawals), refuses with a message that
says what is wrong and where, and returns what it did with the sentence the pages and the API
both show. They are the services of the steps in ``scoring.rulings.actions``, whose
preconditions on a game are the ones here (:data:`GAME_RULINGS`, :data:`ROUND_RULINGS`): the
page asks them to show why a form is not offered, and the services ask them again under the
game's lock. A withdrawal opens the knockout matches its walkovers decide in its own
transaction, as a recorded result does: whatever path withdraws an entry takes that step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.engine import round_to_data
from scoring.permissions import conflict_refusal
from scoring.progression.services import advance_knockout
from scoring.results.knockout import knockout_state
from scoring.results.rules import ROUND_VALUES, game_rules, values_round
from scoring.results.services import check_round_forfeits, record_game
from scoring.scorecards.conditions import forfeited, where
from tournaments.actions import Forbidden, Refused
from tournaments.actions import Kind as Refusal
from tournaments.models import Entry, Game, Match, Round, Stage, people_paths
from tournaments.services import forfeits
from tournaments.services.game_locks import lock_games

Side = Game.Side
Kind = Game.ForfeitKind

#: Who rules on forfeits, as the pages and the API say it to anyone else.
FORFEIT_WHO = gettext_lazy("Only the head referee forfeits a round or a game.")
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
        raise Forbidden(forfeit_refusal(user, game))


def forfeit_refusal(user: AbstractBaseUser, game: Game) -> str:
    """Why ``user`` may not forfeit in ``game``: their own game (nobody rules on a game they
    play in), else who may (the words of the steps, ``scoring.rulings.actions``)."""
    return conflict_refusal(user, "scoring.forfeit", game.match) or str(FORFEIT_WHO)


def _load(game: Game) -> Game:
    """The game, locked first (one lock order with the scorecards: ``lock_games``)."""
    lock_games([game])
    return Game.objects.select_related(
        "match__stage__category__tournament",
        *people_paths("match__entry_a", "match__entry_b", "match__entry_c"),
    ).get(pk=game.pk)


# Preconditions of a ruling on a game: each the words of its refusal, or None -------------------


def two_sided(game: Game) -> Refused | None:
    """A forfeit is against one of two sides: a bye has nobody to forfeit it, and the rules say
    nothing of a forfeit among three."""
    match = game.match
    if match.entry_b_id is None:
        return Refused(
            _("%(game)s is a bye: there is nobody to forfeit it.") % {"game": capfirst(where(game))}
        )
    if match.entry_c_id is not None:
        return Refused(
            _(
                "%(game)s is a three-player game; the rules say nothing of a forfeit among "
                "three. Record the round as played, or disqualify the player."
            )
            % {"game": capfirst(where(game))}
        )
    return None


def not_forfeited(game: Game) -> Refused | None:
    """A game is forfeited once (a walkover, or the head referee's ruling)."""
    return forfeited(game)


def result_unused(game: Game) -> Refused | None:
    """Outside a knockout, a result a later draw was made from stays (a knockout goes on from the
    new result instead: the bracket is opened again from it)."""
    if game.match.stage.kind == Stage.Kind.KNOCKOUT:
        return None
    because = _("the result of %(game)s") % {"game": where(game)}
    used = forfeits.result_used(game.match, because=because)
    if not used:
        return None
    return Refused(
        _("%(game)s cannot be forfeited now: %(used)s")
        % {"game": capfirst(where(game)), "used": used},
        kind=Refusal.CONFLICT,
    )


def rounds_forfeitable(game: Game) -> Refused | None:
    """Only a round worth 2-1-0 between two sides can be forfeited (NCA, WCC, match play)."""
    try:
        check_round_forfeits(game_rules(game), capfirst(where(game)))
    except ValidationError as exc:
        return Refused(" ".join(exc.messages))
    return None


def has_official_rounds(game: Game) -> Refused | None:
    """A round is forfeited once the game's cards count: it needs its official result."""
    if game.rounds.exists():
        return None
    return Refused(
        _(
            "%(game)s has no round yet with an official result: a round is forfeited once the "
            "game's cards count (or forfeit the game)."
        )
        % {"game": capfirst(where(game))},
        kind=Refusal.CONFLICT,
    )


#: What forfeiting a game needs of it, in the order a refusal names.
GAME_RULINGS = (two_sided, not_forfeited, result_unused)
#: What forfeiting one of its rounds needs.
ROUND_RULINGS = (two_sided, not_forfeited, rounds_forfeitable, has_official_rounds, result_unused)


def _check(game: Game, rulings) -> None:
    """Ask the preconditions again on the game as read under its lock."""
    for precondition in rulings:
        found = precondition(game)
        if found is not None:
            raise found


def _checked(game: Game, side: str, reason: str) -> tuple[str, str]:
    """The side and the reason of a ruling, or a refusal naming the game."""
    if side not in (Side.A, Side.B):
        raise Refused(
            _("%(game)s: choose the side that forfeits: a or b.") % {"game": capfirst(where(game))},
            field="side",
        )
    reason = (reason or "").strip()
    if not reason:
        raise Refused(
            _("%(game)s: say why (the rule that was broken); it is printed.")
            % {"game": capfirst(where(game))},
            field="reason",
        )
    forfeits.check_reason_length(reason)
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
    for ``reason``: its official rounds give way to the ruling, the other side wins it with what
    a bye is worth in its category. In a knockout the bracket goes on from the new result; a
    stage drawn from the standings already is not changed behind the organizer's back
    (refused)."""
    game = _load(game)
    _require(user, game)
    _check(game, GAME_RULINGS)
    side, reason = _checked(game, side, reason)
    stage = game.match.stage
    record_game(game, [], forfeits={})
    game.forfeited_by = side
    game.forfeit_kind = Kind.RULING
    game.forfeit_reason = reason
    game.forfeited_at = timezone.now()
    game.forfeit_ruled_by = user if user is not None and user.is_authenticated else None
    game._change_reason = _("forfeited by %(entry)s: %(reason)s") % {
        "entry": _entry(game, side).name,
        "reason": reason,
    }
    game.save()
    _advance(stage)
    loser, winner = _entry(game, side).name, _entry(game, _other(side)).name
    return Ruling(
        game=game,
        message=_(
            "%(game)s: forfeited by %(loser)s on the head referee's ruling (%(reason)s); "
            "%(winner)s wins the game."
        )
        % {"game": capfirst(where(game)), "loser": loser, "reason": reason, "winner": winner},
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
    _check(game, ROUND_RULINGS)
    side, reason = _checked(game, side, reason)
    stored = official_rounds(game)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(stored):
        raise Refused(
            _(
                "%(game)s has rounds 1 to %(last)s with an official result; round %(number)s "
                "cannot be forfeited."
            )
            % {"game": capfirst(where(game)), "last": len(stored), "number": number},
            field="round",
        )
    stage = game.match.stage
    rounds = [
        round_to_data(values_round(*(getattr(r, name) for name in ROUND_VALUES))) for r in stored
    ]
    rulings = {r.number: (r.forfeited_by, r.forfeit_reason) for r in stored if r.forfeited_by}
    rulings[number] = (side, reason)
    saved = record_game(game, rounds, forfeits=rulings)
    _advance(stage)
    loser, winner = _entry(game, side).name, _entry(game, _other(side)).name
    message = _(
        "%(round)s: forfeited by %(loser)s on the head referee's ruling (%(reason)s); the round "
        "scores 2-0 to %(winner)s."
    ) % {
        "round": capfirst(where(game, number)),
        "loser": loser,
        "reason": reason,
        "winner": winner,
    }
    if len(saved) < len(stored):
        message += " " + _(
            "The game is decided after round %(round)s: the rounds after it no longer count."
        ) % {"round": len(saved)}
    return Ruling(game=game, message=message)


# Withdrawals ----------------------------------------------------------------------------------


def _walkovers(games: list[Game]) -> str:
    count = len(games)
    if not count:
        return _("no game was left to play")
    return ngettext("%(count)s game is a walkover", "%(count)s games are walkovers", count) % {
        "count": count
    }


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
    walkovers decide, in the same transaction: a walkover decides a knockout match as a
    recorded result does, and the bracket never shows one without the other."""
    games = forfeits.withdraw_entry(entry=entry, kind=kind, reason=reason, user=user)
    opened = [m for stage in forfeits.stages_of(games) for m in _advance(stage)]
    entry.refresh_from_db()
    category = entry.category.name
    values = {
        "entry": entry.name,
        "category": category,
        "reason": entry.withdrawal_reason,
        "walkovers": _walkovers(games),
    }
    if entry.withdrawal_kind == Entry.WithdrawalKind.DISQUALIFICATION:
        message = (
            _("%(entry)s is disqualified from %(category)s (%(reason)s): %(walkovers)s.") % values
        )
    elif entry.withdrawal_reason:
        message = (
            _("%(entry)s has withdrawn from %(category)s (%(reason)s): %(walkovers)s.") % values
        )
    else:
        message = _("%(entry)s has withdrawn from %(category)s: %(walkovers)s.") % values
    if opened:
        names = "; ".join(str(m) for m in opened)
        message += " " + _("Opened in the bracket: %(matches)s.") % {"matches": names}
    return Withdrawal(entry=entry, games=games, message=message, opened=opened)


@transaction.atomic
def reinstate(*, entry: Entry, user: AbstractBaseUser | None = None) -> Withdrawal:
    """Take back a withdrawal or disqualification (``forfeits.reinstate_entry``): its walkovers
    are games to play again, unless their result was used since (refused)."""
    games = forfeits.reinstate_entry(entry=entry, user=user)
    entry.refresh_from_db()
    count = len(games)
    again = (
        ngettext(
            "%(count)s walkover is a game to play again",
            "%(count)s walkovers are games to play again",
            count,
        )
        % {"count": count}
        if count
        else _("no walkover to take back")
    )
    message = _("%(entry)s is reinstated: %(again)s.") % {"entry": entry.name, "again": again}
    return Withdrawal(entry=entry, games=games, message=message)
