"""The organizer's steps on the tournament and its staff accounts
(``tournaments.staff_actions``): the organizers and co-organizers, whether they play or not;
deleting is the tournament's own organizer's alone (the role of its creator)."""

from __future__ import annotations

from django.contrib.auth.models import User

from tournaments.models import TournamentRole
from tournaments.services import staff

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})


def made_here(world) -> staff.StaffAccount:
    """A volunteer's account that the staff page created and nobody has used yet."""
    user, _ = staff.create_account(
        tournament=world.tournament,
        username=f"volunteer-{world.tournament.slug}",
        first_name="Vol",
        last_name="Unteer",
        role=TournamentRole.Role.REFEREE,
        actor=world.users["organizer"],
    )
    return staff.StaffAccount(world.tournament, User.objects.get(pk=user.pk))


def locked_out(world) -> staff.StaffAccount:
    """A referee's account after too many wrong passwords (axes' own records)."""
    from axes.models import AccessAttempt

    account = made_here(world)
    AccessAttempt.objects.create(
        username=account.user.username,
        ip_address="10.0.0.9",
        user_agent="matrix",
        failures_since_start=1000,
        get_data="",
        post_data="",
        http_accept="",
        path_info="/accounts/login/",
    )
    return account


ROWS = {
    "tournaments.reissue_password_link": Row(ORGANIZERS, made_here),
    "tournaments.unlock_login": Row(ORGANIZERS, locked_out),
    "tournaments.delete_tournament": Row(
        frozenset({"organizer", "organizer-who-plays"}), lambda world: world.tournament
    ),
}
