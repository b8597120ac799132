"""Setting a tournament up (``tournaments.setup_actions``): creating one is for an account that
holds the site permission "may create tournaments", whatever role it holds anywhere (here the
organizer's login is given it, as a superuser or the first run would: the co-organizer, without
it, is refused); changing it is for its organizers and co-organizers, whether they play or not.
"""

from __future__ import annotations

from tests.factories import allow_creating_tournaments
from tournaments.setup_actions import NOTHING_YET

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})


def may_create(world) -> None:
    """Nothing yet (the tournament to create), once the organizer's login may create one."""
    allow_creating_tournaments(world.users["organizer"])
    return NOTHING_YET


ROWS = {
    "tournaments.create_tournament": Row(frozenset({"organizer"}), may_create),
    "tournaments.edit_tournament": Row(ORGANIZERS, lambda world: world.tournament),
}
