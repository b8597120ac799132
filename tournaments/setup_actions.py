"""The organizer's steps that set a tournament up, each declared once (``tournaments.actions``):
creating a tournament and changing its details.

The page that creates one (``/new/``) and the tournament's edit page take these steps, as do
``POST /api/tournaments/`` and ``PUT``/``PATCH /api/tournaments/<slug>/``. Their inputs are
``services.setup.TOURNAMENT_FIELDS``, named once: the page's form and the API's serializer are
made from that list and checked against these declarations (``tests/tournaments/test_actions``).

Creating acts on no object: the tournament does not exist yet, and the permission it needs,
``tournaments.add_tournament`` ("may create tournaments"), is a site permission held by an
account, not a role at a tournament, so it is asked with no object (``user.has_perm(perm)``).
Whoever creates a tournament becomes its organizer. Changing it is for its organizers and
co-organizers (``manage_tournament``); its web address stays (the service says so).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from tournaments.actions import Action
from tournaments.models import Tournament
from tournaments.permissions import ADD_TOURNAMENT
from tournaments.services import setup

__all__ = ["NOTHING_YET", "create_tournament", "edit_tournament"]

#: The object creating a tournament acts on: nothing yet (the site permission needs none).
NOTHING_YET = None


def _create(user: AbstractBaseUser, _nothing: None, **fields: Any) -> Tournament:
    return setup.create_tournament(
        name=fields.pop("name"), slug=fields.pop("slug"), user=user, **fields
    )


def _edit(user: AbstractBaseUser, tournament: Tournament, **fields: Any) -> Tournament:
    return setup.update_tournament(tournament=tournament, **fields)


create_tournament = Action(
    name="tournaments.create_tournament",
    permission=ADD_TOURNAMENT,
    who=gettext_lazy("Only an account that may create tournaments creates one."),
    denied=setup.who_creates,
    fields=setup.TOURNAMENT_FIELDS,
    run=_create,
    form="tournaments.forms.TournamentForm",
    serializer="tournaments.api.serializers.TournamentSerializer",
)

edit_tournament = Action(
    name="tournaments.edit_tournament",
    permission="tournaments.manage_tournament",
    who=gettext_lazy("Only the tournament's organizers may change it."),
    fields=setup.TOURNAMENT_FIELDS,
    run=_edit,
    form="tournaments.forms.TournamentForm",
    serializer="tournaments.api.serializers.TournamentSerializer",
)
