"""Seats, turn order and who starts each round and each game.

Seats are numbered clockwise seen from above: 0 south (shooting towards +y), 1 west, 2 north,
3 east. A board state maps each occupied seat to its side (the colour of its discs).

- NCA 2a(i): "Each player, in turn, proceeding clockwise around the board" — the next shooter is
  the next occupied seat with a higher number, wrapping from 3 to 0.
- NCA 4a: singles opponents "sit on opposite sides of the board" and "alternate turns".
- NCA 5a: doubles partners "sit on opposite sides of the board and play the same colour of discs".
- NCA 4b: in singles "players shall alternate starting" each round; NCA 5b: in doubles "the
  obligation to start shall move one player clockwise around the board". Both are the same step:
  the next round's first shooter is the next occupied seat clockwise from this round's.
- NCA 4b / 5b: "In each of the games in a multi-game match ... [players / teams] shall alternate
  starting." The next game opens from the next occupied seat clockwise from the seat that opened
  the previous game: in singles the other player, in doubles the other team (the partner to the
  left of the previous opener, one reasonable choice of the two partners NCA 5a lets decide).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

SEATS = (0, 1, 2, 3)
SEAT_NAMES = {0: "south", 1: "west", 2: "north", 3: "east"}

SINGLES: Mapping[int, int] = {0: 0, 2: 1}
"""Default singles seating: south plays side 0, north plays side 1."""

DOUBLES: Mapping[int, int] = {0: 0, 1: 1, 2: 0, 3: 1}
"""Default doubles seating: partners opposite each other."""

SINGLES_DISCS = 8
"""NCA 4a: singles players "each begin with 8 discs" (WCC adult and recreational singles)."""

DOUBLES_DISCS = 6
"""NCA 5a: doubles players "each begin with 6 discs"."""


def seat_angle(seat: int) -> float:
    """Polar angle (degrees, counterclockwise from +x) of the seat's centre line on the board.

    South is -90, and each seat clockwise is 90 degrees further round clockwise: west 180,
    north 90, east 0.
    """
    check_seat(seat)
    return math.remainder(-90.0 - 90.0 * seat, 360.0)


def check_seat(seat: object) -> int:
    """The seat number, or ``ValueError`` when it is not one of 0-3."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise ValueError(
            f"unknown seat {seat!r}: seats are 0 (south), 1 (west), 2 (north), 3 (east)"
        )
    return seat


def check_seating(seats: Mapping[int, int]) -> dict[int, int]:
    """A validated copy of a seat -> side map: singles or doubles as NCA 4a and 5a seat them.

    Singles: two opposite seats, each with its own side. Doubles: all four seats, partners (opposite
    seats) on the same side, the two teams on different sides. Sides are 0 and 1.
    """
    checked = {check_seat(seat): side for seat, side in seats.items()}
    for seat, side in checked.items():
        if isinstance(side, bool) or side not in (0, 1):
            raise ValueError(f"seat {seat} has side {side!r}: sides are 0 and 1")
    occupied = sorted(checked)
    if len(occupied) == 2:
        a, b = occupied
        if (b - a) != 2:
            raise ValueError(
                f"singles players sit on opposite sides of the board (NCA 4a): seats {a} and {b} "
                "are neighbours; use seats 0 and 2 or 1 and 3"
            )
        if checked[a] == checked[b]:
            raise ValueError(
                "singles opponents play different colours (NCA 4a): give them sides 0 and 1"
            )
        return checked
    if len(occupied) == 4:
        if checked[0] != checked[2] or checked[1] != checked[3] or checked[0] == checked[1]:
            raise ValueError(
                "doubles partners sit opposite each other and play the same colour (NCA 5a): "
                "seats 0 and 2 share one side, seats 1 and 3 the other"
            )
        return checked
    raise ValueError(
        f"{len(occupied)} occupied seats: singles uses 2 opposite seats, doubles all 4 (NCA 4a, 5a)"
    )


def is_doubles(seats: Mapping[int, int]) -> bool:
    """Whether the seating is a doubles one (four players)."""
    return len(seats) == 4


def default_discs_per_player(seats: Mapping[int, int]) -> int:
    """The NCA number of discs each player begins a round with: 8 in singles, 6 in doubles."""
    return DOUBLES_DISCS if is_doubles(seats) else SINGLES_DISCS


def next_seat(seats: Mapping[int, int], seat: int) -> int:
    """The next occupied seat clockwise after ``seat`` (NCA 2a(i))."""
    check_seat(seat)
    if seat not in seats:
        raise ValueError(f"seat {seat} is not occupied: occupied seats are {sorted(seats)}")
    for step in range(1, 5):
        candidate = (seat + step) % 4
        if candidate in seats:
            return candidate
    raise AssertionError("unreachable: the seat itself is occupied")


def previous_seat(seats: Mapping[int, int], seat: int) -> int:
    """The occupied seat that shoots just before ``seat``."""
    check_seat(seat)
    if seat not in seats:
        raise ValueError(f"seat {seat} is not occupied: occupied seats are {sorted(seats)}")
    for step in range(1, 5):
        candidate = (seat - step) % 4
        if candidate in seats:
            return candidate
    raise AssertionError("unreachable: the seat itself is occupied")


def turn_order(seats: Mapping[int, int], first_seat: int, discs_per_player: int) -> list[int]:
    """The seat of every shot of a round, in order, starting with ``first_seat`` (NCA 2a, 4a)."""
    if discs_per_player < 0:
        raise ValueError(f"discs per player must be 0 or more, not {discs_per_player}")
    order: list[int] = []
    seat = first_seat
    if seat not in seats:
        raise ValueError(f"first seat {seat} is not occupied: occupied seats are {sorted(seats)}")
    for _ in range(discs_per_player * len(seats)):
        order.append(seat)
        seat = next_seat(seats, seat)
    return order


def round_first_seat(seats: Mapping[int, int], game_first_seat: int, round_index: int) -> int:
    """Who shoots first in round ``round_index`` (0-based) of a game opened by ``game_first_seat``.

    Singles alternate (NCA 4b); in doubles the start moves one player clockwise (NCA 5b).
    """
    if round_index < 0:
        raise ValueError(f"round index must be 0 or more, not {round_index}")
    seat = game_first_seat
    if seat not in seats:
        raise ValueError(f"seat {seat} is not occupied: occupied seats are {sorted(seats)}")
    for _ in range(round_index):
        seat = next_seat(seats, seat)
    return seat


def game_first_seat(seats: Mapping[int, int], match_first_seat: int, game_index: int) -> int:
    """Who opens game ``game_index`` (0-based) of a match: the sides alternate (NCA 4b, 5b)."""
    return round_first_seat(seats, match_first_seat, game_index)


def hammer_seat(seats: Mapping[int, int], first_seat: int) -> int:
    """The seat that shoots last in a round that ``first_seat`` starts (the "hammer")."""
    return previous_seat(seats, first_seat)
