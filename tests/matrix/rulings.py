"""The rulings (``scoring.rulings.actions``): withdrawing, disqualifying and reinstating an entry,
the head referee's forfeit of a game or a round, and settling a dispute between two cards.

The entry steps act on the owner's opponent, whose walkovers would decide the owner's game: the
owner is not the one to record them, whatever staff role they hold (``tournaments.permissions``).
Who may is the same as ``FORFEIT_ALLOWED`` and ``ALLOWED["resolve-dispute"]`` in the role
matrix, which take these steps through the pages and the API.
"""

from __future__ import annotations

from scoring.results.services import record_game
from tournaments.models import Entry, Game
from tournaments.services.forfeits import withdraw_entry

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer"})
#: Who holds the head referee's role while playing in the owner's game (as its owner or as the
#: opponent): nobody rules on a game they play in.
HEAD_REFEREES_WHO_PLAY = frozenset({"head-referee-who-plays", "head-referee-opponent"})
#: The owner's game, won 6-2 by the owner (entry A), as official rounds.
WIN = [{"points": [2, 0], "twenties": [3, 1]}] * 3 + [{"points": [0, 2], "twenties": [1, 2]}]


def _withdrawn(world) -> Entry:
    withdraw_entry(entry=world.opponent, reason="flight home")
    return Entry.objects.select_related("player", "category").get(pk=world.opponent.pk)


def _played(world) -> Game:
    """The owner's game with its official result: both forfeits apply."""
    record_game(world.game, WIN)
    return Game.objects.select_related("match__stage__category__tournament").get(pk=world.game.pk)


def _disputed(world) -> Game:
    world.disputed()
    return Game.objects.select_related("match__stage__category__tournament").get(pk=world.game.pk)


ROWS = {
    # withdrawing is the organizers'; an organizer who plays the opponent leaves it to another
    "scoring.withdraw_entry": Row(
        ORGANIZERS,
        lambda world: world.opponent,
        conflicts=frozenset({"organizer-who-plays"}),
    ),
    # the head referee disqualifies too; never their own entry nor an opponent they play
    "scoring.disqualify_entry": Row(
        ORGANIZERS | {"head-referee"},
        lambda world: world.opponent,
        conflicts=frozenset({"organizer-who-plays"}) | HEAD_REFEREES_WHO_PLAY,
    ),
    # taking back a withdrawal is for whoever may withdraw
    "scoring.reinstate_entry": Row(
        ORGANIZERS,
        _withdrawn,
        conflicts=frozenset({"organizer-who-plays"}),
    ),
    "scoring.forfeit_game": Row(
        frozenset({"head-referee"}), _played, conflicts=HEAD_REFEREES_WHO_PLAY
    ),
    "scoring.forfeit_round": Row(
        frozenset({"head-referee"}), _played, conflicts=HEAD_REFEREES_WHO_PLAY
    ),
    "scoring.resolve_dispute": Row(
        frozenset({"head-referee"}), _disputed, conflicts=HEAD_REFEREES_WHO_PLAY
    ),
}
