"""The ranking's steps (``scoring.ratings.actions``): recomputing every rating is the site's
record keepers' (its staff accounts), which no tournament role reaches, so nobody of the
matrix's roles; publishing an event to the ranking is its organizers', whether they play or
not (it decides no game), once the record keepers said the event counts, which is theirs
alone."""

from __future__ import annotations

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})


def counted_tournament(world):
    """The matrix's tournament once a record keeper said it counts for the ranking."""
    world.tournament.rated = True
    world.tournament.save(update_fields=["rated"])
    return world.tournament


ROWS = {
    "scoring.recompute_ratings": Row(frozenset(), lambda world: None),
    "scoring.publish_to_ranking": Row(ORGANIZERS, counted_tournament),
    # Which events count is the record keepers' (site staff): no tournament role reaches it.
    "scoring.rate_tournament": Row(frozenset(), lambda world: world.tournament),
}
