"""Reads of the record for people: a person's profile, two people's head-to-head, and the
leaderboards of a discipline and season.

Everything here reads ``RecordedGame`` and ``RatingPoint`` only (imported seasons and games
verified in the app alike) and counts with the pure ``scoring.engine.record_stats``, so a page and
the API say the same numbers. Each read takes a fixed number of queries, whatever the number of
games: a profile 3 (games with their people and tournaments, current ratings, rating history),
a head-to-head 1, the leaderboards 3 (seasons, games, names of the people on the boards).

What the public sees of a person is the person's choice (``Person.visibility``): a name-only
person's profile and head-to-head say only their name, except to the person themselves and to
the record keepers; results that name them (another person's games, the leaderboards) show their
name without a link to a profile.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

from django.db.models import Q

from scoring.engine.rating import DISPLAY_CENTRE, Belief, display
from scoring.engine.record_stats import (
    MIN_ROUNDS,
    Outcome,
    Performance,
    RateLine,
    SideGame,
    SideRound,
    Streak,
    Summary,
    best_rates,
    longest_streak,
    most_twenties,
    side_game,
    summarise,
    top_streaks,
)
from scoring.models.record import Discipline, Rating, RatingPoint, RecordedGame
from tournaments.models import Person, name_key
from tournaments.permissions import MANAGE_RECORD
from tournaments.svg.rating_chart import ChartPoint

#: Places on each leaderboard.
BOARD_SIZE = 20
#: Names offered by the head-to-head search at most.
SEARCH_LIMIT = 20
#: People on the profile's "most played" list.
TOP_OPPONENTS = 10
#: How far a chain of merges is followed (a merge of a merge...), a guard against a loop.
MAX_MERGE_HOPS = 10
#: The rating everyone starts from, on the display scale (the chart's dashed line).
START_RATING = DISPLAY_CENTRE


# Who sees what ---------------------------------------------------------------------------------


def is_public(person: Person) -> bool:
    """Whether the person's profile is open to everyone (so their name links to it)."""
    return person.visibility == Person.Visibility.PROFILE


def may_see_profile(user, person: Person) -> bool:
    """A public profile is everyone's to see; a name-only person's is theirs (the account that
    claimed them) and the record keepers'."""
    if is_public(person):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return person.user_id == user.pk or user.has_perm(MANAGE_RECORD)


def surviving(person: Person) -> Person:
    """The person a merged duplicate was merged into (following merges of merges), so old links
    still reach the record; the person itself when not merged."""
    hops = 0
    while person.merged_into_id is not None and hops < MAX_MERGE_HOPS:
        person = Person.objects.get(pk=person.merged_into_id)
        hops += 1
    return person


# Plain data the pages and the API show ---------------------------------------------------------


@dataclass(frozen=True)
class PersonRef:
    """A name as results show it; ``public`` says whether it links to a profile."""

    id: int
    name: str
    public: bool

    @classmethod
    def of(cls, person: Person) -> PersonRef:
        return cls(person.pk, person.full_name, is_public(person))


@dataclass(frozen=True)
class TournamentRef:
    """A tournament of this app that a game came from (its public page)."""

    slug: str
    name: str


@dataclass(frozen=True)
class GameRow:
    """One recorded game seen from one person's side."""

    id: int
    played_on: date
    discipline: str
    event: str
    stage: str
    pool: str
    number: int
    tournament: TournamentRef | None
    side: int
    team: tuple[PersonRef, ...]
    opponents: tuple[PersonRef, ...]
    game: SideGame

    @property
    def outcome(self) -> Outcome:
        return self.game.outcome

    @property
    def rounds(self) -> tuple[SideRound, ...]:
        return self.game.rounds

    @property
    def partner(self) -> PersonRef | None:
        """The person's partner in doubles (the other of their side)."""
        return self.team[1] if len(self.team) > 1 else None


@dataclass(frozen=True)
class DisciplineSummary:
    discipline: str
    label: str
    summary: Summary
    #: The current rating and its ± on the display scale, when rated.
    rating: tuple[int, int] | None = None


@dataclass
class EventLine:
    """A person's games at one event, with what they add up to."""

    key: str
    name: str
    tournament: TournamentRef | None
    first_day: date
    last_day: date
    games: list[GameRow] = field(default_factory=list)
    summary: Summary = field(default_factory=Summary)

    @property
    def last_stage(self) -> str:
        """The stage of the person's last game there ("Final G3"): how far they went."""
        return self.games[-1].stage if self.games else ""


@dataclass(frozen=True)
class OpponentLine:
    person: PersonRef
    games: int
    wins: int
    draws: int
    losses: int


@dataclass
class Profile:
    """Everything a profile page shows. ``disciplines`` covers all the person's games; the
    events, games, opponents and the rating history are of ``discipline`` only."""

    person: Person
    disciplines: list[DisciplineSummary]
    discipline: str
    events: list[EventLine]
    games: list[GameRow]
    rating_history: list[ChartPoint]
    opponents: list[OpponentLine]

    @property
    def current(self) -> DisciplineSummary | None:
        return next((d for d in self.disciplines if d.discipline == self.discipline), None)


# Reading games ---------------------------------------------------------------------------------


def _involving(person_id: int) -> Q:
    return (
        Q(person_a_id=person_id)
        | Q(partner_a_id=person_id)
        | Q(person_b_id=person_id)
        | Q(partner_b_id=person_id)
    )


def _with_people():
    return RecordedGame.objects.select_related(
        "person_a", "partner_a", "person_b", "partner_b", "tournament"
    )


def _side_of(game: RecordedGame, person_id: int) -> int:
    return 0 if person_id in (game.person_a_id, game.partner_a_id) else 1


def _team(first: Person, partner: Person | None) -> tuple[PersonRef, ...]:
    return tuple(PersonRef.of(p) for p in (first, partner) if p is not None)


def game_row(game: RecordedGame, person_id: int) -> GameRow:
    """``game`` from the side of ``person_id`` (its people and tournament already loaded)."""
    side = _side_of(game, person_id)
    side_a = _team(game.person_a, game.partner_a)
    side_b = _team(game.person_b, game.partner_b)
    team, opponents = (side_a, side_b) if side == 0 else (side_b, side_a)
    if len(team) > 1 and team[0].id != person_id:
        team = (team[1], team[0])  # the person first, then the partner
    tournament = game.tournament
    return GameRow(
        id=game.pk,
        played_on=game.played_on,
        discipline=game.discipline,
        event=game.event,
        stage=game.stage,
        pool=game.pool,
        number=game.number,
        tournament=TournamentRef(tournament.slug, tournament.name) if tournament else None,
        side=side,
        team=team,
        opponents=opponents,
        game=side_game(
            side,
            (game.points_a, game.points_b),
            (game.twenties_a, game.twenties_b),
            game.rounds or (),
        ),
    )


def discipline_label(value: str) -> str:
    try:
        return str(Discipline(value).label)
    except ValueError:
        return value


def _event_key(row: GameRow) -> str:
    """Games of one tournament of the app belong together; an imported event is told apart by
    its name and year (the same event is played every year)."""
    if row.tournament is not None:
        return f"t:{row.tournament.slug}"
    return f"e:{row.played_on.year}:{row.event}"


def group_events(rows: Iterable[GameRow]) -> list[EventLine]:
    """The games (in the order played) by event, newest event first."""
    events: dict[str, EventLine] = {}
    for row in rows:
        key = _event_key(row)
        line = events.get(key)
        if line is None:
            line = events[key] = EventLine(
                key=key,
                name=row.tournament.name if row.tournament else row.event,
                tournament=row.tournament,
                first_day=row.played_on,
                last_day=row.played_on,
            )
        line.games.append(row)
        line.first_day = min(line.first_day, row.played_on)
        line.last_day = max(line.last_day, row.played_on)
    for line in events.values():
        line.summary = summarise(g.game for g in line.games)
    return sorted(events.values(), key=lambda e: (e.last_day, e.first_day), reverse=True)


def _opponents(rows: Sequence[GameRow]) -> list[OpponentLine]:
    counts: dict[int, Counter] = defaultdict(Counter)
    refs: dict[int, PersonRef] = {}
    for row in rows:
        for opponent in row.opponents:
            refs[opponent.id] = opponent
            counts[opponent.id]["games"] += 1
            counts[opponent.id][row.outcome] += 1
    lines = [
        OpponentLine(refs[pk], c["games"], c["win"], c["draw"], c["loss"])
        for pk, c in counts.items()
    ]
    lines.sort(key=lambda o: (-o.games, o.person.name))
    return lines[:TOP_OPPONENTS]


def profile(person: Person, discipline: str | None = None) -> Profile:
    """A person's record (3 queries): a summary per discipline they played, and for
    ``discipline`` (by default the one they played most) their events, games newest first,
    most played opponents and rating over time."""
    games = list(
        _with_people().filter(_involving(person.pk)).order_by(*RecordedGame._meta.ordering)
    )
    rows = [game_row(game, person.pk) for game in games]
    ratings = {
        r.discipline: display(Belief(r.mu, r.sigma))
        for r in Rating.objects.filter(person=person).only("discipline", "mu", "sigma")
    }
    by_discipline: dict[str, list[GameRow]] = defaultdict(list)
    for row in rows:
        by_discipline[row.discipline].append(row)
    summaries = [
        DisciplineSummary(
            value,
            discipline_label(value),
            summarise(r.game for r in by_discipline[value]),
            ratings.get(value),
        )
        for value in Discipline.values
        if value in by_discipline or value in ratings
    ]
    if discipline is None:
        played = sorted(summaries, key=lambda s: -s.summary.games)
        discipline = played[0].discipline if played else Discipline.SINGLES.value
    chosen = by_discipline.get(discipline, [])
    history = [
        ChartPoint(played_on, *display(Belief(mu, sigma)))
        for played_on, mu, sigma in RatingPoint.objects.filter(person=person, discipline=discipline)
        .order_by("played_on", "game__sequence", "game_id", "id")
        .values_list("played_on", "mu", "sigma")
    ]
    return Profile(
        person=person,
        disciplines=summaries,
        discipline=discipline,
        events=group_events(chosen),
        games=list(reversed(chosen)),
        rating_history=history,
        opponents=_opponents(chosen),
    )


# Head-to-head ----------------------------------------------------------------------------------


@dataclass
class HeadToHead:
    """Every game between two people (on opposite sides; partners in doubles are not
    opponents), from ``person``'s side, with both sides' totals."""

    person: Person
    other: Person
    games: list[GameRow]
    mine: Summary
    theirs: Summary
    by_discipline: list[tuple[str, str, Summary, Summary]]

    @property
    def newest_first(self) -> list[GameRow]:
        return list(reversed(self.games))


def head_to_head(person: Person, other: Person) -> HeadToHead:
    """The games of ``person`` against ``other`` in the order played (1 query)."""
    p, o = person.pk, other.pk
    side_a_p = Q(person_a_id=p) | Q(partner_a_id=p)
    side_b_p = Q(person_b_id=p) | Q(partner_b_id=p)
    side_a_o = Q(person_a_id=o) | Q(partner_a_id=o)
    side_b_o = Q(person_b_id=o) | Q(partner_b_id=o)
    games = _with_people().filter((side_a_p & side_b_o) | (side_b_p & side_a_o))
    rows = [game_row(g, p) for g in games.order_by(*RecordedGame._meta.ordering)]
    theirs = [_flip(row) for row in rows]
    by_discipline = []
    for value in Discipline.values:
        mine_d = [r.game for r in rows if r.discipline == value]
        if mine_d:
            theirs_d = [r.game for r in theirs if r.discipline == value]
            by_discipline.append(
                (value, discipline_label(value), summarise(mine_d), summarise(theirs_d))
            )
    return HeadToHead(
        person=person,
        other=other,
        games=rows,
        mine=summarise(r.game for r in rows),
        theirs=summarise(r.game for r in theirs),
        by_discipline=by_discipline,
    )


def _flip(row: GameRow) -> GameRow:
    """The same game from the other side (no query: the rows hold both sides)."""
    g = row.game
    rounds = tuple(
        SideRound(
            r.points_against,
            r.points_for,
            r.twenties_against,
            r.twenties_for,
            None if r.hammer is None else not r.hammer,
        )
        for r in g.rounds
    )
    game = SideGame(g.points_against, g.points_for, g.twenties_against, g.twenties_for, rounds)
    return GameRow(
        **{**row.__dict__, "side": 1 - row.side, "team": row.opponents, "opponents": row.team}
        | {"game": game}
    )


# Looking people up by name ---------------------------------------------------------------------


def find_people(query: str, *, exclude: int | None = None) -> list[Person]:
    """People whose name holds every word of ``query``, accents, case and punctuation ignored
    (``name_key``), merged duplicates left out; at most :data:`SEARCH_LIMIT`, by name."""
    words = name_key(query).split()
    if not words:
        return []
    people = Person.objects.filter(merged_into__isnull=True)
    for word in words:
        people = people.filter(key__contains=word)
    if exclude is not None:
        people = people.exclude(pk=exclude)
    return list(people[:SEARCH_LIMIT])


# Leaderboards ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TwentiesRow:
    """A side's 20s in one game (both partners in doubles)."""

    rank: int
    people: tuple[PersonRef, ...]
    opponents: tuple[PersonRef, ...]
    twenties: int
    rounds: int
    played_on: date
    event: str
    stage: str
    tournament: TournamentRef | None
    game_id: int


@dataclass(frozen=True)
class RateRow:
    rank: int
    person: PersonRef
    twenties: int
    rounds: int
    rate: float


@dataclass(frozen=True)
class StreakRow:
    rank: int
    person: PersonRef
    length: int
    first_day: date
    last_day: date
    #: True while the streak is still going (its last game is the person's last game).
    running: bool


@dataclass
class Leaderboards:
    discipline: str
    season: int | None
    seasons: list[int]
    most_twenties: list[TwentiesRow]
    best_rates: list[RateRow]
    streaks: list[StreakRow]
    min_rounds: int = MIN_ROUNDS

    @property
    def discipline_label(self) -> str:
        return discipline_label(self.discipline)


def seasons(discipline: str) -> list[int]:
    """The years the record has games of ``discipline`` in, newest first (1 query)."""
    return sorted(
        {
            d.year
            for d in RecordedGame.objects.filter(discipline=discipline).dates("played_on", "year")
        },
        reverse=True,
    )


def _streak_end(runs: Sequence[tuple[Outcome, date]], streak: Streak) -> date:
    return runs[streak.end][1] if streak.end is not None else date.max


def competition_ranks(keys: Sequence[object]) -> list[int]:
    """Ranks of an ordered list where equal keys share a rank ("1, 2, 2, 4")."""
    ranks: list[int] = []
    for index, key in enumerate(keys):
        ranks.append(ranks[-1] if index and key == keys[index - 1] else index + 1)
    return ranks


_BOARD_FIELDS = (
    "id",
    "played_on",
    "sequence",
    "event",
    "stage",
    "person_a_id",
    "partner_a_id",
    "person_b_id",
    "partner_b_id",
    "points_a",
    "points_b",
    "twenties_a",
    "twenties_b",
    "rounds",
    "tournament__slug",
    "tournament__name",
)


def leaderboards(discipline: str, season: int | None = None) -> Leaderboards:
    """The boards of ``discipline`` over all seasons or one (a calendar year), each of
    :data:`BOARD_SIZE` places (3 queries): most 20s in a game, best 20s per round (at least
    :data:`MIN_ROUNDS` rounds), longest win streaks (games won in a row; a draw ends a run)."""
    games = RecordedGame.objects.filter(discipline=discipline)
    if season is not None:
        games = games.filter(played_on__year=season)
    rows = list(games.order_by(*RecordedGame._meta.ordering).values_list(*_BOARD_FIELDS))
    performances: list[Performance] = []
    details: dict[int, tuple[str, str, TournamentRef | None]] = {}
    totals: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    outcomes: dict[int, list[tuple[Outcome, date]]] = defaultdict(list)
    for row in rows:
        (pk, played_on, _seq, event, stage, pa, xa, pb, xb, *numbers) = row
        points_a, points_b, twenties_a, twenties_b, rounds, slug, title = numbers
        details[pk] = (event, stage, TournamentRef(slug, title) if slug else None)
        for side, team, opponents in ((0, (pa, xa), (pb, xb)), (1, (pb, xb), (pa, xa))):
            view = side_game(side, (points_a, points_b), (twenties_a, twenties_b), rounds or ())
            contested = [r for r in view.rounds if r.contested]
            # A game of totals only: its rounds as its points tell them (2 a round).
            played = len(contested) if view.rounds else (points_a + points_b) // 2
            performances.append(
                Performance((team, opponents), pk, view.twenties_for, played, played_on)
            )
            for who in team:
                if who is None:
                    continue
                if contested:
                    totals[who][0] += sum(r.twenties_for for r in contested)
                    totals[who][1] += len(contested)
                outcomes[who].append((view.outcome, played_on))

    best_games = most_twenties(performances, BOARD_SIZE)
    rates = best_rates(
        (RateLine(who, t, r) for who, (t, r) in totals.items()), BOARD_SIZE, MIN_ROUNDS
    )
    streaks = [(who, longest_streak([o for o, _ in runs])) for who, runs in outcomes.items()]
    # Equal streaks: who completed theirs first ranks first.
    streaks.sort(key=lambda item: _streak_end(outcomes[item[0]], item[1]))
    long_runs = top_streaks(streaks, BOARD_SIZE)

    named = {p for perf in best_games for side in perf.who for p in side if p is not None}
    named |= {line.who for line in rates} | {who for who, _ in long_runs}
    people = {
        p.pk: PersonRef.of(p)
        for p in Person.objects.filter(pk__in=named).only("first_name", "last_name", "visibility")
    }

    def refs(ids: Iterable[int | None]) -> tuple[PersonRef, ...]:
        return tuple(people[i] for i in ids if i is not None and i in people)

    twenties_ranks = competition_ranks([(p.twenties, p.rounds) for p in best_games])
    most = []
    for rank, perf in zip(twenties_ranks, best_games, strict=True):
        team, opponents = perf.who
        event, stage, tournament = details[perf.game]
        most.append(
            TwentiesRow(
                rank=rank,
                people=refs(team),
                opponents=refs(opponents),
                twenties=perf.twenties,
                rounds=perf.rounds,
                played_on=perf.played_on,
                event=event,
                stage=stage,
                tournament=tournament,
                game_id=perf.game,
            )
        )
    rate_ranks = competition_ranks([round(line.rate, 6) for line in rates])
    rate_rows = [
        RateRow(rank, people[line.who], line.twenties, line.rounds, line.rate)
        for rank, line in zip(rate_ranks, rates, strict=True)
    ]
    streak_ranks = competition_ranks([streak.length for _, streak in long_runs])
    streak_rows = [
        StreakRow(
            rank=rank,
            person=people[who],
            length=streak.length,
            first_day=outcomes[who][streak.start][1],
            last_day=outcomes[who][streak.end][1],
            running=streak.end == len(outcomes[who]) - 1,
        )
        for rank, (who, streak) in zip(streak_ranks, long_runs, strict=True)
    ]
    return Leaderboards(
        discipline=discipline,
        season=season,
        seasons=seasons(discipline),
        most_twenties=most,
        best_rates=rate_rows,
        streaks=streak_rows,
    )
