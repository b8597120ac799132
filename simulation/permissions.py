"""Who may do what in the simulation's public-stage parts (the ``rules`` package decides).

- ``simulation.score_featured``: enter a featured match's rounds as they are played, for the
  stream and its win chance: the tournament's officials (organizers, referees, the scoring
  table), never in a match they play in themselves (``scoring.permissions.plays_in``), as for
  every staff write of a result.
- ``simulation.manage_stream``: choose the featured matches and their order: the organizers.
- Planning dry runs are the organizers' (``tournaments.manage_tournament``), like dry runs.
"""

from __future__ import annotations

import rules

from scoring.permissions import plays_in
from tournaments.permissions import is_official, is_organizer

SCORE_FEATURED = "simulation.score_featured"
MANAGE_STREAM = "simulation.manage_stream"

rules.add_perm(SCORE_FEATURED, is_official & ~plays_in)
rules.add_perm(MANAGE_STREAM, is_organizer)
