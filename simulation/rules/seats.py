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
- Family rulebook, Three-Player Game: Option One, two versus one ("Two players divide one set of
  disks, 6 each, and play as partners on opposite quadrants. The third player receives 12 disks,
  shooting one disk every other turn, always shooting from a single quadrant"), and Option Two,
  three players alone with 12 discs each. See :func:`turn_cycle`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from simulation.rules.variants import NCA, RuleSet
from tournaments.translation import _, gettext_noop

SEATS = (0, 1, 2, 3)
SEAT_NAMES = {
    0: gettext_noop("south"),
    1: gettext_noop("west"),
    2: gettext_noop("north"),
    3: gettext_noop("east"),
}
"""Each seat's side of the board, in English: :func:`seat_name` gives it in the active language."""

SINGLES: Mapping[int, int] = {0: 0, 2: 1}
"""Default singles seating: south plays side 0, north plays side 1."""

DOUBLES: Mapping[int, int] = {0: 0, 1: 1, 2: 0, 3: 1}
"""Default doubles seating: partners opposite each other."""

TWO_V_ONE: Mapping[int, int] = {0: 0, 1: 1, 2: 0}
"""Default seating of the family rulebook's three-player game, Option One (two versus one): the
partners opposite each other at south and north play side 0, the lone player at west side 1."""

THREE_ALONE: Mapping[int, int] = {0: 0, 1: 1, 2: 2}
"""Default seating of the three-player game, Option Two: three players alone, one colour each."""

SINGLES_DISCS = 8
"""NCA 4a: singles players "each begin with 8 discs" (WCC adult and recreational singles)."""

DOUBLES_DISCS = 6
"""NCA 5a: doubles players "each begin with 6 discs"."""

THREE_PLAYER_DISCS = 12
"""Family rulebook, Three-Player Game, Option Two: "Using a third set of 12 disks purchased
separately, each player plays alone"."""

SINGLES_KIND = "singles"
DOUBLES_KIND = "doubles"
TWO_V_ONE_KIND = "two-v-one"
THREE_ALONE_KIND = "three-alone"
KINDS = (SINGLES_KIND, DOUBLES_KIND, TWO_V_ONE_KIND, THREE_ALONE_KIND)
"""The seatings a board can have: two or four players (NCA 4a, 5a) and the family rulebook's two
three-player games."""


def seat_angle(seat: int) -> float:
    """Polar angle (degrees, counterclockwise from +x) of the seat's centre line on the board.

    South is -90, and each seat clockwise is 90 degrees further round clockwise: west 180,
    north 90, east 0.
    """
    check_seat(seat)
    return math.remainder(-90.0 - 90.0 * seat, 360.0)


def seat_name(seat: int) -> str:
    """The seat's side of the board (south, west, north, east) in the active language."""
    return _(SEAT_NAMES[seat])


def check_seat(seat: object) -> int:
    """The seat number, or ``ValueError`` when it is not one of 0-3."""
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise ValueError(
            _("unknown seat %(seat)r: seats are 0 (south), 1 (west), 2 (north), 3 (east)")
            % {"seat": seat}
        )
    return seat


def check_seating(seats: Mapping[int, int]) -> dict[int, int]:
    """A validated copy of a seat -> side map, seated as the rulebooks seat the players.

    Singles: two opposite seats, each with its own side (NCA 4a). Doubles: all four seats,
    partners (opposite seats) on the same side, the two teams on different sides (NCA 5a). Three
    seats: the family rulebook's three-player games — Option One, two versus one ("Two players
    ... play as partners on opposite quadrants", the third player alone on a side of their own),
    or Option Two, three players alone ("no opponent's disk is considered friendly"), sides 0, 1
    and 2. Otherwise sides are 0 and 1.
    """
    checked = {check_seat(seat): side for seat, side in seats.items()}
    occupied = sorted(checked)
    if len(occupied) == 3:
        return _check_three(checked)
    for seat, side in checked.items():
        if isinstance(side, bool) or side not in (0, 1):
            raise ValueError(
                _("seat %(seat)s has side %(side)r: sides are 0 and 1")
                % {"seat": seat, "side": side}
            )
    if len(occupied) == 2:
        a, b = occupied
        if (b - a) != 2:
            raise ValueError(
                _(
                    "singles players sit on opposite sides of the board (NCA 4a): seats %(a)s and "
                    "%(b)s are neighbours; use seats 0 and 2 or 1 and 3"
                )
                % {"a": a, "b": b}
            )
        if checked[a] == checked[b]:
            raise ValueError(
                _("singles opponents play different colours (NCA 4a): give them sides 0 and 1")
            )
        return checked
    if len(occupied) == 4:
        if checked[0] != checked[2] or checked[1] != checked[3] or checked[0] == checked[1]:
            raise ValueError(
                _(
                    "doubles partners sit opposite each other and play the same colour (NCA 5a): "
                    "seats 0 and 2 share one side, seats 1 and 3 the other"
                )
            )
        return checked
    raise ValueError(
        _(
            "%(count)s occupied seats: singles uses 2 opposite seats, doubles all 4 (NCA 4a, 5a), "
            "a three-player game 3 (family rulebook)"
        )
        % {"count": len(occupied)}
    )


def _check_three(checked: dict[int, int]) -> dict[int, int]:
    sides = sorted(checked.values())
    for seat, side in checked.items():
        if isinstance(side, bool) or side not in (0, 1, 2):
            raise ValueError(
                _("seat %(seat)s has side %(side)r: in a three-player game sides are 0, 1 and 2")
                % {"seat": seat, "side": side}
            )
    if sides == [0, 1, 2]:
        return checked
    pair = [seat for seat, side in checked.items() if sides.count(side) == 2]
    if len(pair) == 2 and sorted(set(sides)) == [0, 1]:
        a, b = sorted(pair)
        if b - a == 2:
            return checked
        raise ValueError(
            _(
                "in the two-versus-one game the partners sit on opposite quadrants (family "
                "rulebook, Three-Player Game, Option One): seats %(a)s and %(b)s are neighbours"
            )
            % {"a": a, "b": b}
        )
    raise ValueError(
        _(
            "three players sit either two versus one (partners opposite on one side, the third on "
            "the other: sides 0 and 1) or each alone (sides 0, 1 and 2) (family rulebook, "
            "Three-Player Game), not %(seats)s"
        )
        % {"seats": dict(sorted(checked.items()))}
    )


def seating_kind(seats: Mapping[int, int]) -> str:
    """Which game the seating is: singles, doubles, two-v-one or three-alone (see :data:`KINDS`)."""
    if len(seats) == 2:
        return SINGLES_KIND
    if len(seats) == 4:
        return DOUBLES_KIND
    if len(set(seats.values())) == 3:
        return THREE_ALONE_KIND
    return TWO_V_ONE_KIND


def is_doubles(seats: Mapping[int, int]) -> bool:
    """Whether the seating is a doubles one (four players)."""
    return len(seats) == 4


def lone_seat(seats: Mapping[int, int]) -> int:
    """The lone player's seat in the two-versus-one game."""
    if seating_kind(seats) != TWO_V_ONE_KIND:
        raise ValueError(_("only the two-versus-one game has a lone player"))
    sides = list(seats.values())
    return next(seat for seat, side in seats.items() if sides.count(side) == 1)


def default_discs_per_player(seats: Mapping[int, int], rules: RuleSet | None = None) -> int:
    """The discs each player begins a round with, as the rule set's rulebook deals them.

    NCA: 8 in singles (4a), 6 in doubles (5a). Family rulebook: 12 each in the two-player game
    ("Each player receives 12 disks"), 6 each in the four-player game. Three-player game, Option
    One: the partners 6 each ("Two players divide one set of disks, 6 each"; the lone player, who
    shoots every other turn, shoots twice as many: "The third player receives 12 disks"); Option
    Two: 12 each.
    """
    rule_set = rules if rules is not None else NCA
    kind = seating_kind(seats)
    if kind == SINGLES_KIND:
        return rule_set.singles_discs
    if kind == THREE_ALONE_KIND:
        return THREE_PLAYER_DISCS
    return rule_set.doubles_discs


def turn_cycle(seats: Mapping[int, int]) -> tuple[int, ...]:
    """The seat of each turn of one trip round the board, clockwise from the lowest seat.

    NCA 2a(i): turns proceed "clockwise around the board" over the occupied seats. In the
    two-versus-one game the lone player shoots "one disk every other turn, always shooting from a
    single quadrant" (family rulebook, Option One): they take the empty seat's turn as well as
    their own, so the sides alternate and the partners alternate between them, e.g. 0, 1, 2, 1.
    """
    if seating_kind(seats) == TWO_V_ONE_KIND:
        lone = lone_seat(seats)
        return tuple(seat if seat in seats else lone for seat in SEATS)
    return tuple(sorted(seats))


def _turn_of(seats: Mapping[int, int], seat: int) -> int:
    check_seat(seat)
    if seat not in seats:
        raise ValueError(
            _("first seat %(seat)s is not occupied: occupied seats are %(occupied)s")
            % {"seat": seat, "occupied": sorted(seats)}
        )
    return turn_cycle(seats).index(seat)


def next_seat(seats: Mapping[int, int], seat: int) -> int:
    """The next occupied seat clockwise after ``seat`` (NCA 2a(i))."""
    check_seat(seat)
    if seat not in seats:
        raise ValueError(
            _("seat %(seat)s is not occupied: occupied seats are %(occupied)s")
            % {"seat": seat, "occupied": sorted(seats)}
        )
    for step in range(1, 5):
        candidate = (seat + step) % 4
        if candidate in seats:
            return candidate
    raise AssertionError(
        "unreachable: the seat itself is occupied"  # untranslated: internal error
    )


def previous_seat(seats: Mapping[int, int], seat: int) -> int:
    """The occupied seat that shoots just before ``seat``."""
    check_seat(seat)
    if seat not in seats:
        raise ValueError(
            _("seat %(seat)s is not occupied: occupied seats are %(occupied)s")
            % {"seat": seat, "occupied": sorted(seats)}
        )
    for step in range(1, 5):
        candidate = (seat - step) % 4
        if candidate in seats:
            return candidate
    raise AssertionError(
        "unreachable: the seat itself is occupied"  # untranslated: internal error
    )


def turn_order(
    seats: Mapping[int, int],
    first_seat: int,
    discs_per_player: int,
    first_turn: int | None = None,
) -> list[int]:
    """The seat of every shot of a round, in order, starting with ``first_seat`` (NCA 2a, 4a).

    ``first_turn`` says which turn of the :func:`turn_cycle` opens the round when the seat alone
    does not (the lone player of the two-versus-one game has two); by default the seat's first.
    Each seat of the cycle shoots ``discs_per_player`` discs, so the lone player of the
    two-versus-one game shoots twice that.
    """
    if discs_per_player < 0:
        raise ValueError(
            _("discs per player must be 0 or more, not %(discs)s") % {"discs": discs_per_player}
        )
    cycle = turn_cycle(seats)
    turn = _turn_of(seats, first_seat) if first_turn is None else first_turn
    if not 0 <= turn < len(cycle) or cycle[turn] != first_seat:
        raise ValueError(
            _("turn %(turn)s of the round is not seat %(seat)s's")
            % {"turn": first_turn, "seat": first_seat}
        )
    return [cycle[(turn + k) % len(cycle)] for k in range(discs_per_player * len(cycle))]


def round_first_turn(seats: Mapping[int, int], game_first_seat: int, round_index: int) -> int:
    """Which turn of the :func:`turn_cycle` opens round ``round_index`` (0-based) of a game.

    The start moves one turn clockwise each round: singles alternate (NCA 4b; family two-player
    game: "First Player switches every round"), in doubles and in the three-player games it moves
    to the next player clockwise (NCA 5b; family four-player game: "'First Player' rotates
    clockwise to the next participant"); in the two-versus-one game the lone player, who has two
    turns of the cycle, opens every other round.
    """
    if round_index < 0:
        raise ValueError(_("round index must be 0 or more, not %(index)s") % {"index": round_index})
    cycle = turn_cycle(seats)
    return (_turn_of(seats, game_first_seat) + round_index) % len(cycle)


def round_first_seat(seats: Mapping[int, int], game_first_seat: int, round_index: int) -> int:
    """Who shoots first in round ``round_index`` (0-based) of a game opened by ``game_first_seat``.

    Singles alternate (NCA 4b); in doubles the start moves one player clockwise (NCA 5b); see
    :func:`round_first_turn`.
    """
    return turn_cycle(seats)[round_first_turn(seats, game_first_seat, round_index)]


def game_first_seat(seats: Mapping[int, int], match_first_seat: int, game_index: int) -> int:
    """Who opens game ``game_index`` (0-based) of a match: the sides alternate (NCA 4b, 5b)."""
    return round_first_seat(seats, match_first_seat, game_index)


def hammer_seat(seats: Mapping[int, int], first_seat: int, first_turn: int | None = None) -> int:
    """The seat that shoots last in a round that ``first_seat`` starts (the "hammer")."""
    cycle = turn_cycle(seats)
    turn = _turn_of(seats, first_seat) if first_turn is None else first_turn
    return cycle[(turn - 1) % len(cycle)]
