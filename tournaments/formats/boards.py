"""Putting each round's games on boards, and the clock times of the rounds.

Boards are not all alike (speed, wax, lighting), so organizers rotate players: nobody should play
on the same board in two consecutive rounds where that can be avoided. Boards that break during
the day are marked out of service and must not be used. When a round has more games than working
boards, the extra games wait for a second time slot of that round.

Each slot is an assignment problem (games to boards, a cost for a player meeting the board they
just used). Games keep the board their list position gives them unless that repeats a board;
a repeat is repaired by a swap with another game or a move to a free board, which always succeeds
when at least four games are played or enough boards are free. Small rooms (few boards and
games) are solved exactly, by trying every arrangement of the slot.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from tournaments.translation import _

from .pairing import EntryId, Pairing, Round

_EXACT_LIMIT = 120  # arrangements of one slot below which the exact search is used
_REPEAT = 10_000  # cost of one player meeting the same board twice in a row


@dataclass(frozen=True)
class TimeSlot:
    """When round `round` (from 1), slot `slot` (from 1) is played."""

    round: int
    start: datetime
    end: datetime
    slot: int = 1


def assign_boards(
    rounds: Sequence[Sequence[Pairing]],
    boards: Sequence[int],
    *,
    out_of_service: Collection[int] = (),
) -> list[Round]:
    """Give every game of every round a board; byes keep board None and are listed last.

    Raises ValueError when a round has more games than boards in service (see
    `assign_boards_in_slots` to spill the extra games into a second time slot instead).
    """
    working = _working_boards(boards, out_of_service)
    for number, rnd in enumerate(rounds, start=1):
        games = sum(1 for p in rnd if p.b is not None)
        if games > len(working):
            raise ValueError(
                _("round %(round)s has %(games)s games but only %(boards)s boards are in service")
                % {"round": number, "games": games, "boards": len(working)}
            )
    return [
        slots[0] for slots in assign_boards_in_slots(rounds, boards, out_of_service=out_of_service)
    ]


def assign_boards_in_slots(
    rounds: Sequence[Sequence[Pairing]],
    boards: Sequence[int],
    *,
    out_of_service: Collection[int] = (),
) -> list[list[Round]]:
    """Like `assign_boards`, but a round with more games than boards is split into time slots.

    Returns, per round, its slots, each a list of pairings with boards. The games are taken in
    the order given (the first ones fill slot 1); byes are listed at the end of slot 1.
    """
    working = _working_boards(boards, out_of_service)
    if not working:
        raise ValueError(_("no board is in service"))
    split: list[list[list[Pairing]]] = []
    for rnd in rounds:
        games = [p for p in rnd if p.b is not None]
        slots = [games[i : i + len(working)] for i in range(0, len(games), len(working))] or [[]]
        slots[0] = slots[0] + [replace(p, board=None) for p in rnd if p.b is None]
        split.append(slots)

    result: list[list[Round]] = []
    previous: dict[EntryId, int] = {}
    for slots in split:
        placed_slots = [_place_slot(slot, working, previous) for slot in slots]
        previous = {
            e: p.board
            for slot in placed_slots
            for p in slot
            if p.board is not None
            for e in p.entries
        }
        result.append(placed_slots)
    return result


def board_repeats(rounds: Sequence[Sequence[Pairing]]) -> list[tuple[int, EntryId, int]]:
    """(round from 1, entry, board) for every player on the board they used the round before."""
    repeats = []
    previous: dict[EntryId, int] = {}
    for number, rnd in enumerate(rounds, start=1):
        current = {e: p.board for p in rnd if p.board is not None for e in p.entries}
        repeats += [(number, e, b) for e, b in current.items() if previous.get(e) == b]
        previous = current
    return repeats


def time_slots(
    start: datetime,
    rounds: int | Sequence[int],
    minutes_per_game: int,
    break_minutes: int = 0,
) -> list[TimeSlot]:
    """The clock times of the rounds, from the start time, the game time limit and the break.

    `rounds` is the number of rounds (one slot each) or, per round, its number of slots (from
    `assign_boards_in_slots`). A break follows every slot but the last.
    """
    if minutes_per_game <= 0:
        raise ValueError(_("a game needs a positive time limit"))
    if break_minutes < 0:
        raise ValueError(_("a break cannot be negative"))
    per_round = [1] * rounds if isinstance(rounds, int) else list(rounds)
    if any(n < 1 for n in per_round):
        raise ValueError(_("every round needs at least one slot"))
    game, pause = timedelta(minutes=minutes_per_game), timedelta(minutes=break_minutes)
    result = []
    clock = start
    for number, count in enumerate(per_round, start=1):
        for slot in range(1, count + 1):
            result.append(TimeSlot(round=number, start=clock, end=clock + game, slot=slot))
            clock += game + pause
    return result


def _working_boards(boards: Sequence[int], out_of_service: Collection[int]) -> list[int]:
    if len(set(boards)) != len(boards):
        raise ValueError(_("a board is listed twice"))
    broken = set(out_of_service)
    return [board for board in boards if board not in broken]


def _arrangements(games: int, boards: int) -> int:
    result = 1
    for k in range(games):
        result *= boards - k
    return result


def _cost(
    game: Pairing, index: int, position: int, previous: dict[EntryId, int], board: int
) -> int:
    repeats = sum(1 for e in game.entries if previous.get(e) == board)
    return repeats * _REPEAT + abs(position - index)


def _place_slot(slot: Sequence[Pairing], working: list[int], previous: dict[EntryId, int]) -> Round:
    games = [p for p in slot if p.b is not None]
    byes = [p for p in slot if p.b is None]
    if _arrangements(len(games), len(working)) <= _EXACT_LIMIT:
        order = _best_arrangement(games, working, previous)
    else:
        order = _greedy_with_repair(games, working, previous)
    return [replace(g, board=working[pos]) for g, pos in zip(games, order, strict=True)] + byes


def _best_arrangement(
    games: list[Pairing], working: list[int], previous: dict[EntryId, int]
) -> tuple[int, ...]:
    """The cheapest choice of board positions for `games`, trying them all."""
    best: tuple[int, tuple[int, ...]] | None = None
    for order in itertools.permutations(range(len(working)), len(games)):
        cost = sum(
            _cost(g, i, pos, previous, working[pos])
            for i, (g, pos) in enumerate(zip(games, order, strict=True))
        )
        if best is None or cost < best[0]:
            best = (cost, order)
    assert best is not None
    return best[1]


def _greedy_with_repair(
    games: list[Pairing], working: list[int], previous: dict[EntryId, int]
) -> list[int]:
    """Game i on board position i; then fix each repeat by a move to a free board or a swap.

    A game is only ever moved onto a board neither of its players used last round, and a swap
    partner likewise, so every repair removes a repeat without making another.
    """
    position = list(range(len(games)))
    free = list(range(len(games), len(working)))

    def clashes(game: int, pos: int) -> bool:
        return any(previous.get(e) == working[pos] for e in games[game].entries)

    for i in range(len(games)):
        if not clashes(i, position[i]):
            continue
        spare = next((f for f in free if not clashes(i, f)), None)
        if spare is not None:
            free.remove(spare)
            free.append(position[i])
            free.sort()
            position[i] = spare
            continue
        # the nearest game whose board suits i and which can take i's board in return
        partners = sorted(range(len(games)), key=lambda k: abs(k - i))
        for k in partners:
            if k != i and not clashes(i, position[k]) and not clashes(k, position[i]):
                position[i], position[k] = position[k], position[i]
                break
    return position
