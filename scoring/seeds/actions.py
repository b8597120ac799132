"""Applying the seeds from ratings, declared once (``tournaments.actions``): the proposal page's
"Use these seeds" button, the API's POST and any other path take this step.

Who may: the organizers and co-organizers (``tournaments.manage_tournament``), as for the seed
editor, whose write it calls (``tournaments.services.seeding.set_seeds``); seeds rule on no game,
so an organizer who plays keeps it. The state it needs: active entries to seed, and a first
stage not drawn yet (a drawn stage keeps its draw: seeds apply to draws made from now on).
It lives here rather than beside ``set_seeds`` because it reads the record's ratings.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from scoring.seeds import services
from tournaments.actions import Action
from tournaments.models import Category, Entry
from tournaments.permissions import MANAGE_TOURNAMENT

__all__ = ["apply_seeds_from_ratings"]


def _apply(user: AbstractBaseUser, category: Category) -> list[Entry]:
    return services.write_seeds(category)


apply_seeds_from_ratings = Action(
    name="scoring.apply_seeds_from_ratings",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers and co-organizers set seeds."),
    when=services.APPLY_CONDITIONS,
    run=_apply,
)
