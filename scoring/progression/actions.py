"""The steps from one stage to the next, each declared once (``tournaments.actions``): advance a
stage (seed and draw the next stage from its results), undo an advance, pair a Swiss stage's
next round, and record a shoot-out.

They need a stage's results, so they live here rather than beside the draws
(``tournaments.draw_actions``), whose services they go on to call. The category page asks each
whether its button applies and, if not, why; the pages' posts, the API
(``scoring.api.progression``, ``scoring.api.shootouts``, ``scoring.api.locks``) and the shoot-out
page take the same declarations. The preconditions live in ``scoring.progression.services``,
where the services ask them again; what needs every result of the stage (is it finished, does a
tie sit on the cut) is the service's to find.

Who may: advancing, undoing an advance and pairing the next round are the organizers' (the
draws rule on no game: an organizer who plays keeps them); a shoot-out is recorded by a referee,
the head referee or the scoring table, and never by one who shoots in it (the service asks that
once the entries are named: ``scoring.permissions.ShootoutTakers``).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from scoring.models import ShootOut
from scoring.progression import closed, services
from scoring.progression.closed import UndoneAdvance
from tournaments.actions import Action
from tournaments.models import Entry, Match, Stage
from tournaments.permissions import MANAGE_TOURNAMENT

__all__ = ["PROGRESSION_STEPS", "advance", "draw_next_round", "record_shootout", "undo_advance"]


def _advance(
    user: AbstractBaseUser,
    stage: Stage,
    *,
    pool_count: int | None = None,
    double: bool = False,
    third_place: bool = False,
) -> Stage:
    # Not in a transaction of the step's (``service_checks``): an advance refused for a tie on
    # the cut keeps the shoot-out stage it creates to settle it. The service asks the state
    # (``ADVANCE_CONDITIONS``) and writes the seeding in its own transaction; the role is
    # asked here.
    refused = advance.forbidden(user, stage)
    if refused is not None:
        raise refused
    return services.advance(stage, pool_count=pool_count, double=double, third_place=third_place)


def _undo_advance(user: AbstractBaseUser, stage: Stage) -> UndoneAdvance:
    return closed.undo_advance(stage, user=user)


def _next_round(user: AbstractBaseUser, stage: Stage) -> list[Match]:
    return services.draw_next_swiss_round(stage)


def _shootout(
    user: AbstractBaseUser, stage: Stage, *, twenties: Mapping[Entry | int, int]
) -> ShootOut:
    return services.record_shootout(stage, twenties, user=user)


advance = Action(
    name="scoring.advance",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers and co-organizers advance a stage."),
    when=services.ADVANCE_CONDITIONS,
    fields=("pool_count", "double", "third_place"),
    run=_advance,
    service_checks=True,
    serializer="scoring.api.progression.AdvanceOptionsSerializer",
)

undo_advance = Action(
    name="scoring.undo_advance",
    permission="scoring.undo_advance",
    who=format_lazy(gettext_lazy("Only {roles} undo an advance."), roles=closed.UNDO_ROLES),
    when=services.UNDO_ADVANCE_CONDITIONS,
    run=_undo_advance,
)

draw_next_round = Action(
    name="scoring.draw_next_round",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy(
        "Only the tournament's organizers and co-organizers pair the next round of a stage."
    ),
    when=services.NEXT_ROUND_CONDITIONS,
    run=_next_round,
)

record_shootout = Action(
    name="scoring.record_shootout",
    permission="scoring.record_shootout",
    who=format_lazy(
        gettext_lazy("Only {roles} records a shoot-out."), roles=services.RECORD_SHOOTOUT_ROLES
    ),
    when=services.SHOOTOUT_CONDITIONS,
    fields=("twenties",),
    run=_shootout,
)

#: The steps of a stage's row on the category page that take it on, by the template's names.
PROGRESSION_STEPS = (advance, draw_next_round, undo_advance)
