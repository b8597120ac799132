"""The steps of a scorecard row, each declared once (``tournaments.actions``): fill, correct and
validate a row at the board.

The card page asks each step whether its form applies to this user and row and, if not, why
(``RowPanel``); the page's posts, the API and the simulation call the same declarations, whose
services check again under the game's lock what may have changed since the page was drawn.

Each step's object is the card's row for a game, or an unsaved row standing for it before it is
filled (``CardLine.probe``). The preconditions live in ``scoring.scorecards.conditions``, where
the services ask them too, under the game's lock: each service checks everything on the rows as
it reads them once (``service_checks``), so a step's state is asked once when it is taken. The
scoring table's steps (paper cards, verifying, voiding, re-opening a voided row) are declared
beside these, in ``scoring.scorecards.table_actions``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from scoring.calls import row_waits_for_validation
from scoring.models import CardRow
from scoring.permissions import conflict_refusal, validation_refusal
from scoring.scorecards import services
from scoring.scorecards.conditions import (
    CORRECTABLE,
    earlier_rows_signed,
    game_is_played,
    game_needed,
    game_over_on_the_row,
    open_to_its_player,
    stage_open,
    validated_already,
    waiting_for_validation,
)
from tournaments.actions import Action

__all__ = ["CORRECTABLE", "ROW_STEPS", "correct_row", "fill_row", "validate_row"]


def _fill(
    user,
    row: CardRow,
    *,
    rounds,
    version=None,
    referee_initials: str = "",
    confirm_contradiction: bool = False,
) -> CardRow:
    return services.fill_row(
        card=row.card,
        game=row.game,
        rounds=rounds,
        user=user,
        version=version,
        referee_initials=referee_initials,
        confirm_contradiction=confirm_contradiction,
    )


def _validate(user, row: CardRow, *, opponent_number: str = "", initials: str = "", version=None):
    return services.validate_row(
        row=row, opponent_number=opponent_number, initials=initials, user=user, version=version
    )


def _correct(user, row: CardRow, *, rounds, version=None, referee_initials: str = "") -> CardRow:
    return services.correct_row(
        card=row.card,
        game=row.game,
        rounds=rounds,
        user=user,
        version=version,
        referee_initials=referee_initials,
    )


fill_row = Action(
    name="scoring.fill_row",
    permission="scoring.fill_row",
    who=gettext_lazy("Only the card's player or a referee fills this card."),
    denied=conflict_refusal,
    when=(game_is_played, stage_open, game_needed, open_to_its_player, earlier_rows_signed),
    # ``confirm_contradiction``: save a row that contradicts the game's validated or official
    # result anyway, which opens a dispute (refused once without it, the rounds named).
    fields=("rounds", "version", "referee_initials", "confirm_contradiction"),
    run=_fill,
    service_checks=True,
    # The opponent is called to validate the row (on their phone, the hall screen, their page).
    after=(row_waits_for_validation,),
)

correct_row = Action(
    name="scoring.correct_row",
    permission="scoring.correct_row",
    who=gettext_lazy("Only a referee corrects a validated card, with initials."),
    denied=conflict_refusal,
    when=(game_is_played, stage_open, validated_already),
    fields=("rounds", "version", "referee_initials"),
    run=_correct,
    service_checks=True,
)

validate_row = Action(
    name="scoring.validate_row",
    permission="scoring.validate_row",
    who=gettext_lazy("Only the opponent validates a row, on their own phone."),
    denied=lambda user, permission, row: validation_refusal(user, row),
    when=(game_is_played, stage_open, waiting_for_validation, game_over_on_the_row),
    # Two ways to sign: the opponent's ID and initials typed, as paper asks them; or neither,
    # when the phone's login or private link stands for exactly one of the row's opponents,
    # whose ID and initials the identity implies (one "Agree", ``scoring.scorecards.implied``).
    fields=("opponent_number", "initials", "version"),
    run=_validate,
    service_checks=True,
)

#: The steps of a row on the card page, in the order its forms are offered.
ROW_STEPS = (fill_row, correct_row, validate_row)
