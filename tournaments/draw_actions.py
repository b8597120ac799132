"""The organizer's steps on a stage's draw, each declared once (``tournaments.actions``): draw a
stage, undo its draw, swap two entries in it, give its matches their start times, set the seeds
its draws are made from, and move an entry to another round-robin pool (which draws the pools'
matches again).

The category page, the draw page and the seed editor ask each step whether its button applies
and, if not, why; their posts and the API (``tournaments.api.draws``, ``tournaments.api.seeding``)
take the same declarations. The preconditions live with their services
(``services.draws``, ``services.seeding``), which ask them again in their transaction, so that a
service called from anywhere else (the advance, the simulation) refuses the same things in the
same words. Advancing a stage and drawing a Swiss stage's next round need its results: they are
``scoring.progression.actions``.

Who may: the organizers and co-organizers (``tournaments.manage_tournament``), like every
organizer page; the draws rule on no game, so an organizer who plays keeps them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from tournaments.actions import Action
from tournaments.models import Category, Entry, Match, Stage
from tournaments.permissions import MANAGE_TOURNAMENT
from tournaments.services import draws, schedule, seeding

__all__ = [
    "DRAW_STEPS",
    "draw_stage",
    "move_to_pool",
    "schedule_stage",
    "set_seeds",
    "swap_entries",
    "undo_draw",
]


def _draw(user: AbstractBaseUser, stage: Stage, **options: Any) -> list[Match]:
    return draws.draw_stage(stage, **options)


def _undo(user: AbstractBaseUser, stage: Stage) -> int:
    return draws.undo_draw(stage)


def _swap(user: AbstractBaseUser, stage: Stage, *, entry_a: Entry, entry_b: Entry) -> int:
    return draws.swap_entries(stage, entry_a, entry_b)


def _schedule(
    user: AbstractBaseUser,
    stage: Stage,
    *,
    start: datetime,
    minutes_per_game: int | None = None,
    break_minutes: int | None = None,
) -> list[Match]:
    return schedule.schedule_stage(stage, start, minutes_per_game, break_minutes=break_minutes or 0)


def _seeds(user: AbstractBaseUser, category: Category, *, seeds: dict) -> list[Entry]:
    return seeding.set_seeds(category=category, seeds=seeds)


def _move(user: AbstractBaseUser, stage: Stage, *, entry: Entry, pool: str) -> seeding.PoolMove:
    return seeding.move_to_pool(stage=stage, entry=entry, pool=pool)


draw_stage = Action(
    name="tournaments.draw_stage",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers and co-organizers draw its stages."),
    when=draws.DRAW_CONDITIONS,
    fields=("method", "pool_count", "double", "third_place"),
    run=_draw,
    form="tournaments.forms.StageRunForm",
    serializer="tournaments.api.draws.DrawOptionsSerializer",
)

undo_draw = Action(
    name="tournaments.undo_draw",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers and co-organizers undo a draw."),
    when=draws.UNDO_CONDITIONS,
    run=_undo,
)

swap_entries = Action(
    name="tournaments.swap_entries",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers and co-organizers swap entries in a draw."),
    when=(draws.drawn_to_swap,),
    fields=("entry_a", "entry_b"),
    run=_swap,
    serializer="tournaments.api.draws.SwapSerializer",
)

schedule_stage = Action(
    name="tournaments.schedule_stage",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy(
        "Only the tournament's organizers and co-organizers set the start times of a stage."
    ),
    when=(draws.has_matches,),
    fields=("start", "minutes_per_game", "break_minutes"),
    run=_schedule,
    form="tournaments.forms.StageScheduleForm",
)

set_seeds = Action(
    name="tournaments.set_seeds",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers and co-organizers set seeds."),
    fields=("seeds",),
    run=_seeds,
    serializer="tournaments.api.seeding.SeedsSerializer",
)

move_to_pool = Action(
    name="tournaments.move_to_pool",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy(
        "Only the tournament's organizers and co-organizers move entries between pools."
    ),
    when=seeding.POOL_MOVE_CONDITIONS,
    fields=("entry", "pool"),
    run=_move,
    serializer="tournaments.api.seeding.PoolMoveSerializer",
)

#: The steps of a stage's row on the category page that are the draw's, by the template's
#: names (``refusals``).
DRAW_STEPS = (draw_stage, undo_draw, schedule_stage)
