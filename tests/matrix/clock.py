"""The round clock's buttons (``tournaments.clock_actions``): the officials who run the hall,
whether they play or not (the clock concerns no game); players and visitors only watch it."""

from __future__ import annotations

from django.utils import timezone

from tournaments.services import clock as clocks

from . import Row

#: Every staff role of the matrix, with or without a game of its own here.
OFFICIALS = frozenset(
    {
        "organizer",
        "co-organizer",
        "head-referee",
        "referee",
        "scoring-table",
        "organizer-who-plays",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "head-referee-opponent",
        "owner-link-referee",
    }
)


def running(world):
    """The tournament with its clock counting."""
    clocks.start(tournament=world.tournament, user=world.users["referee"], now=timezone.now())
    return world.tournament


def paused(world):
    """The tournament with its clock paused mid-round."""
    running(world)
    clocks.pause(tournament=world.tournament, user=world.users["referee"], now=timezone.now())
    return world.tournament


ROWS = {
    "tournaments.start_clock": Row(OFFICIALS, lambda world: world.tournament),
    "tournaments.pause_clock": Row(OFFICIALS, running),
    "tournaments.resume_clock": Row(OFFICIALS, paused),
    "tournaments.reset_clock": Row(OFFICIALS, running),
    "tournaments.set_clock": Row(OFFICIALS, lambda world: world.tournament),
}
