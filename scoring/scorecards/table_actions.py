"""The scoring table's steps on scorecards, each declared once (``tournaments.actions``): enter
a row from a paper card, confirm a paper row (a second staff member), verify a card, void a card
(or some of its rows) and re-open a voided row so that it is written again.

The table page, the paper-card page and the card page ask each step whether its button applies
and, if not, why; their posts and the API (``scoring.api.views``) take the same declarations.
Entering and confirming paper rows and re-opening act on a card's row (or, before it is
written, an unsaved row standing for it: ``selectors.CardLine.probe``); verifying and voiding
act on the card, whose rows the page showed (``conditions.rows_shown``).

The preconditions live in ``scoring.scorecards.conditions``; each service asks them again under
the game's lock, with the permission, on the rows as it reads them there (``service_checks``):
taking a step calls its service once, which refuses in the same words the page showed.

Who may: staff who enter paper cards (referees, the scoring table) enter them, and another of
them confirms a row (never the one who entered it); the scoring table and the head referee
verify and void; a voided row is re-opened by its card's player or by staff who enter paper
cards. Nobody rules on a game they play in (``scoring.permissions``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext_lazy

from scoring.models import CardRow, ScoreCard
from scoring.permissions import conflict_refusal
from scoring.scorecards import services
from scoring.scorecards.conditions import (
    awaiting_confirmation,
    card_stage_open,
    game_is_played,
    header_complete,
    paper_enterable,
    rows_to_verify,
    rows_to_void,
    stage_open,
    voided,
)
from tournaments.actions import Action

__all__ = [
    "CARD_STEPS",
    "confirm_paper_row",
    "enter_paper_row",
    "reopen_row",
    "verify_card",
    "void_card",
]


def _enter(
    user,
    row: CardRow,
    *,
    rounds,
    opponent_number: str,
    initials: str,
    version=None,
    confirm_replace: bool = False,
) -> CardRow:
    return services.enter_paper_row(
        card=row.card,
        game=row.game,
        rounds=rounds,
        opponent_number=opponent_number,
        initials=initials,
        user=user,
        version=version,
        confirm_replace=confirm_replace,
    )


def _confirm(user, row: CardRow, *, version=None) -> CardRow:
    return services.confirm_paper_row(row=row, user=user, version=version)


def _verify(user, card: ScoreCard, *, versions: Mapping[int, int] | None = None):
    return services.verify_card(card=card, user=user, versions=versions)


def _void(
    user,
    card: ScoreCard,
    *,
    reason: str,
    rows: Sequence[CardRow | int] | None = None,
    versions: Mapping[int, int] | None = None,
):
    return services.void_card(card=card, reason=reason, user=user, rows=rows, versions=versions)


def _reopen(user, row: CardRow, *, version=None) -> CardRow:
    return services.reopen_row(row=row, user=user, version=version)


enter_paper_row = Action(
    name="scoring.enter_paper_row",
    permission="scoring.enter_paper_row",
    who=gettext_lazy("Only referees and the scoring table enter paper cards."),
    denied=conflict_refusal,
    when=(stage_open, game_is_played, paper_enterable),
    # ``confirm_replace``: the paper card replaces a phone row of the card that says otherwise
    # (refused once without it, both shown).
    fields=("rounds", "opponent_number", "initials", "version", "confirm_replace"),
    run=_enter,
    service_checks=True,
)

confirm_paper_row = Action(
    name="scoring.confirm_paper_row",
    permission="scoring.confirm_paper_row",
    who=gettext_lazy("Only referees and the scoring table confirm paper cards."),
    denied=services.denied_words,
    when=(stage_open, game_is_played, awaiting_confirmation),
    fields=("version",),
    run=_confirm,
    service_checks=True,
    serializer="scoring.api.serializers.ConfirmPaperRowSerializer",
)

verify_card = Action(
    name="scoring.verify_card",
    permission="scoring.verify_card",
    who=gettext_lazy("Only the scoring table or the head referee verifies cards."),
    denied=conflict_refusal,
    when=(card_stage_open, header_complete, rows_to_verify),
    fields=("versions",),
    run=_verify,
    service_checks=True,
    serializer="scoring.api.serializers.VerifyCardSerializer",
)

void_card = Action(
    name="scoring.void_card",
    permission="scoring.void_card",
    who=gettext_lazy("Only the scoring table or the head referee voids cards."),
    denied=conflict_refusal,
    when=(card_stage_open, rows_to_void),
    fields=("reason", "rows", "versions"),
    run=_void,
    service_checks=True,
    serializer="scoring.api.serializers.VoidCardSerializer",
)

reopen_row = Action(
    name="scoring.reopen_row",
    permission="scoring.reopen_row",
    who=gettext_lazy(
        "Only the card's player, a referee or the scoring table re-opens a voided row."
    ),
    denied=conflict_refusal,
    when=(stage_open, game_is_played, voided),
    fields=("version",),
    run=_reopen,
    service_checks=True,
    serializer="scoring.api.serializers.ReopenRowSerializer",
)

#: The table's steps on a whole card, in the order its buttons are offered.
CARD_STEPS = (verify_card, void_card)
