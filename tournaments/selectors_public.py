"""Reads behind the public pages (schedule, hall screen, bracket, pools, player pages) and behind
the stage services, which must judge a match by the same rule the pages show.

A game's result comes from its official rounds only (``tournaments.Round``): the points added up,
and, in a playoff game, a 5th round when it was tied after 4 (WCC Scoring: "If after 4 rounds (a
game) the player's scores are tied, a 5th round will be played as a winner has to be
determined"). Every function runs a fixed number of queries whatever the size of the stage or
tournament; game totals are added up by the database, one row per game.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Q, QuerySet, Sum

from scoring import engine
from scoring.models import ShootOutScore
from scoring.selectors import (
    StandingLine,
    stage_games,
    stage_standings,
)
from tournaments import formats
from tournaments.models import Entry, Game, Match, Player, Pool, Stage, Tournament
from tournaments.svg.bracket import BracketMatch, BracketRound, BracketSide

#: Pool names that carry a knockout's seeding (entrants in seed order); the second also records
#: that a match for third place is played. See ``tournaments.services.draws.draw_knockout``.
BRACKET_POOL = "bracket"
#: The pool that holds a Swiss or preliminary field seeded by ``advance``.
FIELD_POOL = "field"
_SEEDING_POOLS = (BRACKET_POOL, FIELD_POOL)

DASH = "\u2013"  # the en dash of a printed score
ENTRY_RELATED = ("player", "team__player_one", "team__player_two")
_MATCH_RELATED = (
    "stage__category",
    "pool",
    "board",
    *(f"entry_a__{name}" for name in ENTRY_RELATED),
    *(f"entry_b__{name}" for name in ENTRY_RELATED),
)


# --- results of games and matches -----------------------------------------------------------


@dataclass(frozen=True)
class GameScore:
    """One game as its official rounds add up; ``winner`` is "a", "b" or None (level)."""

    number: int
    rounds: int
    points: tuple[int, int]
    twenties: tuple[int, int]
    finished: bool
    winner: str | None


@dataclass(frozen=True)
class MatchOutcome:
    """A match so far: its games, the games each side won, and the winner once decided.

    ``complete`` is true for a bye, a match with a winner, or one whose games have all been
    played (a drawn single game outside a championship).
    """

    best_of: int
    games: tuple[GameScore, ...] = ()
    wins: tuple[int, int] = (0, 0)
    winner: str | None = None
    complete: bool = False
    bye: bool = False

    @property
    def started(self) -> bool:
        return any(g.rounds for g in self.games)

    @property
    def points(self) -> tuple[int, int]:
        return (sum(g.points[0] for g in self.games), sum(g.points[1] for g in self.games))

    @property
    def twenties(self) -> tuple[int, int]:
        return (sum(g.twenties[0] for g in self.games), sum(g.twenties[1] for g in self.games))


def game_totals(
    games: QuerySet[Game],
) -> dict[int, list[tuple[int, int, bool, int, int, int, int]]]:
    """(number, rounds played, playoff, points a, points b, 20s a, 20s b) per game, by match id,
    added up by the database (one query)."""
    rows = (
        games.order_by()
        .values("match_id", "number", "is_playoff")
        .annotate(
            played=Count("rounds"),
            pa=Sum("rounds__points_a"),
            pb=Sum("rounds__points_b"),
            ta=Sum("rounds__twenties_a"),
            tb=Sum("rounds__twenties_b"),
        )
    )
    totals: dict[int, list[tuple[int, int, bool, int, int, int, int]]] = defaultdict(list)
    for row in rows:
        totals[row["match_id"]].append(
            (
                row["number"],
                row["played"],
                row["is_playoff"],
                row["pa"] or 0,
                row["pb"] or 0,
                row["ta"] or 0,
                row["tb"] or 0,
            )
        )
    return totals


def outcome_of(
    match: Match,
    totals: Sequence[tuple[int, int, bool, int, int, int, int]],
    rounds_per_game: int,
) -> MatchOutcome:
    """Judge one match from its game totals (see ``game_totals``).

    A game is finished after the category's rounds, except that a tied playoff game plays on
    until a round breaks the tie (WCC Scoring, the 5th round). The match is won by the first side
    to win a majority of ``best_of`` games (WCC: "best two out of three games").
    """
    if match.entry_b_id is None:
        return MatchOutcome(best_of=match.best_of, winner="a", complete=True, bye=True)
    games = []
    wins = [0, 0]
    for number, played, playoff, pa, pb, ta, tb in sorted(totals):
        level = pa == pb
        finished = played >= rounds_per_game and not (playoff and level)
        winner = None if level or not finished else ("a" if pa > pb else "b")
        if winner is not None:
            wins[0 if winner == "a" else 1] += 1
        games.append(GameScore(number, played, (pa, pb), (ta, tb), finished, winner))
    try:
        winner = formats.match_winner(wins[0], wins[1], match.best_of)
    except ValueError:  # more games recorded than the match has: judge by the games won
        winner = "a" if wins[0] > wins[1] else "b" if wins[1] > wins[0] else None
    finished_games = sum(g.finished for g in games)
    return MatchOutcome(
        best_of=match.best_of,
        games=tuple(games),
        wins=(wins[0], wins[1]),
        winner=winner,
        complete=winner is not None or finished_games >= match.best_of,
    )


def match_outcomes(matches: Sequence[Match], games: QuerySet[Game]) -> dict[int, MatchOutcome]:
    """Outcomes of ``matches`` (their stage and category loaded) from ``games``, a queryset that
    covers at least their games (one query)."""
    totals = game_totals(games)
    return {
        m.id: outcome_of(m, totals.get(m.id, ()), m.stage.category.rounds_per_game) for m in matches
    }


def stage_matches(stage: Stage) -> list[Match]:
    """Every match of the stage with what the pages print (one query)."""
    return list(
        Match.objects.filter(stage=stage)
        .select_related(*_MATCH_RELATED)
        .order_by("round_of_play", "board__number", "bracket_slot", "id")
    )


def stage_outcomes(stage: Stage, matches: Sequence[Match] | None = None) -> dict[int, MatchOutcome]:
    """Outcomes of every match of the stage (two queries, one if ``matches`` is given)."""
    if matches is None:
        matches = stage_matches(stage)
    return match_outcomes(matches, Game.objects.filter(match__stage=stage))


def seeded_entries(stage: Stage) -> list[Entry]:
    """The entries seeded into the stage, best first, in the order they were put in its pools
    (pools in name order; one query)."""
    through = Pool.entries.through.objects.filter(pool__stage=stage)
    rows = through.select_related(*(f"entry__{name}" for name in ENTRY_RELATED)).order_by(
        "pool__name", "id"
    )
    return [row.entry for row in rows]


def previous_stage(stage: Stage) -> Stage | None:
    """The stage played before this one (shoot-outs are not played stages)."""
    return (
        Stage.objects.filter(category_id=stage.category_id, order__lt=stage.order)
        .exclude(kind=Stage.Kind.SHOOTOUT)
        .order_by("-order")
        .first()
    )


def next_stage(stage: Stage) -> Stage | None:
    """The stage that the entries advancing from this one go on to."""
    return (
        Stage.objects.filter(category_id=stage.category_id, order__gt=stage.order)
        .exclude(kind=Stage.Kind.SHOOTOUT)
        .order_by("order")
        .first()
    )


# --- knockout --------------------------------------------------------------------------------


@dataclass
class KnockoutState:
    """A knockout as drawn and as played so far: the bracket (entries by id), the stored matches
    by bracket slot, their outcomes, and the entries by id."""

    bracket: formats.Bracket
    entries: dict[str, Entry]
    matches: dict[str, Match]
    outcomes: dict[int, MatchOutcome]
    labels: dict[str, str]
    third_place: bool


def knockout_state(stage: Stage) -> KnockoutState | None:
    """The knockout rebuilt from its seeding and filled with the winners so far; None before the
    draw (five queries).

    The seeding is kept in the stage's bracket pool, in seed order; the bracket follows from it
    by ``formats.single_elimination``, and the winners from the stored matches (by
    ``bracket_slot``). When the previous stage was played in pools the seeds are labelled by
    place and pool ("1A", "2B"), as on the WCC draw sheet.
    """
    pools = list(Pool.objects.filter(stage=stage, name=BRACKET_POOL))
    if not pools:
        return None
    third_place = stage.third_place
    seeds = seeded_entries(stage)
    entries = {str(e.id): e for e in seeds}
    labels = _crossover_labels(stage, [str(e.id) for e in seeds])
    bracket = formats.single_elimination(
        list(entries), best_of=stage.best_of, third_place=third_place, labels=labels or None
    )
    matches = {m.bracket_slot: m for m in stage_matches(stage) if m.bracket_slot}
    outcomes = stage_outcomes(stage, list(matches.values()))
    results = {}
    for slot, match in matches.items():
        outcome = outcomes[match.id]
        if outcome.winner is not None and not outcome.bye:
            winner = match.entry_a_id if outcome.winner == "a" else match.entry_b_id
            results[slot] = str(winner)
    # Only results whose entries match the bracket count (a corrected earlier result may have
    # changed who should be playing); the services report such a conflict.
    bracket = _advance_consistent(bracket, results, matches)
    if not labels:
        labels = {str(e.id): str(number) for number, e in enumerate(seeds, start=1)}
    return KnockoutState(bracket, entries, matches, outcomes, labels, third_place)


def _advance_consistent(
    bracket: formats.Bracket, results: dict[str, str], matches: dict[str, Match]
) -> formats.Bracket:
    """Apply winners round by round, skipping a stored match whose entries differ from the
    bracket's (its result belongs to a pairing that no longer stands)."""
    applied: dict[str, str] = {}
    for rnd in bracket.rounds:
        bracket = formats.advance(bracket, applied)
        for planned in (bracket.match(m.id) for m in rnd):
            stored = matches.get(planned.id)
            if planned.id not in results or stored is None:
                continue
            if {str(stored.entry_a_id), str(stored.entry_b_id)} == set(planned.entries):
                applied[planned.id] = results[planned.id]
    return formats.advance(bracket, applied)


def _crossover_labels(stage: Stage, seeds: list[str]) -> dict[str, str]:
    """Seed labels such as 1A, 1B, 2A when the stage was seeded from two or more pools."""
    before = previous_stage(stage)
    if before is None or before.kind != Stage.Kind.ROUND_ROBIN:
        return {}
    pool_of = {
        str(entry_id): name
        for entry_id, name in Pool.entries.through.objects.filter(pool__stage=before).values_list(
            "entry_id", "pool__name"
        )
    }
    names = sorted(set(pool_of.values()))
    if len(names) < 2 or any(seed not in pool_of for seed in seeds):
        return {}
    # Seeded by place then pool (1A, 1B, 2A, 2B ...); any other seeding keeps plain numbers.
    if any(pool_of[seed] != names[i % len(names)] for i, seed in enumerate(seeds)):
        return {}
    return {seed: f"{i // len(names) + 1}{pool_of[seed]}" for i, seed in enumerate(seeds)}


def bracket_rounds(stage: Stage) -> list[BracketRound]:
    """The knockout as plain data for ``tournaments.svg.bracket_svg`` (five queries)."""
    state = knockout_state(stage)
    if state is None:
        return []
    rounds = []
    for name, rnd in zip(state.bracket.round_names, state.bracket.rounds, strict=True):
        drawn = []
        for planned in rnd:
            stored = state.matches.get(planned.id)
            outcome = state.outcomes.get(stored.id) if stored else None
            same_order = stored is None or str(stored.entry_a_id) == planned.a.entry
            sides = []
            for index, slot in enumerate((planned.a, planned.b)):
                column = index if same_order else 1 - index
                sides.append(_bracket_side(state, slot, planned, outcome, column))
            note = ""
            if stored is not None and stored.board_id:
                note = f"Board {stored.board.number}"
            drawn.append(
                BracketMatch(
                    id=planned.id,
                    position=planned.position,
                    a=sides[0],
                    b=sides[1],
                    best_of=planned.best_of,
                    note=note,
                    third_place=planned.id == formats.THIRD_PLACE,
                )
            )
        rounds.append(BracketRound(name=name, matches=tuple(drawn)))
    return rounds


def _bracket_side(
    state: KnockoutState,
    slot: formats.Slot,
    planned: formats.Match,
    outcome: MatchOutcome | None,
    column: int,
) -> BracketSide:
    if slot.entry is None:
        return BracketSide(name=slot.describe(), known=False)
    games: tuple[int | None, ...] = ()
    wins = None
    if outcome is not None and outcome.started:
        games = tuple(g.points[column] if g.rounds else None for g in outcome.games)
        wins = outcome.wins[column]
    return BracketSide(
        name=state.entries[slot.entry].name,
        seed=state.labels.get(slot.entry, ""),
        wins=wins,
        games=games,
        winner=planned.winner == slot.entry,
    )


# --- pools (round robin) ---------------------------------------------------------------------


@dataclass(frozen=True)
class CrossCell:
    """The games of the row's entry against the column's: (points for, against, 20s for)."""

    games: tuple[tuple[int, int, int], ...] = ()
    self_cell: bool = False


@dataclass
class PoolTable:
    """One pool: its standings (WCC round-robin tiebreaks) and its crosstable in seed order."""

    pool: Pool
    entries: list[Entry]
    lines: list[StandingLine]
    shootouts_required: list[list[Entry]]
    cells: list[list[CrossCell]] = field(default_factory=list)
    problem: str = ""

    @property
    def rows(self) -> list[tuple[Entry, list[CrossCell]]]:
        """The crosstable's rows: each entry with its cells, in seed order."""
        return list(zip(self.entries, self.cells, strict=True))


def pool_tables(stage: Stage) -> list[PoolTable]:
    """Standings and crosstable of every pool of the stage, each pool ranked on its own games
    (WCC round-robin playoff: head-to-head, 20s among the tied, 20s in all games, shoot-out),
    through the same per-pool standings as the tournament page; a few queries per pool."""
    pools = [
        p for p in Pool.objects.filter(stage=stage).order_by("name") if p.name not in _SEEDING_POOLS
    ]
    members: dict[int, list[Entry]] = defaultdict(list)
    through = (
        Pool.entries.through.objects.filter(pool__in=[p.id for p in pools])
        .select_related(*(f"entry__{name}" for name in ENTRY_RELATED))
        .order_by("id")
    )
    for row in through:
        members[row.pool_id].append(row.entry)
    tables = []
    for pool in pools:
        standings = stage_standings(stage, pool)
        entries = members[pool.id]
        tables.append(
            PoolTable(
                pool=pool,
                entries=entries,
                lines=standings.lines,
                shootouts_required=standings.shootouts_required,
                cells=_crosstable(entries, stage_games(stage, pool)),
                problem=standings.problem,
            )
        )
    return tables


def _crosstable(entries: list[Entry], games: list[engine.Game]) -> list[list[CrossCell]]:
    index = {str(e.id): i for i, e in enumerate(entries)}
    found: dict[tuple[int, int], list[tuple[int, int, int]]] = defaultdict(list)
    for game in games:
        if game.a not in index or game.b not in index:
            continue
        (pa, pb), (ta, tb) = game.points, game.twenties
        i, j = index[game.a], index[game.b]
        found[(i, j)].append((pa, pb, ta))
        found[(j, i)].append((pb, pa, tb))
    return [
        [CrossCell(games=tuple(found[(i, j)]), self_cell=i == j) for j in range(len(entries))]
        for i in range(len(entries))
    ]


# --- schedule and hall screen ----------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleRow:
    """One match of a round of play as the board list prints it."""

    match: Match
    outcome: MatchOutcome
    slot: int

    @property
    def board(self) -> int | None:
        return self.match.board.number if self.match.board_id else None

    @property
    def starts_at(self) -> datetime | None:
        return self.match.starts_at

    @property
    def state(self) -> str:
        """One of: bye, to play, in play, finished."""
        if self.outcome.bye:
            return "bye"
        if self.outcome.complete:
            return "finished"
        return "in play" if self.outcome.started else "to play"

    @property
    def winner(self) -> str | None:
        return self.outcome.winner if self.outcome.complete else None

    @property
    def result(self) -> str:
        """Points so far, e.g. 8-0; in a best-of-N the games won and each game's points."""
        played = [g for g in self.outcome.games if g.rounds]
        if self.outcome.bye or not played:
            return ""
        if self.match.best_of == 1:
            pa, pb = played[0].points
            return f"{pa}{DASH}{pb}"
        games = ", ".join(f"{g.points[0]}{DASH}{g.points[1]}" for g in played)
        wa, wb = self.outcome.wins
        return f"{wa}{DASH}{wb} ({games})"


@dataclass
class RoundSchedule:
    """The matches of one round of play of a stage, by board."""

    stage: Stage
    round_of_play: int
    rows: list[ScheduleRow]
    rounds: list[int] = field(default_factory=list)

    @property
    def byes(self) -> list[ScheduleRow]:
        return [r for r in self.rows if r.outcome.bye]

    @property
    def games(self) -> list[ScheduleRow]:
        return [r for r in self.rows if not r.outcome.bye]

    @property
    def finished(self) -> bool:
        return all(r.outcome.complete for r in self.rows)


def _rows(matches: Iterable[Match], outcomes: dict[int, MatchOutcome]) -> list[ScheduleRow]:
    """Rows by board; a board with more games than one in the round is played in time slots."""
    on_board: dict[int, int] = defaultdict(int)
    rows = []
    ordered = sorted(
        matches,
        key=lambda m: (
            m.board is None,
            m.board.number if m.board else 0,
            m.starts_at is None,
            m.starts_at or datetime.min,
            m.id,
        ),
    )
    for match in ordered:
        slot = 1
        if match.board_id:
            on_board[match.board_id] += 1
            slot = on_board[match.board_id]
        rows.append(ScheduleRow(match=match, outcome=outcomes[match.id], slot=slot))
    return rows


def round_schedule(stage: Stage, round_of_play: int) -> RoundSchedule:
    """One round of play of the stage, by board (three queries)."""
    matches = list(
        Match.objects.filter(stage=stage, round_of_play=round_of_play).select_related(
            *_MATCH_RELATED
        )
    )
    outcomes = match_outcomes(
        matches, Game.objects.filter(match__stage=stage, match__round_of_play=round_of_play)
    )
    rounds = sorted(set(Match.objects.filter(stage=stage).values_list("round_of_play", flat=True)))
    return RoundSchedule(stage, round_of_play, _rows(matches, outcomes), rounds)


def stage_rounds(stage: Stage) -> list[int]:
    """The rounds of play drawn so far (one query)."""
    return sorted(set(Match.objects.filter(stage=stage).values_list("round_of_play", flat=True)))


def now_playing(tournament: Tournament) -> list[RoundSchedule]:
    """What the hall screen shows: per stage in play, its current round (the first with a match
    still to finish); for a knockout, every match still to finish (three queries)."""
    matches = list(
        Match.objects.filter(stage__category__tournament=tournament).select_related(*_MATCH_RELATED)
    )
    outcomes = match_outcomes(matches, Game.objects.filter(match__in=_ids(matches)))
    by_stage: dict[int, list[Match]] = defaultdict(list)
    for match in matches:
        by_stage[match.stage_id].append(match)
    screens = []
    for stage_matches_ in by_stage.values():
        open_ = [m for m in stage_matches_ if not outcomes[m.id].complete]
        if not open_:
            continue
        stage = open_[0].stage
        if stage.kind == Stage.Kind.KNOCKOUT:
            shown, current = open_, min(m.round_of_play for m in open_)
        else:
            current = min(m.round_of_play for m in open_)
            shown = [m for m in stage_matches_ if m.round_of_play == current]
        rounds = sorted({m.round_of_play for m in stage_matches_})
        screens.append(RoundSchedule(stage, current, _rows(shown, outcomes), rounds))
    screens.sort(key=lambda s: (s.stage.category.name, s.stage.order))
    return screens


def _ids(matches: Sequence[Match]) -> list[int]:
    return [m.id for m in matches]


# --- player page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerGame:
    """One game (or bye) of a player, from the player's side of the board."""

    match: Match
    game: GameScore | None
    game_number: int
    opponent: Entry | None
    result: str  # "won", "lost", "tied", "to play", "in play", "bye"
    points: tuple[int, int] | None
    twenties: tuple[int, int] | None


@dataclass
class PlayerPage:
    player: Player
    entries: list[Entry]
    games: list[PlayerGame]

    @property
    def totals(self) -> tuple[int, int, int]:
        """Points, points against and 20s in the games played (byes not included)."""
        played = [g for g in self.games if g.points is not None and g.result != "bye"]
        return (
            sum(g.points[0] for g in played),
            sum(g.points[1] for g in played),
            sum(g.twenties[0] for g in played),
        )


def player_page(tournament: Tournament, number: int) -> PlayerPage | None:
    """The player with scorecard ID ``number`` and every game they play, singles and doubles,
    in the order of play (four queries); None when no such player is registered."""
    player = Player.objects.filter(tournament=tournament, number=number).first()
    if player is None:
        return None
    mine = Q(player=player) | Q(team__player_one=player) | Q(team__player_two=player)
    entries = list(Entry.objects.filter(mine).select_related("category", *ENTRY_RELATED))
    ids = [e.id for e in entries]
    matches = list(
        Match.objects.filter(Q(entry_a_id__in=ids) | Q(entry_b_id__in=ids))
        .select_related(*_MATCH_RELATED)
        .order_by("stage__category__name", "stage__order", "round_of_play", "starts_at", "id")
    )
    totals = game_totals(Game.objects.filter(match__in=_ids(matches)))
    games = []
    for match in matches:
        side = 0 if match.entry_a_id in ids else 1
        outcome = outcome_of(match, totals.get(match.id, ()), match.stage.category.rounds_per_game)
        opponent = match.entry_b if side == 0 else match.entry_a
        if outcome.bye:
            stage = match.stage
            games.append(
                PlayerGame(
                    match, None, 1, None, "bye", (stage.bye_points, 0), (stage.bye_twenties, 0)
                )
            )
            continue
        numbers = {g.number: g for g in outcome.games}
        for number in range(1, match.best_of + 1):
            game = numbers.get(number)
            if game is None and (number > 1 and outcome.complete):
                continue  # a game the match did not need, and nobody created it
            games.append(_player_game(match, game, number, opponent, side, outcome.complete))
    return PlayerPage(player=player, entries=entries, games=games)


def _player_game(
    match: Match,
    game: GameScore | None,
    number: int,
    opponent: Entry | None,
    side: int,
    decided: bool = False,
) -> PlayerGame:
    """One line of the player's page. A best-of match has all its games drawn up front; once
    ``decided`` (a side has won the majority: "best two out of three games"), a game nobody
    started is "not needed" rather than "to play"."""
    if game is None or not game.rounds:
        result = "not needed" if decided else "to play"
        return PlayerGame(match, game, number, opponent, result, None, None)
    points = (game.points[side], game.points[1 - side])
    twenties = (game.twenties[side], game.twenties[1 - side])
    if not game.finished:
        result = "in play"
    elif game.winner is None:
        result = "tied"
    else:
        result = "won" if (game.winner == "a") == (side == 0) else "lost"
    return PlayerGame(match, game, number, opponent, result, points, twenties)


# --- links on the tournament page ------------------------------------------------------------


def tournament_stages(tournament: Tournament) -> list[Stage]:
    """Stages of the tournament with their category, in category and play order (one query)."""
    return list(
        Stage.objects.filter(category__tournament=tournament)
        .select_related("category")
        .order_by("category__name", "order")
    )


def stage_for_page(slug: str, stage_id: int) -> Stage | None:
    """The stage if it belongs to the tournament named in the URL (one query)."""
    return (
        Stage.objects.select_related("category__tournament")
        .filter(pk=stage_id, category__tournament__slug=slug)
        .first()
    )


def current_round(stage: Stage) -> int | None:
    """The first round of play with a match still to finish; None when all are (two queries)."""
    matches = stage_matches(stage)
    outcomes = stage_outcomes(stage, matches)
    return min((m.round_of_play for m in matches if not outcomes[m.id].complete), default=None)


# --- shoot-outs ------------------------------------------------------------------------------


def shootout_source(stage: Stage) -> Stage:
    """The stage whose tie a shoot-out settles: the stage itself, or for a shoot-out stage the
    stage played before it."""
    if stage.kind != Stage.Kind.SHOOTOUT:
        return stage
    source = previous_stage(stage)
    if source is None:
        raise ValueError(f"{stage} settles no stage's tie.")
    return source


def play_pools(stage: Stage) -> list[Pool]:
    """The pools the stage is played in (not the pools that only hold a seeding)."""
    return [p for p in stage.pools.all() if p.name not in _SEEDING_POOLS]


def ties_awaiting_shootout(stage: Stage) -> list[list[Entry]]:
    """Groups of entries still tied after every tiebreak, per pool when played in pools."""
    source = shootout_source(stage)
    if len(play_pools(source)) >= 2:
        return [group for table in pool_tables(source) for group in table.shootouts_required]
    return stage_standings(source).shootouts_required


@dataclass
class ShootoutPage:
    """A shoot-out stage: who was called to it, what each shoot-out gave, who is still tied."""

    stage: Stage
    source: Stage
    groups: list[tuple[str, list[Entry]]]
    shootouts: list[tuple[int, list[tuple[Entry, int]]]]
    waiting: list[list[Entry]]


def shootout_page(stage: Stage) -> ShootoutPage:
    """What the public page of a shoot-out stage shows (a constant number of queries)."""
    source = shootout_source(stage)
    groups: dict[str, list[Entry]] = defaultdict(list)
    through = (
        Pool.entries.through.objects.filter(pool__stage=stage)
        .select_related("pool", *(f"entry__{name}" for name in ENTRY_RELATED))
        .order_by("pool__name", "id")
    )
    for row in through:
        groups[row.pool.name].append(row.entry)
    scores = (
        ShootOutScore.objects.filter(shootout__stage=source)
        .select_related("shootout", *(f"entry__{name}" for name in ENTRY_RELATED))
        .order_by("shootout__order", "-twenties", "entry_id")
    )
    shot: dict[int, list[tuple[Entry, int]]] = defaultdict(list)
    for score in scores:
        shot[score.shootout.order].append((score.entry, score.twenties))
    return ShootoutPage(
        stage=stage,
        source=source,
        groups=list(groups.items()),
        shootouts=sorted(shot.items()),
        waiting=ties_awaiting_shootout(source),
    )
