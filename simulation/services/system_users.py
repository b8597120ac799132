"""The accounts that enter simulated games, with the roles people in those jobs hold.

A simulated game is written like any other: a referee fills each side's row, the opponent's ID
and the initials SIM validate it, and the scoring table verifies the cards. So the simulation
needs a referee and a scoring-table account at the tournament. They are ordinary users with no
usable password (nobody can log in as them) and only those roles; their names show in each row's
history, so a simulated result is never mistaken for one a person entered.

They are machinery, not staff: their usernames are the marker ``tournaments.models.roles``
keeps (``SIMULATION_USERNAMES``), which the tournament's staff list (the staff page and
``/api/roles/``) leaves out and no staff account may take; their roles are given without a
history row, so the audit page of people's changes does not list them either. An account of
one of those names that someone can sign in with is a person's: it is never used.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from simulation.models import SimulationUser
from tournaments.models import Tournament, TournamentRole
from tournaments.models.roles import SIMULATION_REFEREE_USERNAME, SIMULATION_TABLE_USERNAME

REFEREE_USERNAME = SIMULATION_REFEREE_USERNAME
TABLE_USERNAME = SIMULATION_TABLE_USERNAME
INITIALS = "SIM"


@dataclass(frozen=True)
class SystemUsers:
    referee: SimulationUser
    table: SimulationUser


def _account(username: str, last_name: str) -> SimulationUser:
    user, created = SimulationUser.objects.get_or_create(
        username=username, defaults={"first_name": "Simulation", "last_name": last_name}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    elif user.has_usable_password() or user.last_login is not None:
        # Hidden from every staff list and holding roles wherever games are auto-played, an
        # account someone signs in with would be a person with roles nobody sees.
        raise ValidationError(
            _(
                "The account “%(username)s” has a password or has been signed in with: it is "
                "a person's login, not the simulation's. A superuser must rename it (in "
                "/admin/) before games are auto-played."
            )
            % {"username": username}
        )
    return user


def _give(tournament: Tournament, user: SimulationUser, role: str) -> None:
    """Give ``role`` at ``tournament`` once, without a history row: the audit page lists the
    changes people made to the staff, and this account is nobody's staff."""
    if TournamentRole.objects.filter(tournament=tournament, user=user, role=role).exists():
        return
    held = TournamentRole(tournament=tournament, user=user, role=role)
    held.skip_history_when_saving = True
    held.save()


def system_users(tournament: Tournament) -> SystemUsers:
    """The simulation's referee and scoring-table accounts, holding those roles at
    ``tournament`` (given on first use)."""
    referee = _account(REFEREE_USERNAME, "referee")
    table = _account(TABLE_USERNAME, "scoring table")  # untranslated: a stored account name
    _give(tournament, referee, TournamentRole.Role.REFEREE)
    _give(tournament, table, TournamentRole.Role.SCORING_TABLE)
    return SystemUsers(referee=referee, table=table)
