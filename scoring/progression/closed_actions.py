"""The head referee's change of a closed result, declared once (``tournaments.actions``).

Once a stage has advanced its results are locked (``scoring.progression.locks``); the head
referee changes one of them from the closed-stage page or the API, seeing first what it would
mean for the next stage (``preview``), then writing it with a reason and their initials
(``scoring.progression.closed.change_closed_result``). The closed-stage page asks this step of
each game whether its link applies and, if not, why; the change page and the API take it.

Its object is the game; its precondition (the stage is closed) lives beside the service, which
asks it again, with the permission, on the game as it reads it under the game's lock.
"""

from __future__ import annotations

from scoring.permissions import conflict_refusal
from scoring.progression.closed import (
    CHANGE_WHO,
    ClosedChange,
    change_closed_result,
    stage_is_closed,
)
from tournaments.actions import Action
from tournaments.models import Game

__all__ = ["change_closed_result_step"]


def _change(
    user, game: Game, *, rounds, reason: str = "", initials: str = "", preview: bool = False
) -> ClosedChange:
    return change_closed_result(
        game=game, rounds=rounds, user=user, reason=reason, initials=initials, preview=preview
    )


change_closed_result_step = Action(
    name="scoring.change_closed_result",
    permission="scoring.change_closed_result",
    who=CHANGE_WHO,
    denied=conflict_refusal,
    when=(stage_is_closed,),
    fields=("rounds", "reason", "initials", "preview"),
    run=_change,
    service_checks=True,
    serializer="scoring.api.locks.ClosedChangeInputSerializer",
)
