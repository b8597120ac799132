"""The ranking's steps (``scoring.ratings.actions``): recomputing every rating is the site's
record keepers' (its staff accounts), which no tournament role reaches, so nobody of the
matrix's roles; publishing an event to the ranking is its organizers', whether they play or
not (it decides no game)."""

from __future__ import annotations

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})

ROWS = {
    "scoring.recompute_ratings": Row(frozenset(), lambda world: None),
    "scoring.publish_to_ranking": Row(ORGANIZERS, lambda world: world.tournament),
}
