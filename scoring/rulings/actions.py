"""The head referee's and the organizers' rulings, each declared once (``tournaments.actions``):
withdrawing, disqualifying and reinstating an entry, forfeiting a round or a game, and settling a
dispute between two cards.

The ruling pages (``scoring.rulings.views``), the check-in rows of the organizer's pages, the
dispute queue and the API (``scoring.api.rulings``, ``PATCH /api/entries/<id>/`` with
``withdrawn``, ``POST /api/games/<id>/resolve-dispute/``) take these steps and ask them why a
button is not offered. The preconditions live with their services, which ask them again under
their locks: ``tournaments.services.forfeits`` (an entry's), ``scoring.rulings.services`` (a
game's rulings) and ``scoring.scorecards.conditions`` (a dispute).

A withdrawal's walkovers decide knockout matches: the withdrawal opens the matches they decide
in its own transaction (``services.withdraw``), as a recorded result does, so that every path
that withdraws an entry leaves the bracket where the walkovers put it. What the public pages
show is bumped after the commit by the saves themselves (``tournaments.live``).

The steps cross apps (a ``tournaments`` service, then the bracket), so they live here, above
both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from scoring.calls import game_ruled
from scoring.permissions import conflict_refusal
from scoring.rulings import services
from scoring.scorecards import services as scorecards
from scoring.scorecards.conditions import forfeited, in_dispute
from tournaments.actions import Action
from tournaments.models import Entry, Game
from tournaments.services import forfeits

__all__ = [
    "ENTRY_STEPS",
    "GAME_STEPS",
    "disqualify_entry",
    "forfeit_game",
    "forfeit_round",
    "reinstate_entry",
    "resolve_dispute",
    "withdraw_entry",
]

Kind = Entry.WithdrawalKind


def _withdraw(user: AbstractBaseUser, entry: Entry, *, reason: str = "") -> services.Withdrawal:
    return services.withdraw(entry=entry, kind=Kind.WITHDRAWAL, reason=reason, user=user)


def _disqualify(user: AbstractBaseUser, entry: Entry, *, reason: str = "") -> services.Withdrawal:
    return services.withdraw(entry=entry, kind=Kind.DISQUALIFICATION, reason=reason, user=user)


def _reinstate(user: AbstractBaseUser, entry: Entry) -> services.Withdrawal:
    return services.reinstate(entry=entry, user=user)


def _forfeit_game(user: AbstractBaseUser, game: Game, *, side: str, reason: str) -> services.Ruling:
    return services.forfeit_game(game=game, side=side, reason=reason, user=user)


def _forfeit_round(
    user: AbstractBaseUser, game: Game, *, round: int, side: str, reason: str
) -> services.Ruling:
    return services.forfeit_round(game=game, number=round, side=side, reason=reason, user=user)


def _resolve(
    user: AbstractBaseUser,
    game: Game,
    *,
    rounds: Sequence[Any],
    initials: str,
    versions: Mapping[int, int] | None = None,
) -> Game:
    scorecards.resolve_dispute(
        game=game, rounds_a=rounds, user=user, initials=initials, versions=versions
    )
    return game


def _refused_kind(kind: str):
    """The words of a refusal of ``kind`` of withdrawal: one's own entry or game, else who may."""
    return lambda user, permission, entry: forfeits.permission_refusal(user, entry, kind)


def _refused_take_back(user: AbstractBaseUser, permission: str, entry: Entry) -> str | None:
    return forfeits.permission_refusal(user, entry, entry.withdrawal_kind or Kind.WITHDRAWAL)


# Entries --------------------------------------------------------------------------------------

withdraw_entry = Action(
    name="scoring.withdraw_entry",
    permission="tournaments.withdraw_entry",
    who=gettext_lazy("Only the tournament's organizers may withdraw an entry or reinstate it."),
    denied=_refused_kind(Kind.WITHDRAWAL),
    when=(forfeits.not_withdrawn,),
    fields=("reason",),
    run=_withdraw,
)

disqualify_entry = Action(
    name="scoring.disqualify_entry",
    permission="tournaments.disqualify_entry",
    who=gettext_lazy(
        "Only the head referee or the tournament's organizers may disqualify an entry or "
        "reinstate it."
    ),
    denied=_refused_kind(Kind.DISQUALIFICATION),
    when=(forfeits.not_withdrawn,),
    fields=("reason",),
    run=_disqualify,
)

reinstate_entry = Action(
    name="scoring.reinstate_entry",
    permission="tournaments.reinstate_entry",
    who=gettext_lazy("Only the tournament's organizers may withdraw an entry or reinstate it."),
    denied=_refused_take_back,
    when=(forfeits.is_withdrawn, forfeits.walkovers_unused),
    run=_reinstate,
)

#: The steps of an entry's ruling page and of its check-in row, by the kind each records.
WITHDRAWAL_STEPS = {Kind.WITHDRAWAL: withdraw_entry, Kind.DISQUALIFICATION: disqualify_entry}
ENTRY_STEPS = (withdraw_entry, disqualify_entry, reinstate_entry)

# Games ----------------------------------------------------------------------------------------

forfeit_game = Action(
    name="scoring.forfeit_game",
    permission="scoring.forfeit",
    who=services.FORFEIT_WHO,
    denied=conflict_refusal,
    when=services.GAME_RULINGS,
    fields=("side", "reason"),
    run=_forfeit_game,
    after=(game_ruled,),  # both sides are told (scoring.calls)
    form="scoring.rulings.forms.ForfeitGameForm",
    serializer="scoring.api.rulings.ForfeitGameSerializer",
)

forfeit_round = Action(
    name="scoring.forfeit_round",
    permission="scoring.forfeit",
    who=services.FORFEIT_WHO,
    denied=conflict_refusal,
    when=services.ROUND_RULINGS,
    fields=("round", "side", "reason"),
    run=_forfeit_round,
    after=(game_ruled,),  # both sides are told (scoring.calls)
    form="scoring.rulings.forms.ForfeitRoundForm",
    serializer="scoring.api.rulings.ForfeitRoundSerializer",
)

#: The head referee's rulings on a game's page, in the order its forms are offered.
GAME_STEPS = (forfeit_game, forfeit_round)

resolve_dispute = Action(
    name="scoring.resolve_dispute",
    permission="scoring.resolve_dispute",
    who=gettext_lazy("Only the head referee settles disputes."),
    denied=conflict_refusal,
    # A closed stage is refused by the service (``ensure_open``, the closure's words): the
    # queue would otherwise read every stage's closure for each game it shows.
    when=(forfeited, in_dispute),
    fields=("rounds", "initials", "versions"),
    run=_resolve,
    after=(game_ruled,),  # both sides are told (scoring.calls)
    serializer="scoring.api.serializers.ResolveDisputeSerializer",
)
