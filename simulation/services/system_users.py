"""The accounts that enter simulated games, with the roles people in those jobs hold.

A simulated game is written like any other: a referee fills each side's row, the opponent's ID
and the initials SIM validate it, and the scoring table verifies the cards. So the simulation
needs a referee and a scoring-table account at the tournament. They are ordinary users with no
usable password (nobody can log in as them) and only those roles; their names show in each row's
history, so a simulated result is never mistaken for one a person entered.
"""

from __future__ import annotations

from dataclasses import dataclass

from simulation.models import SimulationUser
from tournaments.models import Tournament, TournamentRole

REFEREE_USERNAME = "simulation-referee"
TABLE_USERNAME = "simulation-scoring-table"
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
    return user


def system_users(tournament: Tournament) -> SystemUsers:
    """The simulation's referee and scoring-table accounts, holding those roles at
    ``tournament`` (given on first use)."""
    referee = _account(REFEREE_USERNAME, "referee")
    table = _account(TABLE_USERNAME, "scoring table")  # untranslated: a stored account name
    TournamentRole.objects.get_or_create(
        tournament=tournament, user=referee, role=TournamentRole.Role.REFEREE
    )
    TournamentRole.objects.get_or_create(
        tournament=tournament, user=table, role=TournamentRole.Role.SCORING_TABLE
    )
    return SystemUsers(referee=referee, table=table)
