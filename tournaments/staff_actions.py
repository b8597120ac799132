"""The organizer's steps on the tournament itself and its staff accounts, each declared once
(``tournaments.actions``): a new set-password link for a staff account, unlocking a staff login
locked out after failed sign-ins, and deleting the tournament.

The staff page and the delete page ask each step whether its button applies and, if not, why;
their posts and the API's ``DELETE /api/tournaments/<slug>/`` take the same declarations. A
staff account's steps act on a ``services.staff.StaffAccount`` (the tournament and the account:
the permission is asked of its tournament); deleting acts on the tournament. The preconditions
live with their services (``services.staff``, ``services.setup``), which ask them again, so that
a service called from anywhere else refuses the same things in the same words.

Who may: the staff's accounts are the organizers' and co-organizers' (``manage_staff``), as is
the rest of the staff page. Deleting is the organizer's alone (``delete_tournament``): the
organizer role stays with whoever created or imported the tournament and is never given on the
staff page, while a co-organizer, given the role there, runs the event but does not own it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from tournaments.actions import Action
from tournaments.models import Tournament
from tournaments.selectors import DeletionSummary
from tournaments.services import setup, staff
from tournaments.services.staff import StaffAccount

__all__ = ["STAFF_ACCOUNT_STEPS", "delete_tournament", "reissue_password_link", "unlock_login"]


def _reissue(user: AbstractBaseUser, account: StaffAccount) -> str:
    return staff.renew_set_password_link(
        tournament=account.tournament, user=account.user, actor=user
    )


def _unlock(user: AbstractBaseUser, account: StaffAccount) -> int:
    return staff.unlock_login(tournament=account.tournament, user=account.user, actor=user)


def _delete(user: AbstractBaseUser, tournament: Tournament, *, confirm: str) -> DeletionSummary:
    return setup.delete_tournament(tournament=tournament, confirm=confirm, actor=user)


reissue_password_link = Action(
    name="tournaments.reissue_password_link",
    permission="tournaments.manage_staff",
    who=gettext_lazy(
        "Only the tournament's organizers and co-organizers make set-password links for its staff."
    ),
    when=(staff.made_here, staff.only_here),
    run=_reissue,
)

unlock_login = Action(
    name="tournaments.unlock_login",
    permission="tournaments.manage_staff",
    who=gettext_lazy(
        "Only the tournament's organizers and co-organizers unlock its staff's logins."
    ),
    when=(staff.is_locked_out,),
    run=_unlock,
)

delete_tournament = Action(
    name="tournaments.delete_tournament",
    permission="tournaments.delete_tournament",
    who=gettext_lazy(
        "Only the tournament's organizer, who created it, deletes it; a co-organizer cannot."
    ),
    when=(setup.nothing_running,),
    fields=("confirm",),
    run=_delete,
)

#: The steps of a line of the staff page, in the order its buttons are offered.
STAFF_ACCOUNT_STEPS = (reissue_password_link, unlock_login)
