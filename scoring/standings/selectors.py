"""Reads: from the database to the pure scoring engine and back.

This is the one place where Django rows become ``scoring.engine`` values. Each function runs a
fixed number of queries whatever the size of the stage, so a 400-player standings page costs the
same number of queries as a 12-player one.

Before and during play the standings say only what is already true (WCC practice: the sheets
pinned up in the hall): a bye counts once its round is being played, and so does a walkover (a
game won because the opponent withdrew or was disqualified, or by the head referee's ruling: a
game won with what a bye is worth under the category's scoring system, see
``scoring.results.outcomes``), nobody is shaded as
advancing before the stage has a result, and a shoot-out is asked for only when play is over
and only where the tie decides something: the cut line (and, when the next stage seeds by place,
the places inside it), or in a last stage the places the event awards (:data:`AWARDED_PLACES`).
A tie for 67th and 68th is shared, never shot out. A recorded shoot-out whose entries the results
no longer leave tied with each other alone (a correction after it, such as the head referee's
change of a closed stage) settles nothing: it is kept, set aside (:class:`SetAsideShootout`, the
engine's judgement) and said in words, and the tie as it now is asks for a shoot-out again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Q
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine.judge import AnyRound
from scoring.models import ShootOutScore
from scoring.results.knockout import bracket_rounds, knockout_state
from scoring.results.outcomes import (
    MATCH_ROW_COLUMNS,
    GameRounds,
    MatchOutcome,
    MatchRow,
    forfeit_words,
    outcome_of,
)
from scoring.results.rules import ROUND_VALUES, unplayed_game, values_round
from scoring.standings.charts import BarChart, phone_chart, standings_chart
from tournaments import formats
from tournaments.models import ENTRY_PEOPLE, Entry, Match, Pool, Stage
from tournaments.selectors import next_stage
from tournaments.svg.bracket import bracket_svg

#: The places a last stage awards (WCC: the podium). A tie on one of them is settled by a
#: shoot-out; a tie below them is shared. A stage with a next stage decides its cut line instead.
AWARDED_PLACES = 3


@dataclass(frozen=True)
class StandingLine:
    """One row of a stage's standings, with the entry it is about."""

    rank: int
    entry: Entry
    games: int
    points: int
    twenties: int
    tiebreak: str | None
    advances: bool
    #: Games among ``games`` won by walkover (W/O), credited with what a bye is worth.
    walkovers: int = 0


def entry_names(entries: Sequence[Entry]) -> str:
    """Entries' names as a sentence says them: "Ann", "Ann and Bob", "Ann, Bob and Cid"."""
    names = [e.name for e in entries]
    if len(names) <= 1:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


@dataclass(frozen=True)
class SetAsideShootout:
    """A recorded shoot-out that no longer counts: the results changed after it was shot and its
    entries are no longer tied with each other alone (``engine.UnsettledShootout``). It stays on
    record; ``now_tied`` are the groups tied now that hold any of its entries."""

    order: int
    entries: tuple[Entry, ...]
    now_tied: tuple[tuple[Entry, ...], ...]

    def _values(self) -> dict[str, object]:
        return {
            "order": self.order,
            "names": entry_names(self.entries),
            "tied": "; ".join(entry_names(group) for group in self.now_tied),
        }

    @property
    def text(self) -> str:
        """What the standings say about it."""
        if self.now_tied:
            return (
                _(
                    "Shoot-out %(order)s (%(names)s) no longer counts: the results changed after "
                    "it, and the tie is now among %(tied)s."
                )
                % self._values()
            )
        return (
            _(
                "Shoot-out %(order)s (%(names)s) no longer counts: the results changed after it, "
                "and %(names)s are no longer tied."
            )
            % self._values()
        )

    @property
    def would(self) -> str:
        """What a preview says about it: the change is not written yet."""
        if self.now_tied:
            return (
                _(
                    "Shoot-out %(order)s (%(names)s) would no longer count: the tie would be "
                    "among %(tied)s."
                )
                % self._values()
            )
        return (
            _(
                "Shoot-out %(order)s (%(names)s) would no longer count: %(names)s would no longer "
                "be tied."
            )
            % self._values()
        )


@dataclass(frozen=True)
class StageStandings:
    stage: Stage
    lines: list[StandingLine]
    shootouts_required: list[list[Entry]]
    #: Why recorded shoot-outs could not be applied at all, if so.
    problem: str = ""
    pool: Pool | None = None
    #: A knockout's bracket drawn as SVG, shown in place of the table.
    bracket_svg: str = ""
    #: The same bracket in its phone layout (rounds one under another), shown on narrow screens.
    bracket_phone_svg: str = ""
    #: Recorded shoot-outs that no longer count (the results changed after them), in order shot.
    set_aside: tuple[SetAsideShootout, ...] = ()

    @property
    def chart(self) -> BarChart:
        """The wide chart, for screens and the printed sheet."""
        return standings_chart(self._chart_rows())

    @property
    def phone_chart(self) -> BarChart:
        """The same bars laid out for a phone's width (``scoring.standings.charts``)."""
        return phone_chart(self._chart_rows())

    def _chart_rows(self) -> list[tuple[int, str, int, int, bool]]:
        return [(x.rank, x.entry.name, x.points, x.twenties, x.advances) for x in self.lines]


@dataclass(frozen=True)
class _StageRead:
    """A stage's (or pool's) matches, games and official rounds, read once: the engine games
    the table ranks and the games the judge decides each match from come from the same rows."""

    matches: list[MatchRow]
    #: Per match id, its games in order with their rounds' points and 20s, as
    #: ``scoring.results.outcomes.games_with_rounds`` lists them.
    games: dict[int, list[GameRounds]]
    #: Every recorded game of a match with two or more sides, in the order it was stored.
    engine_games: list[engine.Game]


#: The columns :func:`_read_stage` reads, one row per official round (or per game without
#: rounds, or per match without games: a bye).
_GAME_COLUMNS = (
    "games__id",
    "games__number",
    "games__is_playoff",
    "games__forfeited_by",
    "games__forfeit_kind",
    "games__forfeit_reason",
)
_ROUND_COLUMNS = tuple(f"games__rounds__{name}" for name in ROUND_VALUES)


def _read_stage(stage: Stage, pool: Pool | None = None) -> _StageRead:
    """Every match of the stage (or of one pool) with its games and official rounds (one query:
    matches, games and rounds joined, only the columns the standings and the judge use)."""
    matches = Match.objects.filter(stage=stage)
    if pool is not None:
        matches = matches.filter(pool=pool)
    rows = matches.order_by("id", "games__number", "games__rounds__number").values_list(
        *MATCH_ROW_COLUMNS, *_GAME_COLUMNS, *_ROUND_COLUMNS
    )
    read: list[MatchRow] = []
    games: dict[int, dict[int, GameRounds]] = defaultdict(dict)
    by_game: dict[int, engine.Game] = {}
    # Engine rounds are immutable and checked when built; a stage repeats the same few stored
    # rounds (2-1-0 points and a few 20s) thousands of times, so each is built and checked once.
    built: dict[tuple, AnyRound] = {}
    match_id = None
    for row in rows:
        if row[0] != match_id:
            match_id, round_of_play, best_of, a, b, c = row[:6]
            read.append(MatchRow(match_id, stage, round_of_play, best_of, a, b, c))
        game_id, number, playoff, lost, kind, reason = row[6:12]
        if game_id is None:  # a match without games (a bye)
            continue
        game = games[match_id].get(number)
        if game is None:
            game = games[match_id][number] = GameRounds(
                number, playoff, [], [], lost, kind, forfeit_words(kind, reason)
            )
        fields = row[12:]
        pa, pb, pc, ta, tb, tc = fields[:6]
        if pa is None:  # a game without rounds yet
            continue
        if pc is None:
            game.points.append((pa, pb))
            game.twenties.append((ta, tb))
        else:
            game.points.append((pa, pb, pc))
            game.twenties.append((ta, tb, tc))
        if b is not None:
            played = by_game.get(game_id)
            if played is None:
                played = by_game[game_id] = engine.Game(
                    a=str(a), b=str(b), c=None if c is None else str(c)
                )
            engine_round = built.get(fields)
            if engine_round is None:
                engine_round = built[fields] = values_round(*fields)
            played.rounds.append(engine_round)
    return _StageRead(
        matches=read,
        games={key: list(value.values()) for key, value in games.items()},
        engine_games=[by_game[key] for key in sorted(by_game)],
    )


def stage_games(stage: Stage, pool: Pool | None = None) -> list[engine.Game]:
    """Every recorded game of the stage (or of one pool) as engine games, keyed by entry id
    (one query)."""
    return _read_stage(stage, pool).engine_games


def stage_shootouts(stage: Stage) -> list[engine.Shootout]:
    """The stage's shoot-outs in the order they were shot (one query)."""
    return [shootout for _order, shootout in numbered_shootouts(stage)]


def numbered_shootouts(stage: Stage) -> list[tuple[int, engine.Shootout]]:
    """The stage's shoot-outs in the order they were shot, each with its number (one query)."""
    grouped: dict[int, dict[str, int]] = defaultdict(dict)
    scores = ShootOutScore.objects.filter(shootout__stage=stage).order_by(
        "shootout__order", "entry_id"
    )
    for order, entry_id, twenties in scores.values_list("shootout__order", "entry_id", "twenties"):
        grouped[order][str(entry_id)] = twenties
    return [(order, engine.Shootout(twenties=t)) for order, t in grouped.items()]


def stage_entries(stage: Stage, pool: Pool | None = None) -> dict[str, Entry]:
    """Entries taking part in the stage: those drawn into its matches or pools; before the draw
    of a category's first stage, every active entry (so check-in shows a table of zeros)."""
    qs = Entry.objects.select_related(*ENTRY_PEOPLE)
    drawn = (
        Q(matches_as_a__stage=stage)
        | Q(matches_as_b__stage=stage)
        | Q(matches_as_c__stage=stage)
        | Q(pools__stage=stage)
    )
    if pool is not None:
        drawn = Q(pools=pool)
    entry_ids = Entry.objects.filter(drawn).values("id")
    entries = {str(e.id): e for e in qs.filter(id__in=entry_ids)}
    if entries or pool is not None:
        return entries  # drawn: no need to ask whether the stage is the category's first
    first_stage = not Stage.objects.filter(category=stage.category, order__lt=stage.order).exists()
    if first_stage:
        entries = {str(e.id): e for e in qs.filter(category=stage.category, withdrawn=False)}
    return entries


@dataclass(frozen=True)
class StageProgress:
    """How far play has gone in a stage (or one of its pools): what its standings may claim.

    ``started``: a result is recorded (a round of a game, or a match decided at the board);
    ``finished``: every match drawn is decided (a Swiss stage also has all its rounds drawn);
    ``byes``: per entry id, the byes whose round of play has started or is finished, the only
    ones credited; ``walkovers``: per entry id, what its walkovers in those rounds credit it (a
    game and the bye score to the side present, a game and nothing to the side that forfeits).
    """

    started: bool
    finished: bool
    byes: dict[str, int]
    walkovers: dict[str, engine.Credit] = field(default_factory=dict)
    #: Per entry id, the games among ``walkovers`` it won (the side present).
    won: dict[str, int] = field(default_factory=dict)

    def credits_won(self, entry_id: str) -> int:
        """Games the entry won by walkover (W/O) in the rounds under way."""
        return self.won.get(entry_id, 0)


def stage_progress(stage: Stage, pool: Pool | None = None) -> StageProgress:
    """Judge every match of the stage (or pool) with the one judge (one query)."""
    return _progress(stage, _read_stage(stage, pool))


def _progress(stage: Stage, read: _StageRead) -> StageProgress:
    """:func:`stage_progress` from the rows already read (no query: the matches carry the
    stage, through which the judge reads the category)."""
    matches = read.matches
    outcomes = {m.id: outcome_of(m, read.games.get(m.id, ())) for m in matches}
    played = {m for m in matches if m.entry_b_id is not None}
    # A match decided by walkover alone is not play at the board: like a bye, it waits for its
    # round to be under way.
    under_way = {
        m.round_of_play
        for m in played
        if outcomes[m.id].started or (outcomes[m.id].complete and not outcomes[m.id].by_walkover)
    }
    finished = bool(matches) and all(outcomes[m.id].complete for m in matches)
    if finished and stage.kind == Stage.Kind.SWISS:
        finished = max(m.round_of_play for m in matches) >= (stage.games_per_entry or 0)
    counted = {m.round_of_play for m in matches} if finished else under_way
    byes: dict[str, int] = defaultdict(int)
    for match in matches:
        if match.entry_b_id is None and match.round_of_play in counted:
            byes[str(match.entry_a_id)] += 1
    walkovers, won = _walkover_credits(
        stage, [m for m in played if m.round_of_play in counted], outcomes
    )
    return StageProgress(
        started=bool(under_way) or (finished and bool(played)),
        finished=finished,
        byes=dict(byes),
        walkovers=walkovers,
        won=won,
    )


def _walkover_credits(
    stage: Stage, matches: Sequence[MatchRow], outcomes: dict[int, MatchOutcome]
) -> tuple[dict[str, engine.Credit], dict[str, int]]:
    """What the walkovers of ``matches`` credit each entry (the games forfeited count as games
    for both sides; the side present gets the bye score of each, as ``outcomes`` scored it), and
    how many each entry won that way."""
    games: dict[str, int] = defaultdict(int)
    points: dict[str, int] = defaultdict(int)
    twenties: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    for match in matches:
        for game in outcomes[match.id].games:
            if not game.walkover or len(game.points) != 2:
                continue
            for index, entry_id in enumerate((match.entry_a_id, match.entry_b_id)):
                key = str(entry_id)
                games[key] += 1
                points[key] += game.points[index]
                twenties[key] += game.twenties[index]
                if game.winner == "ab"[index]:
                    won[key] += 1
    credits = {
        key: engine.Credit(games=count, points=points[key], twenties=twenties[key])
        for key, count in games.items()
    }
    return credits, dict(won)


def stage_standings(stage: Stage, pool: Pool | None = None) -> StageStandings:
    """The stage's standings: points, then the stage's tiebreak chain (WCC by default).

    With ``pool``, the standings of that round-robin pool alone: its games, its entries, and the
    shoot-outs among its entries (WCC: the round-robin tiebreaks look at the games of the pool).
    """
    entries = stage_entries(stage, pool)
    read = _read_stage(stage, pool)
    games = read.engine_games
    numbered = numbered_shootouts(stage)
    progress = _progress(stage, read)
    if pool is not None:
        numbered = [(n, s) for n, s in numbered if set(s.twenties) <= set(entries)]
    shootouts = [shootout for _order, shootout in numbered]
    problem = ""
    try:
        result = rank_entries(stage, games, entries, shootouts, progress.byes, progress.walkovers)
    except engine.EngineInputError as exc:
        # Shoot-outs that cannot be applied at all (an entry no longer in the stage): show the
        # standings without them and say why, rather than failing the page.
        problem = _("Recorded shoot-outs no longer match the ties: %(why)s") % {"why": exc}
        result = rank_entries(stage, games, entries, [], progress.byes, progress.walkovers)
    # Named in standings order, as the page lists them.
    position = {row.entry: index for index, row in enumerate(result.rows)}
    set_aside = tuple(
        SetAsideShootout(
            order=numbered[unsettled.number - 1][0],
            entries=tuple(
                entries[e] for e in sorted(unsettled.shootout.twenties, key=position.__getitem__)
            ),
            now_tied=tuple(
                tuple(entries[e] for e in sorted(group, key=position.__getitem__))
                for group in unsettled.now_tied()
            ),
        )
        for unsettled in result.set_aside
    )
    advance = stage.advance_count or 0
    if pool is not None and advance:
        # The stage's advance count is over all its pools (WCC: the top 2 of each of 2 pools).
        pools = Pool.objects.filter(stage=stage, matches__isnull=False).distinct().count()
        advance //= max(pools, 1)
    lines = [
        StandingLine(
            rank=row.rank,
            entry=entries[row.entry],
            games=row.games,
            points=row.points,
            twenties=row.twenties,
            tiebreak=row.tiebreak,
            advances=progress.started and row.rank <= advance,
            walkovers=progress.credits_won(row.entry),
        )
        for row in result.rows
    ]
    required = []
    if progress.finished and result.shootouts_required:
        ranks = {row.entry: row.rank for row in result.rows}
        groups = [(ranks[group[0]], group) for group in result.shootouts_required]
        required = [[entries[e] for e in group] for group in deciding_ties(stage, groups, advance)]
    if stage.kind == Stage.Kind.KNOCKOUT:
        lines, required = _by_bracket_place(stage, lines, started=progress.started), []
    return StageStandings(
        stage=stage,
        lines=lines,
        shootouts_required=required,
        problem=problem,
        pool=pool,
        set_aside=set_aside,
    )


def deciding_ties(
    stage: Stage, groups: list[tuple[int, list[str]]], advance: int
) -> list[list[str]]:
    """The tied groups (each with the rank its entries share) a shoot-out must settle, because
    the tie decides something (one query, for the next stage):

    - with a next stage, the groups across the cut after ``advance`` places (WCC: "Top
      scorer(s) after all shots are taken will advance") and, when the next stage seeds by
      place (a knockout's 1 v 4, a round robin's snake into pools), the groups inside the cut;
      with no advance count set yet, nothing is decided;
    - in a last stage, the groups on a place it awards (:data:`AWARDED_PLACES`).

    ``scoring.progression.services.advance`` refuses on exactly these ties, so what the
    standings ask for and what advancing needs are the same.
    """
    target = next_stage(stage)
    if target is None:
        return [group for rank, group in groups if rank <= AWARDED_PLACES]
    seeding = target.kind in (Stage.Kind.KNOCKOUT, Stage.Kind.ROUND_ROBIN)
    decided = []
    for rank, group in groups:
        last = rank + len(group) - 1
        across = rank <= advance < last
        inside = seeding and last <= advance
        if advance and (across or inside):
            decided.append(group)
    return decided


def _by_bracket_place(
    stage: Stage, lines: list[StandingLine], *, started: bool
) -> list[StandingLine]:
    """A knockout ranks by how far each entry went (champion, finalist, third…), not by points;
    entries on the same place are listed by points, then 20s."""
    state = knockout_state(stage)
    if state is None:
        return lines
    places = formats.placements(state.bracket)
    last = max(places.values(), default=0) + 1
    ordered = sorted(
        lines, key=lambda x: (places.get(str(x.entry.id), last), -x.points, -x.twenties)
    )
    advance = stage.advance_count or 0
    return [
        replace(
            line,
            rank=places.get(str(line.entry.id), last),
            tiebreak=None,
            advances=started and places.get(str(line.entry.id), last) <= advance,
        )
        for line in ordered
    ]


def rank_entries(
    stage: Stage,
    games: list[engine.Game],
    entries: dict[str, Entry],
    shootouts: list[engine.Shootout],
    byes: dict[str, int],
    walkovers: dict[str, engine.Credit] | None = None,
) -> engine.Standings:
    """``engine.compute_standings`` with the byes given credited: what a game won without play
    is worth under the category's scoring system (``scoring.results.rules.unplayed_game``: the
    stage's bye points in NCA 2-1-0, the target in a game to 100 or to 8) and one game per bye to
    the entry that sat out (``byes`` by entry id: only the byes whose round is under way or over,
    see :func:`stage_progress`), and the ``walkovers`` credits alike (a game won with the same
    score; a game and nothing to the side that forfeits). A knockout bye or walkover only
    passes the entry to the next round and credits nothing. A shoot-out that settles no tie any
    more is set aside, not refused: the results may have been corrected after it
    (``StageStandings.set_aside``)."""
    credits: dict[str, engine.Credit] = {}
    if stage.kind != Stage.Kind.KNOCKOUT:
        bye = unplayed_game(stage)
        credits = {
            key: engine.Credit(
                games=count,
                points=bye.winner * count,
                twenties=bye.twenties * count,
            )
            for key, count in byes.items()
            if count and key in entries
        }
        for key, credit in (walkovers or {}).items():
            if key not in entries:
                continue
            had = credits.get(key, engine.Credit(games=0))
            credits[key] = engine.Credit(
                games=had.games + credit.games,
                points=had.points + credit.points,
                twenties=had.twenties + credit.twenties,
            )
    return engine.compute_standings(
        games,
        chain=stage.chain,
        shootouts=shootouts,
        entries=list(entries),
        credits=credits,
        set_aside_unsettled=True,
    )


def standings_blocks(stage: Stage) -> list[StageStandings]:
    """What a tournament page shows for a stage: one table, or one per round-robin pool (WCC:
    two pools of 8); nothing for a shoot-out stage, whose result shows in the stage it settles."""
    if stage.kind == Stage.Kind.SHOOTOUT:
        return []
    if stage.kind == Stage.Kind.KNOCKOUT:
        rounds = bracket_rounds(stage)
        if rounds:
            standings = stage_standings(stage)
            return [
                replace(
                    standings,
                    bracket_svg=bracket_svg(rounds, title=stage.name),
                    bracket_phone_svg=bracket_svg(rounds, title=stage.name, layout="phone"),
                )
            ]
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        pools = list(stage.pools.filter(matches__isnull=False).distinct().order_by("name"))
        if pools:
            return [stage_standings(stage, pool) for pool in pools]
    return [stage_standings(stage)]


def live_standings(stage: Stage, version: int | None) -> StageStandings:
    """The stage's standings, computed once per live version of the tournament (and language).

    Every open standings page reloads itself after each result (``tournaments.live``): with a
    hall of phones on a 400-player stage, each result would otherwise cost each of them the
    whole ranking (half a second of a core). The version changes with every result, so a
    cached ranking is never one result behind.
    """
    if version is None or not settings.LIVE_CACHE_SECONDS:
        return stage_standings(stage)
    # The database's name keeps apart servers (or test runs) that share one cache, and the
    # language the visitors who read another (``problem`` is written in the active language).
    database = connection.settings_dict["NAME"]
    key = f"standings:{database}:{stage.pk}:{version}:{get_language()}"
    return cache.get_or_set(key, lambda: stage_standings(stage), settings.LIVE_CACHE_SECONDS)
