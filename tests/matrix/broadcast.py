"""The broadcast kit (``simulation.broadcast.actions``): the organizers keep the stream queue,
whether they play or not (choosing what the stream shows rules on no game); the officials enter
a featured match's live rounds, never in a match they play in."""

from __future__ import annotations

from simulation.broadcast import services

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})
#: The officials who do not play in the world's match.
SCORERS = frozenset({"organizer", "co-organizer", "head-referee", "referee", "scoring-table"})
#: The officials who play in it (their login, or a referee's browser holding the owner's link).
SCORERS_WHO_PLAY = frozenset(
    {
        "organizer-who-plays",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
        "head-referee-opponent",
        "owner-link-referee",
    }
)


def featured(world):
    """The world's match featured on the stream (the queue's row)."""
    return services.add_to_queue(world.tournament, world.game.match, None)


ROWS = {
    "broadcast.queue_match": Row(ORGANIZERS, lambda world: world.tournament),
    "broadcast.change_queue": Row(ORGANIZERS, featured),
    "broadcast.score_round": Row(
        SCORERS, lambda world: featured(world).match, conflicts=SCORERS_WHO_PLAY
    ),
}
