"""The rules of crokinole as pure functions over plain data.

Nothing here imports Django or the compiled physics: the rules judge the *facts of a shot* (where
every disc ended, what touched what, which disc crossed the shooting line or left the surface),
whatever produced them. The governing texts are the NCA competitive rules and the WCC tournament
rules; the family rulebook and the board maker's leaflet supply the named variants.

Modules, each named for what it decides:

- ``geometry``: the board's radii and line width the rules measure against.
- ``variants``: the named rule sets ("nca", "wcc", "family") and their switches.
- ``seats``: seat numbering, turn order and who starts each round and game (NCA 2a, 4, 5).
- ``placement``: where a shot may start and how it leaves the finger (NCA 7d).
- ``regions``: which scoring region a disc counts in (NCA 6).
- ``facts``: the plain-data facts of a shot that the rules judge.
- ``validity``: whether a shot is valid (NCA 3a).
- ``removal``: what leaves play after a shot (NCA 3b, 8c-8f).
- ``ruling``: the whole ruling on one shot.
- ``tally``: board totals and the 2-1-0 round points (NCA 2a).
- ``round``: a round's turn keeping (NCA 2a, 4a, 5a).
- ``timing``: the game clock, the buzzer and the equalising shot (NCA 8b, WCC timing).
"""

from simulation.rules.facts import Contact, DiscFacts, EndStatus, ShotFacts
from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.placement import Placement, ShotRequest, parse_shot, place_shot
from simulation.rules.regions import disc_value, reaches_the_15, region_value
from simulation.rules.removal import Reason
from simulation.rules.round import RoundKeeper
from simulation.rules.ruling import Removal, Ruling, Twenty, judge_shot
from simulation.rules.seats import (
    DOUBLES,
    SINGLES,
    THREE_ALONE,
    TWO_V_ONE,
    game_first_seat,
    hammer_seat,
    next_seat,
    round_first_seat,
    seating_kind,
    turn_cycle,
    turn_order,
)
from simulation.rules.state import BoardState, Disc, parse_seats, parse_state
from simulation.rules.tally import board_scores, round_points
from simulation.rules.timing import GameClock, equalising_shot_due
from simulation.rules.validity import Foul
from simulation.rules.variants import (
    RULE_SETS,
    RemovalScope,
    ReturningDamage,
    RuleSet,
    get_rules,
)

__all__ = [
    "DEFAULT_GEOMETRY",
    "DOUBLES",
    "RULE_SETS",
    "SINGLES",
    "THREE_ALONE",
    "TWO_V_ONE",
    "BoardGeometry",
    "BoardState",
    "Contact",
    "Disc",
    "DiscFacts",
    "EndStatus",
    "Foul",
    "GameClock",
    "Placement",
    "Reason",
    "Removal",
    "RemovalScope",
    "ReturningDamage",
    "RoundKeeper",
    "RuleSet",
    "Ruling",
    "ShotFacts",
    "ShotRequest",
    "Twenty",
    "board_scores",
    "disc_value",
    "equalising_shot_due",
    "game_first_seat",
    "get_rules",
    "hammer_seat",
    "judge_shot",
    "next_seat",
    "parse_seats",
    "parse_shot",
    "parse_state",
    "place_shot",
    "reaches_the_15",
    "region_value",
    "round_first_seat",
    "round_points",
    "seating_kind",
    "turn_cycle",
    "turn_order",
]
