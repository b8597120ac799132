"""Following an entry's calls on a phone (``tournaments.call_actions``): the entry's own
identity alone, its private link or its player's login (whatever staff role that login holds
too); nobody else, staff included, the opponent least of all. Calling a round's boards
(``tournaments.call_round``) is for the officials who run the hall, as the round clock is."""

from __future__ import annotations

from . import Row
from .clock import OFFICIALS

#: The card owner's own identities in the matrix: their login (with or without a staff role),
#: their private link, and a referee's browser that holds their link.
OWNER = frozenset(
    {
        "owner",
        "owner-link",
        "organizer-who-plays",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "owner-link-referee",
    }
)


def owner_entry(world):
    return world.owner


ROWS = {
    "tournaments.follow_calls": Row(OWNER, owner_entry),
    "tournaments.stop_calls": Row(OWNER, owner_entry),
    # The stage drawn on boards; calling concerns no game's result: staff who play call too.
    "tournaments.call_round": Row(OFFICIALS, lambda world: world.stage),
}
