"""What a player sees before a shot, as plain arrays: the board, the turn, the round so far.

The shot-selection code works on numpy arrays, never on the JSON state, so that generating and
scoring hundreds of candidate shots costs no per-disc Python. :class:`Situation` is built once per
decision (by :func:`situation_from_state`) and handed to the candidate generator, the evaluator and
the search.

Board figures come from the physics parameters, so the player plans on the board it plays on.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulation.physics import DEFAULT_PARAMS, PhysicsParams
from simulation.physics.geometry import peg_positions
from simulation.rules.seats import seat_angle
from simulation.rules.state import BoardState, Disc
from simulation.rules.variants import RuleSet


@dataclass(frozen=True)
class BoardFigures:
    """The radii and constants the players plan with, derived from the physics parameters."""

    disc_r: float
    peg_r: float
    peg_circle_r: float
    shooting_r: float
    surface_r: float
    touch_r: float
    """Centre distance at which a disc touches the shooting line (out of play)."""
    fifteen_r: float
    """Centre distance up to which a disc counts 15 (wholly inside the 15 line)."""
    ten_r: float
    """Centre distance up to which a disc counts 10."""
    reach_15_r: float
    """Centre distance up to which a disc touches the 15 line or lies inside (no-hiding test)."""
    decel: float
    transfer: float
    """Share of the striker's normal speed a resting disc receives in a head-on hit: (1 + e)/2."""
    pegs: np.ndarray
    position_limit: float
    """Largest legal start position (degrees) from a seat's centre line (NCA rules)."""

    @classmethod
    def from_params(cls, params: PhysicsParams = DEFAULT_PARAMS) -> BoardFigures:
        r = params.disc_radius
        half = 0.5 * params.line_width
        reach = r + half
        return cls(
            disc_r=r,
            peg_r=params.peg_radius,
            peg_circle_r=params.peg_circle_radius,
            shooting_r=params.shooting_line_radius,
            surface_r=params.surface_radius,
            touch_r=params.touch_radius,
            fifteen_r=params.peg_circle_radius - half - r,
            ten_r=params.ten_five_radius - half - r,
            reach_15_r=params.peg_circle_radius + half + r,
            decel=params.decel,
            transfer=0.5 * (1.0 + params.e_disc),
            pegs=peg_positions(params),
            position_limit=45.0 + math.degrees(math.asin(reach / params.shooting_line_radius)),
        )


FIGURES = BoardFigures.from_params()
"""The tournament board of the default physics."""


@dataclass(frozen=True)
class Situation:
    """One decision: who shoots, the discs in play, and what is left of the round.

    ``my_left`` / ``opp_left`` count the shots each side still has *after* this one;
    ``my_seats_next`` / ``opp_seats_next`` are the seats of each side that still shoot after it
    (where the threats to a disc come from). ``twenties`` are the 20s set aside so far, by side.
    """

    seat: int
    side: int
    seats: Mapping[int, int]
    ids: tuple[str, ...]
    positions: np.ndarray
    sides: np.ndarray
    leaners: np.ndarray
    my_left: int
    opp_left: int
    my_seats_next: tuple[int, ...]
    opp_seats_next: tuple[int, ...]
    twenties: tuple[int, int]
    rules: RuleSet
    my_open_20: float = 0.55
    """The shooter's side's open-20 rate (what a free shot at the 20 is worth to it)."""
    opp_open_20: float = 0.55
    """The opponents' open-20 rate: strong players know how well the other side shoots."""

    @property
    def n_discs(self) -> int:
        return len(self.ids)

    @property
    def opponent_mask(self) -> np.ndarray:
        return self.sides != self.side

    @property
    def opponents_in_play(self) -> bool:
        return bool(self.opponent_mask.any())

    @property
    def seat_angle(self) -> float:
        """The shooter's seat direction seen from the centre, degrees."""
        return seat_angle(self.seat)


@functools.lru_cache(maxsize=64)
def seat_angles(seats: tuple[int, ...]) -> np.ndarray:
    """The directions (degrees) of these seats, as the compiled players read them (cached: never
    written to)."""
    return np.array([seat_angle(s) for s in seats], dtype=np.float64)


def situation_from_state(
    state: Mapping[str, Any] | BoardState,
    seat: int,
    remaining_order: Sequence[int],
    twenties: Sequence[int],
    rules: RuleSet,
    open_20: Mapping[int, float] | None = None,
) -> Situation:
    """The situation of ``seat`` about to shoot from a JSON ``state`` (read as it is: the rules'
    ``parse_state`` is what checks one) or from the rules' board (a game in play holds one).

    ``remaining_order`` is the seat of every shot still to come in the round after this one;
    ``open_20`` the open-20 rate of the player in each seat (default 0.55 each).
    """
    board = state if isinstance(state, BoardState) else _board(state)
    seats = dict(sorted(board.seats.items()))  # whole numbers already: the board's, or _board's
    side = seats[seat]
    discs = board.discs
    mine = [s for s in remaining_order if seats[s] == side]
    theirs = [s for s in remaining_order if seats[s] != side]
    return Situation(
        seat=seat,
        side=side,
        seats=seats,
        ids=tuple(d.id for d in discs),
        positions=np.array([(d.x, d.y) for d in discs], dtype=np.float64).reshape(-1, 2),
        sides=np.array([d.side for d in discs], dtype=np.int64),
        leaners=np.array([d.leaner for d in discs], dtype=np.bool_),
        my_left=len(mine),
        opp_left=len(theirs),
        my_seats_next=tuple(sorted(set(mine))),
        opp_seats_next=tuple(sorted(set(theirs))),
        twenties=(int(twenties[0]), int(twenties[1])),
        rules=rules,
        my_open_20=_side_rate(open_20, seats, side, True),
        opp_open_20=_side_rate(open_20, seats, side, False),
    )


def _board(state: Mapping[str, Any]) -> BoardState:
    """The board of a JSON state, unchecked (its seats as whole numbers, as a board has them)."""
    discs = tuple(
        Disc(d["id"], d["side"], d["x"], d["y"], bool(d.get("leaner", False)))
        for d in state.get("discs", [])
    )
    seats = {int(k): int(v) for k, v in state.get("seats", {"0": 0, "2": 1}).items()}
    return BoardState(discs=discs, seats=seats)


def _side_rate(
    rates: Mapping[int, float] | None, seats: Mapping[int, int], side: int, own: bool
) -> float:
    if rates is None:
        return 0.55
    values = [rates[s] for s, v in seats.items() if (v == side) == own]
    return float(sum(values) / len(values))
