"""The roles at a tournament (``tournaments.role_actions``): inviting, creating staff accounts,
taking a role back, withdrawing an invitation and the permission to create tournaments are the
organizers' and co-organizers', whether they play or not."""

from __future__ import annotations

from tests.factories import allow_creating_tournaments
from tournaments.models import Invitation, TournamentRole
from tournaments.services import invitations, staff

from . import Row
from .staff import made_here

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})


def referee_role(world) -> TournamentRole:
    """The referee's role, which the staff page gives and takes back."""
    return TournamentRole.objects.get(
        tournament=world.tournament, user=world.users["referee"], role=TournamentRole.Role.REFEREE
    )


def pending(world) -> Invitation:
    """An invitation to a role that nobody has answered yet."""
    return invitations.invite_to_role(
        tournament=world.tournament,
        username="volunteer-invited",
        role=TournamentRole.Role.SCORING_TABLE,
        actor=world.users["organizer"],
    )


def creator(world) -> staff.StaffAccount:
    """A volunteer of the staff who may create tournaments already."""
    account = made_here(world)
    allow_creating_tournaments(account.user)
    return account


ROWS = {
    "tournaments.invite_to_role": Row(ORGANIZERS, lambda world: world.tournament),
    "tournaments.create_staff_account": Row(ORGANIZERS, lambda world: world.tournament),
    "tournaments.revoke_role": Row(ORGANIZERS, referee_role),
    "tournaments.withdraw_invitation": Row(ORGANIZERS, pending),
    "tournaments.allow_creating": Row(ORGANIZERS, made_here),
    "tournaments.disallow_creating": Row(ORGANIZERS, creator),
}
