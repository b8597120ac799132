"""The data model of a crokinole tournament.

Invariants that the rules fix (points per round, 20s per side, board scores) are enforced twice:
as database constraints, so no path can store an impossible result, and in ``clean()``, so forms
and the API can say exactly what is wrong before anything is written.
"""

from tournaments.models.boards import Board
from tournaments.models.calls import Call, PushSubscription
from tournaments.models.categories import Category
from tournaments.models.clock import RoundClock
from tournaments.models.events import Tournament
from tournaments.models.invitations import Invitation
from tournaments.models.links import EntryLink
from tournaments.models.matches import Game, Match, Round
from tournaments.models.people import ENTRY_PEOPLE, Entry, Player, Team, people_paths, played_by
from tournaments.models.registrations import EntryRequest
from tournaments.models.registry import Person, name_key
from tournaments.models.roles import RoleChange, TournamentRole
from tournaments.models.stages import Pool, Stage

__all__ = [
    "ENTRY_PEOPLE",
    "Board",
    "Call",
    "Category",
    "Entry",
    "EntryLink",
    "EntryRequest",
    "Game",
    "Invitation",
    "Match",
    "Person",
    "Player",
    "Pool",
    "PushSubscription",
    "RoleChange",
    "Round",
    "RoundClock",
    "Stage",
    "Team",
    "Tournament",
    "TournamentRole",
    "name_key",
    "people_paths",
    "played_by",
]
