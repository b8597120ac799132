"""Registration and check-in (``tournaments.entry_actions``): the organizers and co-organizers,
whether they play or not (registering and checking in decide no game)."""

from __future__ import annotations

from tests.factories import CategoryFactory
from tournaments.models import Category

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})


def doubles(world) -> Category:
    """A doubles category of the matrix's tournament, which takes teams."""
    return CategoryFactory(tournament=world.tournament, name="Matrix doubles", doubles=True)


def with_doubles(world):
    """The tournament once it has a doubles category, where teams are paired."""
    doubles(world)
    return world.tournament


ROWS = {
    "tournaments.register_player": Row(ORGANIZERS, lambda world: world.tournament),
    "tournaments.enter_player": Row(ORGANIZERS, lambda world: world.stage.category),
    "tournaments.enter_team": Row(ORGANIZERS, doubles),
    "tournaments.pair_team": Row(ORGANIZERS, with_doubles),
    "tournaments.edit_entry": Row(ORGANIZERS, lambda world: world.other),
    "tournaments.check_in_entry": Row(ORGANIZERS, lambda world: world.other),
    "tournaments.check_in_many": Row(ORGANIZERS, lambda world: world.tournament),
}
