"""Drawing a stage: from the pure formats to matches, games and boards in the database.

What each draw step needs of the stage is said here, next to its service, once: the step
declarations (``tournaments.draw_actions``) ask these preconditions to show or explain their
buttons, and the services ask them again inside their transaction. A refusal is a ``Refused``
(``tournaments.actions``): ``conflict`` when the stage's state does not allow the step now,
``invalid`` when what was asked for cannot be drawn. The words name no stage when they are about
the stage the step is taken on: the pages show them on that stage's row or page (a message after
a post puts its name first), and the API answers about the stage it was asked about.
"""

import itertools
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import wraps
from typing import Any, TypeVar

from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import formats, live
from tournaments.actions import Kind, Precondition, Refused, ensure
from tournaments.models import (
    ENTRY_PEOPLE,
    Board,
    Category,
    Entry,
    Game,
    Match,
    Pool,
    Stage,
    people_paths,
)
from tournaments.names import entry_key
from tournaments.selectors import (
    BRACKET_POOL,
    FIELD_POOL,
    SEEDING_POOLS,
    knockout_draw,
    next_stage,
    previous_stage,
    seeded_entries,
    stage_matches,
    with_winners,
)
from tournaments.services.registration import is_drawn


@dataclass(frozen=True)
class KnockoutResults:
    """What has been played in a knockout, as plain data: the winner's entry id by bracket slot,
    and the ids of the matches started (a round recorded) and finished. The results reads
    (``scoring.results.knockout.knockout_results``) give it; a fresh draw has none."""

    winners: Mapping[str, str] = field(default_factory=dict)
    started: frozenset[int] = frozenset()
    finished: frozenset[int] = frozenset()


@dataclass(frozen=True)
class SwissLine:
    """One line of a Swiss stage's standings so far, as the next round's pairing needs it."""

    entry: str
    rank: int
    points: int


def _three_player(stage: Stage) -> bool:
    """Whether the stage's category plays the family rulebook's three-player game."""
    return stage.category.scoring_system == Category.ScoringSystem.THREE_PLAYER


# --- what each draw step needs -------------------------------------------------------------
#
# Each precondition returns the words of its refusal (a ``Refused`` when it chooses the kind),
# or None when the step may go on. The step declarations list them (``draw_actions``); the
# services ask them again with ``tournaments.actions.ensure``.


Service = TypeVar("Service", bound=Callable[..., Any])


@contextmanager
def _formats_refusal() -> Iterator[None]:
    """The pure formats refuse a draw they cannot make (too few entries for the games asked,
    too many pools, a third-place match among three) with ``ValueError``: here that is the
    draw asked for that cannot be made, a refusal of the input."""
    try:
        yield
    except ValueError as exc:
        raise Refused(str(exc), kind=Kind.INVALID) from exc


def _formats_refused(service: Service) -> Service:
    @wraps(service)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with _formats_refusal():
            return service(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def not_a_shootout(stage: Stage) -> str | None:
    """A shoot-out stage is not drawn: it is created when a tie sits on the cut line."""
    if stage.kind != Stage.Kind.SHOOTOUT:
        return None
    return _(
        "A shoot-out is not drawn: it is created when a tie sits on the cut line, and its "
        "result is recorded on its shoot-out page."
    )


def sides_fit(stage: Stage) -> Refused | None:
    """Three-player games are only drawn as preliminary rounds (groups of three)."""
    if not _three_player(stage) or stage.kind == Stage.Kind.PRELIMINARY:
        return None
    return Refused(
        _(
            "Three-player games are drawn as preliminary rounds of groups of three; a %(kind)s "
            "stage is played between two sides."
        )
        % {"kind": stage.get_kind_display().lower()},
        kind=Kind.INVALID,
    )


def undrawn(stage: Stage) -> str | None:
    """No match drawn and no bracket seeded yet (the field an advance seeds into a Swiss or
    preliminary stage is drawn by that advance)."""
    if not (stage.matches.exists() or stage.pools.filter(name=BRACKET_POOL).exists()):
        return None
    if stage.kind == Stage.Kind.SWISS:
        return _(
            "Already drawn; its next round is drawn (“Draw round …” on the category page) once "
            "the current round is played."
        )
    return _("Already drawn; undo the draw to draw again.")


def first_stage(stage: Stage) -> str | None:
    """A stage after another gets its entries from that stage's Advance (its top entries,
    seeded): a draw of its own would take every entry of the category. Asked by the draw step
    only: the advance draws the next stage through the same services."""
    before = previous_stage(stage)
    if before is None:
        return None
    return _("Filled by the Advance of %(before)s, once that stage is finished.") % {
        "before": before.name
    }


def drawn(stage: Stage) -> str | None:
    """Something to undo: matches, or entries seeded into the stage's pools."""
    if is_drawn(stage):
        return None
    return _("Not drawn: there is nothing to undo.")


def drawn_to_swap(stage: Stage) -> str | None:
    if is_drawn(stage):
        return None
    return _("Not drawn yet: there is nothing to swap.")


def next_stage_undrawn(stage: Stage) -> str | None:
    """The next stage is not drawn from this one's results (undo that draw first)."""
    following = next_stage(stage)
    if following is None or not is_drawn(following):
        return None
    return _("%(next)s is drawn from its results; undo that draw first.") % {"next": following.name}


def nothing_played(stage: Stage) -> str | None:
    """No card row, official round, walkover or shoot-out recorded in the stage."""
    played = _results_in(stage)
    if not played:
        return None
    return _("The draw cannot be undone: %(played)s. Void or correct the results first.") % {
        "played": played
    }


def has_matches(stage: Stage) -> str | None:
    """Matches to give start times to (a shoot-out has none)."""
    if stage.kind != Stage.Kind.SHOOTOUT and stage.matches.exists():
        return None
    return _("No matches to schedule: draw the stage first.")


#: What drawing a stage needs, in the order its refusals are told.
DRAW_CONDITIONS: tuple[Precondition, ...] = (not_a_shootout, sides_fit, undrawn, first_stage)
#: What undoing a draw needs.
UNDO_CONDITIONS: tuple[Precondition, ...] = (drawn, next_stage_undrawn, nothing_played)


@_formats_refused
@transaction.atomic
def draw_preliminary(
    stage: Stage, entries: Sequence[Entry] | None = None, *, method: str = "random"
) -> list[Match]:
    """WCC preliminary: ``stage.games_per_entry`` games, a different opponent every time (in a
    three-player category, groups of three that meet as seldom as the field allows).

    Matches are laid on the tournament's boards in service so that nobody plays twice in a row
    on the same board where that can be avoided. Refused (``Refused``) when the draw is
    impossible (too few entries, too many games) or the stage is already drawn.
    """
    ensure(stage, undrawn)
    if entries is None:
        entries = sorted(_field(stage), key=lambda e: e.id)
    by_id = {str(e.id): e for e in entries}
    if _three_player(stage):
        rounds = formats.three_player_rounds(
            list(by_id), stage.games_per_entry or 1, seed=stage.seed
        )
    else:
        rounds = formats.preliminary_rounds(
            list(by_id), stage.games_per_entry or 1, method=method, seed=stage.seed
        )
    boards = list(Board.objects.filter(tournament=stage.category.tournament).order_by("number"))
    if boards:
        # More games than boards in service spill into a second time slot of the same round.
        slots = formats.assign_boards_in_slots(
            rounds,
            [b.number for b in boards],
            out_of_service=[b.number for b in boards if not b.in_service],
        )
        rounds = [[p for slot in round_slots for p in slot] for round_slots in slots]
    board_by_number = {b.number: b for b in boards}
    matches = [
        Match(
            stage=stage,
            round_of_play=number,
            entry_a=by_id[p.a],
            entry_b=by_id[p.b] if p.b is not None else None,
            entry_c=by_id[p.c] if p.c is not None else None,
            best_of=stage.best_of,
            board=board_by_number.get(p.board) if p.board is not None else None,
        )
        for number, rnd in enumerate(rounds, start=1)
        for p in rnd
    ]
    Match.objects.bulk_create(matches)
    live.touch("stage", {m.stage_id for m in matches})  # bulk writes send no signals
    # One game a pairing, or all N of a fixed match (whose games are all played), the sides
    # taking turns to shoot first in round 1 as in every match of several games.
    games = stage.best_of if stage.fixed_match else 1
    Game.objects.bulk_create(
        Game(
            match=m,
            number=number,
            is_playoff=False,
            first_side=Game.Side.A if number % 2 else Game.Side.B,
        )
        for m in matches
        if m.entry_b is not None
        for number in range(1, games + 1)
    )
    return matches


# --- every kind of stage ----------------------------------------------------------------------
#
# Games are created with their match, all ``best_of`` of them up front: scorecards for a best-of-3
# can be printed before play, and a game the match did not need simply stays without rounds (the
# pages show it as not needed); a fixed match (``Stage.match_format``) needs every one of them.
# Playoff games (knockout) have ``is_playoff=True``, so a game tied after 4 rounds takes a 5th
# (WCC Scoring). In a match of several games the sides take turns to shoot first in round 1, game
# by game.


def draw_stage(
    stage: Stage,
    *,
    method: str = "random",
    pool_count: int | None = None,
    double: bool = False,
    third_place: bool = False,
) -> list[Match]:
    """Draw a stage by its kind; the options apply to the kinds that use them.

    ``method``: preliminary ("random" or "rotation"); ``pool_count``, ``double``: round robin;
    ``third_place``: knockout. A Swiss stage gets its first round (the later ones are paired from
    the standings: ``scoring.progression.services.draw_next_swiss_round``). Refused
    (``Refused``) for a stage already drawn or one that is not drawn at all (a shoot-out).
    Whether a stage after another is drawn by its own step or by the advance into it is the
    step's to say (:func:`first_stage`): the advance draws the next stage through here.
    """
    ensure(stage, not_a_shootout, sides_fit)
    kind = Stage.Kind(stage.kind)
    if kind == Stage.Kind.PRELIMINARY:
        entries = _seeded(stage) or None
        return draw_preliminary(stage, entries, method=method)
    if kind == Stage.Kind.ROUND_ROBIN:
        return draw_round_robin(stage, pool_count=pool_count, double=double)
    if kind == Stage.Kind.KNOCKOUT:
        return draw_knockout(stage, third_place=third_place)
    ensure(stage, undrawn)
    return draw_swiss_round(stage)


@_formats_refused
@transaction.atomic
def draw_round_robin(
    stage: Stage,
    pools: Sequence[Sequence[Entry]] | None = None,
    *,
    pool_count: int | None = None,
    double: bool = False,
) -> list[Match]:
    """Every round of a round robin (single or double) in each pool, by the Berger tables.

    ``pools`` lists the entries of each pool, best seed first (``advance`` passes them). Without
    it the stage's pools as already filled are used, or else the category's active entries are
    seeded into ``pool_count`` pools (default: the stage's empty pools, or one) in snake order
    with club mates kept apart. Round k of every pool is round of play k; the matches of a round
    of play are laid on the boards together.
    """
    _check_kind(stage, Stage.Kind.ROUND_ROBIN)
    _check_not_drawn(stage)
    if pools is None:
        pools = _filled_pools(stage)
    if not pools:
        entries = _field(stage)
        count = pool_count or stage.pools.count() or 1
        by_id = {str(e.id): e for e in entries}
        if len(entries) < 2 * count:
            raise Refused(
                _("%(entries)s entries cannot fill %(pools)s pools of at least two.")
                % {"entries": len(entries), "pools": count},
                kind=Kind.INVALID,
                field="pool_count",
            )
        groups = formats.snake_pools(list(by_id), count, clubs=entry_clubs(entries))
        pools = [[by_id[e] for e in group] for group in groups]
    for index, group in enumerate(pools):
        if len(group) < 2:
            raise Refused(
                _("Pool %(pool)s has %(entries)s entries; a round robin needs at least two.")
                % {"pool": formats.pool_label(index), "entries": len(group)},
                kind=Kind.INVALID,
            )
    pool_rows = _fill_pools(stage, pools)
    by_id = {str(e.id): e for group in pools for e in group}
    pool_of = {str(e.id): pool for pool, group in zip(pool_rows, pools, strict=True) for e in group}
    schedules = [
        formats.berger_rounds([str(e.id) for e in group], double=double) for group in pools
    ]
    rounds = [
        [p for schedule in schedules if number < len(schedule) for p in schedule[number]]
        for number in range(max(len(s) for s in schedules))
    ]
    boards = _boards(stage)
    if any(b.in_service for b in boards):
        slots = formats.assign_boards_in_slots(
            rounds,
            [b.number for b in boards],
            out_of_service=[b.number for b in boards if not b.in_service],
        )
        rounds = [[p for slot in round_slots for p in slot] for round_slots in slots]
    matches = []
    for number, rnd in enumerate(rounds, start=1):
        matches += _new_matches(stage, number, rnd, by_id, boards, pool_of=pool_of, playoff=False)
    return matches


@_formats_refused
@transaction.atomic
def draw_knockout(
    stage: Stage, seeds: Sequence[Entry] | None = None, *, third_place: bool = False
) -> list[Match]:
    """A single-elimination bracket with standard seeding (1 v 16, 8 v 9 ...), byes for the
    top seeds when the field is not a power of two, best-of-``stage.best_of`` matches and, if
    asked, a match for third place between the losing semifinalists.

    ``seeds`` are the entries best first (``advance`` passes them, in the WCC crossover order
    1A, 1B, 2A, 2B when they come from two pools, which seeding turns into 1A v 2B and 1B v 2A);
    by default the category's active entries by their seed. The seeding is kept in the stage's
    bracket pool; the matches whose two entries are known are created now, the others by
    ``scoring.progression.services.advance_knockout`` as results come in.
    """
    _check_kind(stage, Stage.Kind.KNOCKOUT)
    _check_not_drawn(stage)
    seeds = list(seeds) if seeds is not None else _field(stage)
    # Checks the field, best_of and the third-place match before anything is written.
    formats.single_elimination(
        [str(e.id) for e in seeds], best_of=stage.best_of, third_place=third_place
    )
    if stage.third_place != third_place:
        stage.third_place = third_place
        stage.save(update_fields=["third_place"])
    store_pool(stage, BRACKET_POOL, seeds)
    return open_knockout_matches(stage)


def open_knockout_matches(stage: Stage, results: KnockoutResults | None = None) -> list[Match]:
    """Create the knockout matches whose two entries are now known, given the ``results`` so
    far, and that do not exist yet.

    A stored match whose entries no longer agree with the bracket (an earlier result was
    corrected) is updated while none of its games has a round; once it has been played the
    conflict is refused (``Refused``) naming the match.
    """
    results = results or KnockoutResults()
    state = knockout_draw(stage)
    if state is None:
        raise Refused(_("%(stage)s has not been drawn yet.") % {"stage": stage.name})
    state = with_winners(state, results.winners)
    created: list[Match] = []
    for planned in state.bracket.matches:
        a, b = planned.entries
        if a is None or b is None:
            continue
        stored = state.matches.get(planned.id)
        if stored is None:
            created += _new_matches(
                stage,
                planned.round,
                [formats.Pairing(a, b)],
                state.entries,
                [],
                playoff=True,
                best_of=planned.best_of,
                bracket_slot=planned.id,
            )
            continue
        if {str(stored.entry_a_id), str(stored.entry_b_id)} == {a, b}:
            continue
        if stored.id in results.started:
            raise Refused(
                _(
                    "%(stage)s, %(slot)s: %(match)s has been played, but after a corrected result "
                    "the bracket now sends %(a)s v %(b)s there. Void that match's games before "
                    "the bracket can go on."
                )
                % {
                    "stage": stage,
                    "slot": planned.id,
                    "match": stored,
                    "a": state.entries[a].name,
                    "b": state.entries[b].name,
                },
                kind=Kind.CONFLICT,
            )
        stored.entry_a, stored.entry_b = state.entries[a], state.entries[b]
        stored.save(update_fields=["entry_a", "entry_b"])
    if created:
        _place_opened(stage, created, state.matches.values(), results.finished)
    return created


@_formats_refused
@transaction.atomic
def draw_swiss_round(stage: Stage, standings: Sequence[SwissLine] = ()) -> list[Match]:
    """Pair the next round of a Swiss stage by ``standings``, never a rematch.

    ``standings`` are the stage's standings so far, best first, as the results give them (none
    before round 1, when the field plays by seed); the caller has checked that the round before
    is finished (``scoring.progression.services.draw_next_swiss_round``). Entries on equal points
    meet where possible (``formats.swiss_round``: the whole round is chosen at once, so the last
    rounds never get stuck); with an odd field the lowest-placed entry without a bye sits out and
    is credited with the stage's bye. The stage plays ``games_per_entry`` rounds.
    """
    _check_kind(stage, Stage.Kind.SWISS)
    ensure(stage, swiss_rounds_set, swiss_rounds_left)
    matches = stage_matches(stage)
    current = max((m.round_of_play for m in matches), default=0)
    if current and not standings:
        raise Refused(
            _("Round %(round)s is paired from the standings so far.") % {"round": current + 1},
            kind=Kind.INVALID,
        )
    entrants = _seeded(stage) or (_category_entries(stage) if current else _field(stage))
    by_id = {str(e.id): e for e in entrants}
    seed_order = {key: index for index, key in enumerate(by_id)}
    if current == 0:
        swiss = [formats.SwissStanding(key, 0) for key in by_id]
    else:
        lines = sorted(
            (line for line in standings if line.entry in by_id),
            key=lambda line: (line.rank, seed_order[line.entry]),
        )
        swiss = [formats.SwissStanding(line.entry, line.points) for line in lines]
    previous = [
        [
            formats.Pairing(str(m.entry_a_id), str(m.entry_b_id) if m.entry_b_id else None)
            for m in matches
            if m.round_of_play == number
        ]
        for number in range(1, current + 1)
    ]
    try:
        pairings = formats.swiss_round(swiss, previous)
    except ValueError as exc:
        raise Refused(
            _("Round %(round)s: %(error)s") % {"round": current + 1, "error": exc},
            kind=Kind.CONFLICT,
        ) from exc
    last = {
        key: m.board.number
        for m in matches
        if m.round_of_play == current and m.board_id
        for key in (str(m.entry_a_id), str(m.entry_b_id))
    }
    boards = _boards(stage)
    placed = place_round(pairings, last, boards)
    return _new_matches(stage, current + 1, placed, by_id, boards, playoff=False)


@transaction.atomic
def assign_boards(stage: Stage, round_of_play: int) -> list[Match]:
    """(Re)lay one round of play on the boards in service.

    Nobody plays on the board they used in the round before where that can be avoided (boards
    differ in speed and wax, so players rotate); boards out of service are skipped; a round with
    more games than working boards plays in time slots (a board carries one game per slot).
    Games keep their current board unless it repeats one, so a second call changes nothing.
    """
    matches = list(
        Match.objects.filter(stage=stage, round_of_play=round_of_play)
        .select_related("board")
        .order_by("board__number", "id")
    )
    if not matches:
        raise Refused(
            _("%(stage)s has no round %(round)s to lay on boards.")
            % {"stage": stage.name, "round": round_of_play},
            kind=Kind.INVALID,
        )
    before = Match.objects.filter(stage=stage, round_of_play=round_of_play - 1).exclude(board=None)
    last = {
        str(key): number
        for a, b, number in before.values_list("entry_a_id", "entry_b_id", "board__number")
        for key in (a, b)
        if key is not None
    }
    games = [m for m in matches if m.entry_b_id is not None]
    pairings = [formats.Pairing(str(m.entry_a_id), str(m.entry_b_id)) for m in games]
    # formats keeps a game on the board its list position gives it: list each game's current
    # board at its position, so that only the games that must move do.
    boards = _boards(stage)
    current = list(dict.fromkeys(m.board_id for m in games if m.board_id))
    rank = {board_id: index for index, board_id in enumerate(current)}
    boards.sort(key=lambda b: (rank.get(b.id, len(rank)), b.number))
    placed = place_round(pairings, last, boards)
    by_number = {b.number: b for b in boards}
    for match, pairing in zip(games, placed, strict=True):
        match.board = by_number.get(pairing.board) if pairing.board is not None else None
    Match.objects.bulk_update(games, ["board"])
    live.touch("stage", {m.stage_id for m in games})  # bulk writes send no signals
    return matches


def place_round(
    pairings: Sequence[formats.Pairing],
    last: Mapping[str, int],
    boards: Sequence[Board],
    busy: Collection[int] = (),
) -> list[formats.Pairing]:
    """Boards for one round's games (in the order given), given the board each entry used last.

    ``tournaments.formats`` avoids repeats between consecutive rounds of one list; here the
    round before is already on the boards. It is handed to formats as a round that keeps its
    boards: one game per working board, in board order (entries that sat on the same board pair
    up, empty places get stand-ins), which formats leaves where it is because nothing precedes
    it. Where formats searches small rooms exhaustively it may move that round too; then the
    round is placed here by trying every arrangement (few, by the same token).
    Boards out of service or ``busy`` are skipped; without one free the games get no board.
    """
    games = [p for p in pairings if p.b is not None]
    byes = [replace(p, board=None) for p in pairings if p.b is None]
    numbers = [b.number for b in boards]
    unusable = {b.number for b in boards if not b.in_service} | set(busy)
    working = [n for n in numbers if n not in unusable]
    if not games or not working:
        return [replace(p, board=None) for p in games] + byes
    seated: dict[int, list[str]] = {n: [] for n in working}
    for entry, number in last.items():
        if number in seated:
            seated[number].append(entry)
    layers = max((len(es) + 1) // 2 for es in seated.values())
    stand_in = (f"\x00stand-in-{k}" for k in itertools.count())
    kept: list[formats.Pairing] = []
    for layer in range(layers):
        for number in working:
            pair = seated[number][2 * layer : 2 * layer + 2]
            pair += [next(stand_in) for _ in range(2 - len(pair))]
            kept.append(formats.Pairing(pair[0], pair[1]))
    if not kept:  # nobody has played yet
        placed = formats.assign_boards_in_slots([games], numbers, out_of_service=unusable)
        return [p for slot in placed[0] for p in slot] + byes
    placed = formats.assign_boards_in_slots([kept, games], numbers, out_of_service=unusable)
    held = [p.board for slot in placed[0] for p in slot]
    if held == [working[i % len(working)] for i in range(len(kept))]:
        return [p for slot in placed[1] for p in slot] + byes
    return _search(games, last, working) + byes


def _search(
    games: list[formats.Pairing], last: Mapping[str, int], working: list[int]
) -> list[formats.Pairing]:
    """Every arrangement of a few games on a few boards: fewest repeats, then fewest moves."""

    def cost(order: tuple[int, ...]) -> tuple[int, int]:
        repeats = sum(
            last.get(e) == working[pos]
            for game, pos in zip(games, order, strict=True)
            for e in game.entries
        )
        return repeats, sum(abs(i - pos) for i, pos in enumerate(order))

    best = min(itertools.permutations(range(len(working)), len(games)), key=cost)
    return [replace(g, board=working[pos]) for g, pos in zip(games, best, strict=True)]


def _place_opened(
    stage: Stage, created: list[Match], stored: Collection[Match], finished: Collection[int]
) -> None:
    """Boards for knockout matches opened as results come in: a free board (not holding an
    unfinished match of the stage) that neither entry has just played on."""
    busy = {m.board.number for m in stored if m.board_id and m.id not in finished}
    last: dict[str, int] = {}
    for m in sorted(stored, key=lambda m: (m.round_of_play, m.id)):
        if m.board_id:
            for key in (str(m.entry_a_id), str(m.entry_b_id)):
                last[key] = m.board.number
    boards = _boards(stage)
    pairings = [formats.Pairing(str(m.entry_a_id), str(m.entry_b_id)) for m in created]
    placed = place_round(pairings, last, boards, busy)
    by_number = {b.number: b for b in boards}
    for match, pairing in zip(created, placed, strict=True):
        match.board = by_number.get(pairing.board) if pairing.board is not None else None
    Match.objects.bulk_update(created, ["board"])
    live.touch("stage", {m.stage_id for m in created})  # bulk writes send no signals


def _new_matches(
    stage: Stage,
    round_of_play: int,
    pairings: Sequence[formats.Pairing],
    by_id: Mapping[str, Entry],
    boards: Sequence[Board],
    *,
    playoff: bool,
    pool_of: Mapping[str, Pool] | None = None,
    best_of: int | None = None,
    bracket_slot: str = "",
) -> list[Match]:
    board_by_number = {b.number: b for b in boards}
    best_of = best_of or stage.best_of
    matches = [
        Match(
            stage=stage,
            pool=pool_of.get(p.a) if pool_of else None,
            round_of_play=round_of_play,
            entry_a=by_id[p.a],
            entry_b=by_id[p.b] if p.b is not None else None,
            best_of=best_of,
            board=board_by_number.get(p.board) if p.board is not None else None,
            bracket_slot=bracket_slot,
        )
        for p in pairings
    ]
    Match.objects.bulk_create(matches)
    live.touch("stage", {m.stage_id for m in matches})  # bulk writes send no signals
    Game.objects.bulk_create(
        Game(
            match=m,
            number=number,
            is_playoff=playoff,
            first_side=Game.Side.A if number % 2 else Game.Side.B,
        )
        for m in matches
        if m.entry_b is not None
        for number in range(1, best_of + 1)
    )
    return matches


def _check_kind(stage: Stage, kind: Stage.Kind) -> None:
    if stage.kind != kind:
        raise Refused(
            _("%(stage)s is a %(kind)s stage, not %(expected)s.")
            % {"stage": stage.name, "kind": stage.get_kind_display(), "expected": kind.label},
            kind=Kind.INVALID,
        )


def _check_not_drawn(stage: Stage) -> None:
    ensure(stage, undrawn)


def swiss_rounds_set(stage: Stage) -> str | None:
    """A Swiss stage says how many rounds it plays (its games per entry)."""
    if stage.games_per_entry:
        return None
    return _("Set how many rounds the Swiss plays (games per entry).")


def swiss_rounds_left(stage: Stage) -> str | None:
    """A round of the Swiss is still to be drawn."""
    total = stage.games_per_entry or 0
    current = stage.matches.aggregate(n=Max("round_of_play"))["n"] or 0
    if current < total:
        return None
    return _("All %(total)s rounds are drawn.") % {"total": total}


def _boards(stage: Stage) -> list[Board]:
    return list(Board.objects.filter(tournament_id=stage.category.tournament_id).order_by("number"))


def _category_entries(stage: Stage) -> list[Entry]:
    """The category's checked-in, active entries, best seed first (unseeded last, then by
    registration)."""
    return list(
        Entry.objects.filter(category_id=stage.category_id, withdrawn=False, checked_in=True)
        .select_related(*ENTRY_PEOPLE)
        .order_by(F("seed").asc(nulls_last=True), "id")
    )


def _field(stage: Stage) -> list[Entry]:
    """The field of a category's first draw: every active entry, all checked in.

    An entry neither checked in nor withdrawn would otherwise be left out silently (or drawn
    while absent, its opponents waiting at the board): the organizer settles each one first.
    """
    missing = not_checked_in(stage.category)
    if missing:
        raise NotCheckedInError(stage, missing)
    return _category_entries(stage)


def _seeded(stage: Stage) -> list[Entry]:
    """The field ``advance`` seeded into a preliminary or Swiss stage, best first."""
    if not stage.pools.filter(name=FIELD_POOL).exists():
        return []
    return seeded_entries(stage)


def _filled_pools(stage: Stage) -> list[list[Entry]]:
    """The stage's pools that already hold entries, each in the order they were put in."""
    groups: dict[int, list[Entry]] = {}
    through = (
        Pool.entries.through.objects.filter(pool__stage=stage)
        .exclude(pool__name__in=(BRACKET_POOL, FIELD_POOL))
        .select_related(*people_paths("entry"))
        .order_by("pool__name", "id")
    )
    for row in through:
        groups.setdefault(row.pool_id, []).append(row.entry)
    return list(groups.values())


def _fill_pools(stage: Stage, groups: Sequence[Sequence[Entry]]) -> list[Pool]:
    """Pools A, B, ... holding ``groups``; an existing pool of that name is reused."""
    return [
        store_pool(stage, formats.pool_label(index), group) for index, group in enumerate(groups)
    ]


def store_pool(stage: Stage, name: str, entries: Sequence[Entry]) -> Pool:
    """A pool whose entries keep the order given: the link rows are written in that order, and
    readers sort by them (``tournaments.selectors.seeded_entries``)."""
    pool, _created = Pool.objects.get_or_create(stage=stage, name=name)
    through = Pool.entries.through
    present = set(through.objects.filter(pool=pool).values_list("entry_id", flat=True))
    through.objects.bulk_create(
        through(pool_id=pool.id, entry_id=e.id) for e in entries if e.id not in present
    )
    return pool


def entry_clubs(entries: Sequence[Entry]) -> dict[str, str | None]:
    """Each entry's club for keeping club mates apart: the player's, or a team's when both
    partners share it."""
    clubs: dict[str, str | None] = {}
    for e in entries:
        if e.player_id:
            club = e.player.club
        else:
            one, two = e.team.player_one.club, e.team.player_two.club
            club = one if one == two else None
        clubs[str(e.id)] = club or None
    return clubs


# --- check-in before the draw, and corrections of a draw ----------------------------------------


class NotCheckedInError(Refused):
    """A first draw refused because some active entries are neither checked in nor withdrawn;
    ``entries`` lists them, so the organizer's page can offer to check in or withdraw each."""

    def __init__(self, stage: Stage, entries: Sequence[Entry]) -> None:
        names = ", ".join(f"{e.name} ({e.number})" for e in entries[:10])
        if len(entries) > 10:
            names = _("%(names)s and %(count)s more") % {
                "names": names,
                "count": len(entries) - 10,
            }
        super().__init__(
            ngettext(
                "%(count)s entry is not checked in: %(names)s. Check them in or withdraw them "
                "before the draw.",
                "%(count)s entries are not checked in: %(names)s. Check them in or withdraw them "
                "before the draw.",
                len(entries),
            )
            % {"count": len(entries), "names": names},
            kind=Kind.CONFLICT,
        )
        self.entries = list(entries)


def not_checked_in(category: Category) -> list[Entry]:
    """The category's entries that are neither checked in nor withdrawn, by name."""
    return sorted(
        Entry.objects.filter(category=category, withdrawn=False, checked_in=False).select_related(
            *ENTRY_PEOPLE
        ),
        key=entry_key,
    )


def _note(stage: Stage, reason: str) -> None:
    """A line in the stage's history (who, when, what): matches and pools keep no history of
    their own, so a draw undone or two entries swapped is told on the stage."""
    stage._change_reason = reason
    stage.save()


def _results_in(stage: Stage, matches: Collection[Match] | None = None) -> str:
    """What result the stage (or the given matches of it) holds, in words; empty when none."""
    games = Game.objects.filter(match__stage=stage)
    if matches is not None:
        games = games.filter(match__in=list(matches))
    played = games.filter(rounds__isnull=False).select_related("match").first()
    if played is not None:
        return _("an official result is recorded (%(match)s, game %(game)s)") % {
            "match": played.match,
            "game": played.number,
        }
    filled = games.filter(card_rows__isnull=False).select_related("match").first()
    if filled is not None:
        return _("a scorecard row is filled (%(match)s, game %(game)s)") % {
            "match": filled.match,
            "game": filled.number,
        }
    forfeited = games.exclude(forfeited_by="").select_related("match").first()
    if forfeited is not None:
        # A walkover (reinstating the entry takes it back) or a forfeit is a result too.
        return _(
            "a walkover or the head referee's forfeit is recorded (%(match)s, game %(game)s)"
        ) % {"match": forfeited.match, "game": forfeited.number}
    if matches is None and stage.shootouts.exists():
        return _("a shoot-out is recorded")
    return ""


@transaction.atomic
def undo_draw(stage: Stage) -> int:
    """Take back a stage's draw while nothing of it has been played: its matches and games go,
    and so do the entries a draw or an advance seeded into its pools (the pools themselves stay,
    empty, so a new draw makes as many). Returns how many matches were removed.

    Undoing the draw of a stage filled by an advance undoes that advance: the stage before can
    advance again. Refused (``Refused``, :data:`UNDO_CONDITIONS`) once a card row, an official
    round or a shoot-out is recorded, or while the next stage is drawn (undo that one first).
    """
    Stage.objects.select_for_update().filter(pk=stage.pk).first()
    ensure(stage, *UNDO_CONDITIONS)
    count = stage.matches.count()
    stage.matches.all().delete()
    Pool.entries.through.objects.filter(pool__stage=stage).delete()
    stage.pools.filter(name__in=SEEDING_POOLS).delete()
    _note(stage, _("Draw undone (%(count)s matches removed).") % {"count": count})
    return count


@transaction.atomic
def swap_entries(stage: Stage, a: Entry, b: Entry) -> int:
    """Exchange two entries in a drawn stage: each takes the other's matches, boards and place
    in the pools or the bracket. One of them may be an entry of the category that is not in
    the draw (it replaces the other, who leaves the draw). Returns how many matches changed.

    Refused (``Refused``) for entries of another category, a withdrawn entry brought in, or
    when a match of either has a card row or an official round.
    """
    Stage.objects.select_for_update().filter(pk=stage.pk).first()
    ensure(stage, drawn_to_swap)
    if a.pk == b.pk:
        raise Refused(_("Choose two different entries to swap."), field="entry_b")
    for name, entry in (("entry_a", a), ("entry_b", b)):
        if entry.category_id != stage.category_id:
            raise Refused(
                _("%(entry)s is not an entry of %(category)s.")
                % {"entry": entry.name, "category": stage.category.name},
                field=name,
            )
    ids = {a.pk: b, b.pk: a}
    matches = [
        m
        for m in stage.matches.all()
        if any(getattr(m, f"{name}_id") in ids for name in ENTRY_FIELDS)
    ]
    seeded = Pool.entries.through.objects.filter(pool__stage=stage, entry_id__in=ids)
    present = {
        m_id for m in matches for f in ENTRY_FIELDS if (m_id := getattr(m, f"{f}_id")) in ids
    }
    present |= set(seeded.values_list("entry_id", flat=True))
    if not present:
        raise Refused(_("Neither %(a)s nor %(b)s is in the draw.") % {"a": a.name, "b": b.name})
    for name, entry in (("entry_a", a), ("entry_b", b)):
        if entry.pk not in present and entry.withdrawn:
            raise Refused(
                _("%(entry)s has withdrawn and cannot be brought into the draw.")
                % {"entry": entry.name},
                field=name,
            )
    played = _results_in(stage, matches)
    if played:
        raise Refused(
            _("Cannot swap %(a)s and %(b)s: %(played)s.")
            % {"a": a.name, "b": b.name, "played": played},
            kind=Kind.CONFLICT,
        )
    for match in matches:
        for name in ENTRY_FIELDS:
            current = getattr(match, f"{name}_id")
            if current in ids:
                setattr(match, name, ids[current])
    Match.objects.bulk_update(matches, list(ENTRY_FIELDS))
    live.touch("stage", {m.stage_id for m in matches})  # bulk writes send no signals
    through = Pool.entries.through
    for pool_id in set(seeded.values_list("pool_id", flat=True)):
        order = list(
            through.objects.filter(pool_id=pool_id)
            .order_by("id")
            .values_list("entry_id", flat=True)
        )
        through.objects.filter(pool_id=pool_id).delete()
        through.objects.bulk_create(
            through(pool_id=pool_id, entry_id=ids[e].pk if e in ids else e) for e in order
        )
    _note(
        stage,
        _("Swapped %(a)s (%(a_number)s) and %(b)s (%(b_number)s) in the draw.")
        % {"a": a.name, "a_number": a.number, "b": b.name, "b_number": b.number},
    )
    return len(matches)


#: The fields of a match that name an entry.
ENTRY_FIELDS = ("entry_a", "entry_b", "entry_c")
