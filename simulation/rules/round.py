"""Keeping a round: whose turn it is, the discs each player has left, the 20s set aside.

NCA 2a(i): each player in turn, clockwise, attempts a valid shot. NCA 4a: singles players each
begin with 8 discs and alternate turns; NCA 5a: doubles players each begin with 6. The number of
discs is a category setting (WCC Tournament Scoring Information: 5 or 6 with cues, 6 for juniors),
so it is a parameter here. NCA 2a(ii): 20s are set aside after each turn "until the end of the
round"; NCA 2a(iii): the board is counted along with them at the end.

A round may end early when time runs out (NCA 8b, WCC: "If some discs have not been shot when the
ending buzzer sounds they will remain non played"); it is then counted as it stands, once a side
that has had one shot fewer has taken one more (NCA 8b), see :mod:`simulation.rules.timing`.

The family rulebook's three-player games are kept here too: two versus one (the lone player takes
every other turn) and three players alone (three sides, three tallies of 20s).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from simulation.rules.geometry import DEFAULT_GEOMETRY, BoardGeometry
from simulation.rules.ruling import Ruling
from simulation.rules.seats import (
    check_seat,
    check_seating,
    default_discs_per_player,
    hammer_seat,
    turn_cycle,
    turn_order,
)
from simulation.rules.state import BoardState
from simulation.rules.tally import board_scores, round_points
from simulation.rules.timing import equalising_shot_due
from simulation.rules.variants import RuleSet
from tournaments.translation import _

SIDE_LETTERS = "abc"
"""Default disc ids: side 0 shoots a1, a2, ...; side 1 b1, b2, ...; side 2 (three alone) c1, ..."""


@dataclass
class RoundKeeper:
    """The running state of one round."""

    seats: Mapping[int, int]
    discs_per_player: int
    first_seat: int
    first_turn: int | None = None
    """Which turn of the seats' turn cycle opens the round (see :func:`seats.turn_order`)."""
    state: BoardState = field(init=False)
    shots_taken: int = field(default=0, init=False)
    twenties: list[int] = field(init=False)
    shot_per_side: list[int] = field(init=False)
    order: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.seats = check_seating(self.seats)
        check_seat(self.first_seat)
        if self.first_seat not in self.seats:
            raise ValueError(
                _("first seat %(seat)s is not occupied: occupied seats are %(occupied)s")
                % {"seat": self.first_seat, "occupied": sorted(self.seats)}
            )
        if (
            isinstance(self.discs_per_player, bool)
            or not isinstance(self.discs_per_player, int)
            or self.discs_per_player < 1
        ):
            raise ValueError(
                _("discs per player must be a whole number of at least 1, not %(discs)r")
                % {"discs": self.discs_per_player}
            )
        self.order = turn_order(self.seats, self.first_seat, self.discs_per_player, self.first_turn)
        if self.first_turn is None:
            self.first_turn = turn_cycle(self.seats).index(self.first_seat)
        sides = len(set(self.seats.values()))
        self.twenties = [0] * sides
        self.shot_per_side = [0] * sides
        self.state = BoardState(discs=(), seats=dict(self.seats))

    @classmethod
    def start(
        cls,
        seats: Mapping[int, int],
        discs_per_player: int | None = None,
        first_seat: int | None = None,
        rules: RuleSet | None = None,
        first_turn: int | None = None,
    ) -> RoundKeeper:
        """A new round: discs per player default to the rule set's figure (NCA when none is
        given), the first seat to the lowest."""
        checked = check_seating(seats)
        return cls(
            seats=checked,
            discs_per_player=(
                default_discs_per_player(checked, rules)
                if discs_per_player is None
                else discs_per_player
            ),
            first_seat=min(checked) if first_seat is None else first_seat,
            first_turn=first_turn,
        )

    @property
    def hammer(self) -> int:
        """The seat that shoots last."""
        return hammer_seat(self.seats, self.first_seat, self.first_turn)

    @property
    def finished(self) -> bool:
        """Whether every player has shot all their discs."""
        return self.shots_taken >= len(self.order)

    @property
    def next_seat(self) -> int | None:
        """The seat to shoot next, or None when the round is over."""
        return None if self.finished else self.order[self.shots_taken]

    def check_turn(self, seat: object) -> int:
        """The seat, if it is its turn; otherwise ``ValueError`` saying whose turn it is."""
        seat = check_seat(seat)
        if seat not in self.seats:
            raise ValueError(
                _("seat %(seat)s is not in play: occupied seats are %(occupied)s")
                % {"seat": seat, "occupied": sorted(self.seats)}
            )
        if self.finished:
            raise ValueError(
                _("seat %(seat)s has no discs left: every player has shot all %(discs)s discs")
                % {"seat": seat, "discs": self.discs_per_player}
            )
        expected = self.order[self.shots_taken]
        if seat != expected:
            raise ValueError(
                _(
                    "shot %(number)s: it is seat %(expected)s's turn, not seat %(seat)s's (play "
                    "proceeds clockwise, NCA 2a)"
                )
                % {"number": self.shots_taken + 1, "expected": expected, "seat": seat}
            )
        return seat

    def default_id(self, seat: int) -> str:
        """An id for the next disc from ``seat``: its side's letter and running number."""
        side = self.seats[seat]
        return f"{SIDE_LETTERS[side]}{self.shot_per_side[side] + 1}"

    def record(self, seat: int, ruling: Ruling) -> None:
        """Apply a shot's ruling: the board after it, and its 20s set aside (NCA 2a(ii))."""
        self.check_turn(seat)
        self.state = ruling.state_after(self.state)
        for twenty in ruling.twenties:
            self.twenties[twenty.side] += 1
        self.shot_per_side[self.seats[seat]] += 1
        self.shots_taken += 1

    @property
    def equalising_shot_due(self) -> bool:
        """Whether, the buzzer having sounded, the next seat still takes a shot (NCA 8b, WCC):
        its side has had fewer shots than another."""
        seat = self.next_seat
        return seat is not None and equalising_shot_due(self.shot_per_side, self.seats[seat])

    def scores(self, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> tuple[int, ...]:
        """The board totals, 20s included (NCA 2a(iii))."""
        return board_scores(self.state.discs, self.twenties, geometry)

    def points(self, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> tuple[int, ...]:
        """The round points (NCA 2a(iv)); 0-0 if no disc was shot."""
        return round_points(self.scores(geometry), self.shots_taken)
