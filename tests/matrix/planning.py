"""Planning the day (``simulation.planning.actions``): a planning dry run is the tournament's
organizers' and co-organizers', whether they play or not; no game is ruled on."""

from __future__ import annotations

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})

ROWS = {
    "planning.start_plan": Row(ORGANIZERS, lambda world: world.tournament),
}
