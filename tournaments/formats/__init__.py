"""Pairing and scheduling, free of Django: plain values in, plain values out.

The tournament app's services translate models to and from these values in one place, so the
draw logic can be tested on its own, run from the command line, and reused by a Celery worker.
"""

from .boards import TimeSlot, assign_boards, assign_boards_in_slots, board_repeats, time_slots
from .knockout import (
    THIRD_PLACE,
    Bracket,
    Match,
    Slot,
    Source,
    advance,
    bracket_order,
    crossover_seeds,
    placements,
    pool_crossover,
    single_elimination,
)
from .pairing import EntryId, Pairing, Round, byes_taken, check_rounds, played_pairs
from .preliminary import preliminary_rounds
from .round_robin import (
    berger_round,
    berger_rounds,
    berger_table,
    club_conflicts,
    pool_label,
    snake_pools,
    snake_slots,
)
from .shootout import CutLineTie, RankedEntry, shootout_at_cut
from .swiss import SwissStanding, swiss_round
from .timing import equalising_shot, timed_round_points
from .triples import three_player_rounds

__all__ = [
    "THIRD_PLACE",
    "Bracket",
    "CutLineTie",
    "EntryId",
    "Match",
    "Pairing",
    "RankedEntry",
    "Round",
    "Slot",
    "Source",
    "SwissStanding",
    "TimeSlot",
    "advance",
    "assign_boards",
    "assign_boards_in_slots",
    "berger_round",
    "berger_rounds",
    "berger_table",
    "board_repeats",
    "bracket_order",
    "byes_taken",
    "check_rounds",
    "club_conflicts",
    "crossover_seeds",
    "equalising_shot",
    "placements",
    "played_pairs",
    "pool_crossover",
    "pool_label",
    "preliminary_rounds",
    "shootout_at_cut",
    "single_elimination",
    "snake_pools",
    "snake_slots",
    "swiss_round",
    "three_player_rounds",
    "time_slots",
    "timed_round_points",
]
