"""The organizer's steps on entries, each declared once (``tournaments.actions``): registering a
player (with their singles entries), entering a player or a team into one more category,
pairing a doubles team, changing an entry (its seed, its check-in) and the check-in desk, one
entry at a time or many at once.

The registration, teams, category and check-in pages take these steps, and so does the API
(``/api/players/``, ``/api/entries/``, ``/api/categories/<id>/check-in/``); the check-in rows ask
``check_in_entry`` whether their toggle applies and, if not, show why. The preconditions live
with their services (``services.registration``), which ask them again, so a service called from
elsewhere refuses the same things in the same words. Withdrawing, reinstating and disqualifying
an entry are rulings, declared with them.

All of them are the organizers' and co-organizers' (``manage_tournament``), whether they play or
not: registering and checking in decide no game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext, gettext_lazy

from tournaments.actions import Action, Refused
from tournaments.models import Category, Entry, Player, Team, Tournament
from tournaments.permissions import MANAGE_TOURNAMENT
from tournaments.services import entries, registration

__all__ = [
    "PLAYER_FIELDS",
    "check_in_entry",
    "check_in_many",
    "edit_entry",
    "enter_player",
    "enter_team",
    "pair_team",
    "register_player",
]

WHO = gettext_lazy("Only the tournament's organizers may change it.")

#: A player's registration, named once: the registration form's fields. The API takes the same
#: but the categories (it enters them one by one, ``POST /api/entries/``). ``person`` is who the
#: player is in the site's registry (``registration.register_player_in_registry``).
PLAYER_FIELDS = (
    "first_name",
    "last_name",
    "number",
    "club",
    "country",
    "categories",
    "federation_id",
    "federation",
    "person",
)


def _register(user: AbstractBaseUser, tournament: Tournament, **fields: Any) -> Player:
    return registration.register_player_in_registry(tournament=tournament, by=user, **fields)


def _enter_player(user: AbstractBaseUser, category: Category, *, player: Player) -> Entry:
    return registration.enter_player(player=player, category=category)


def _enter_team(user: AbstractBaseUser, category: Category, *, team: Team) -> Entry:
    return registration.enter_team(category=category, team=team)


def _within(tournament: Tournament, category: Category | None) -> None:
    """A step on a tournament acts on its own categories only (the pages offer no other)."""
    if category is not None and category.tournament_id != tournament.pk:
        raise Refused(
            gettext("%(category)s is not in %(tournament)s.")
            % {"category": category.name, "tournament": tournament.name},
            field="category",
        )


def _pair(user: AbstractBaseUser, tournament: Tournament, **fields: Any) -> Entry:
    _within(tournament, fields.get("category"))
    return registration.pair_team(**fields)


def _edit(user: AbstractBaseUser, entry: Entry, **fields: Any) -> Entry:
    return entries.update_entry(entry=entry, **fields)


def _check_in(user: AbstractBaseUser, entry: Entry, *, checked_in: bool) -> Entry:
    return registration.set_checked_in(entry=entry, checked_in=checked_in)


def _check_in_many(
    user: AbstractBaseUser,
    tournament: Tournament,
    *,
    category: Category | None = None,
    everyone: bool = False,
    numbers: Sequence[int] | None = None,
    entries: Sequence[int] | None = None,
) -> registration.BulkCheckIn:
    """Everyone (of the tournament, or of ``category``), the entries listed by id (of
    ``category``), or the entries of the players whose ID numbers are listed."""
    _within(tournament, category)
    if everyone:
        return registration.check_in_everyone(tournament=tournament, category=category)
    if entries is not None and category is not None:
        return registration.check_in_entries(category=category, entry_ids=entries)
    if numbers is not None:
        return registration.check_in_numbers(
            tournament=tournament, numbers=numbers, category=category
        )
    wrong = "check_in_many: everyone, numbers, or a category's entries"  # untranslated: a bug
    raise TypeError(wrong)


register_player = Action(
    name="tournaments.register_player",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    fields=PLAYER_FIELDS,
    run=_register,
    form="tournaments.forms.PlayerForm",
)

enter_player = Action(
    name="tournaments.enter_player",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    when=(registration.takes_players,),
    fields=("player",),
    run=_enter_player,
    form="tournaments.forms.EnterPlayerForm",
)

enter_team = Action(
    name="tournaments.enter_team",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    when=(registration.takes_teams,),
    fields=("team",),
    run=_enter_team,
)

pair_team = Action(
    name="tournaments.pair_team",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    when=(registration.has_doubles,),
    fields=("category", "player_one", "player_two", "name"),
    run=_pair,
    form="tournaments.forms.TeamForm",
)

edit_entry = Action(
    name="tournaments.edit_entry",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    fields=entries.ENTRY_FIELDS,
    run=_edit,
)

check_in_entry = Action(
    name="tournaments.check_in_entry",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    when=(registration.not_withdrawn,),
    fields=("checked_in",),
    run=_check_in,
)

check_in_many = Action(
    name="tournaments.check_in_many",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    fields=("category", "everyone", "numbers", "entries"),
    run=_check_in_many,
)
