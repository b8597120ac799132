"""The organizer's steps on the roles at a tournament, each declared once
(``tournaments.actions``): inviting an account to a staff role (and withdrawing the invitation),
creating a staff account with its role, taking a role back, and giving or taking back the site
permission to create tournaments.

The staff page takes these steps and asks them which buttons of a line apply (and shows why
where one does not); the API (``/api/roles/``, ``/api/tournament-creators/``) takes the same.
The preconditions live with their services (``services.staff``, ``services.invitations``), which
ask them again under their transaction.

What each acts on: the tournament (an invitation, a new account), the role held (taking it
back), the invitation (withdrawing it), or a ``services.staff.StaffAccount`` (the permission to
create tournaments: an account of the staff list, found by the services that refuse any other in
the same words). Every one is the organizers' and co-organizers' (``manage_staff``); the
organizer role itself is never given or taken here (it stays with the tournament's creator).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy

from tournaments.actions import Action
from tournaments.models import Invitation, Tournament, TournamentRole
from tournaments.permissions import MANAGE_STAFF
from tournaments.services import invitations, staff
from tournaments.services.staff import StaffAccount

__all__ = [
    "STAFF_LINE_STEPS",
    "allow_creating",
    "create_staff_account",
    "disallow_creating",
    "invite_to_role",
    "revoke_role",
    "withdraw_invitation",
]

WHO = gettext_lazy(
    "Only the tournament's organizers and co-organizers may see and change its staff."
)


def _invite(user: AbstractBaseUser, tournament: Tournament, *, username: str, role: str):
    return invitations.invite_to_role(
        tournament=tournament, username=username, role=role, actor=user
    )


def _create(
    user: AbstractBaseUser,
    tournament: Tournament,
    *,
    username: str,
    first_name: str,
    last_name: str,
    role: str,
) -> tuple[AbstractBaseUser, str]:
    return staff.create_account(
        tournament=tournament,
        username=username,
        first_name=first_name,
        last_name=last_name,
        role=role,
        actor=user,
    )


def _revoke(user: AbstractBaseUser, held: TournamentRole) -> None:
    staff.revoke_role(tournament=held.tournament, user=held.user, role=held.role, actor=user)


def _withdraw(user: AbstractBaseUser, invitation: Invitation) -> Invitation:
    return invitations.withdraw(
        tournament=invitation.tournament, invitation_id=invitation.pk, actor=user
    )


def _allow(user: AbstractBaseUser, account: StaffAccount) -> None:
    staff.set_may_create_tournaments(
        tournament=account.tournament, user=account.user, allowed=True, actor=user
    )


def _disallow(user: AbstractBaseUser, account: StaffAccount) -> None:
    staff.set_may_create_tournaments(
        tournament=account.tournament, user=account.user, allowed=False, actor=user
    )


invite_to_role = Action(
    name="tournaments.invite_to_role",
    permission=MANAGE_STAFF,
    who=WHO,
    fields=("username", "role"),
    run=_invite,
    form="tournaments.views.organizer.staff.GrantForm",
)

create_staff_account = Action(
    name="tournaments.create_staff_account",
    permission=MANAGE_STAFF,
    who=WHO,
    fields=("username", "first_name", "last_name", "role"),
    run=_create,
    form="tournaments.views.organizer.staff.AccountForm",
)

revoke_role = Action(
    name="tournaments.revoke_role",
    permission=MANAGE_STAFF,
    who=WHO,
    when=(staff.taken_back_here,),
    run=_revoke,
)

withdraw_invitation = Action(
    name="tournaments.withdraw_invitation",
    permission=MANAGE_STAFF,
    who=WHO,
    when=(invitations.is_pending,),
    run=_withdraw,
)

allow_creating = Action(
    name="tournaments.allow_creating",
    permission=MANAGE_STAFF,
    who=WHO,
    when=(staff.not_a_superuser, staff.may_not_create_yet),
    run=_allow,
)

disallow_creating = Action(
    name="tournaments.disallow_creating",
    permission=MANAGE_STAFF,
    who=WHO,
    when=(staff.not_a_superuser, staff.may_create_now),
    run=_disallow,
)

#: The steps of a staff line's permission column, in the order its buttons are offered.
STAFF_LINE_STEPS = (allow_creating, disallow_creating)
