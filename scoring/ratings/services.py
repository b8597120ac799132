"""Ratings kept from the record: moved by each verified game, recomputed in full when needed.

Two ways to the same figures (a test holds them equal):

- :func:`game_changed`, after a game's official result changed (on commit): the game is
  recorded (``recording.sync_game``) and, when it is the newest game of each of its people (the
  usual case: a result just verified), their ratings move by that one game, read from and
  written to their ``Rating`` rows alone, with one ``RatingPoint`` each. Anything else (an older
  game inserted, a result corrected or withdrawn, a game moved to another discipline) cannot be
  undone one game at a time, so the discipline's full recompute is queued.
- :func:`recompute`: the whole record of a discipline replayed in order (``played_on``,
  ``sequence``, id) by the pure core (``scoring.engine.rating``), and its ``Rating`` and
  ``RatingPoint`` rows rewritten in one transaction with bulk inserts (PostgreSQL's ``COPY``,
  SQLite's ``executemany``): 200,000 games in seconds.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from scoring.engine.rating import Belief, Params, RatedGame, RatingBook
from scoring.models.record import Discipline, Rating, RatingPoint, RecordedGame
from scoring.ratings import book_state, recording
from scoring.ratings.recording import Change

log = logging.getLogger(__name__)

#: Rows written per statement.
BATCH = 5000
#: How often (in games) a recompute reports its progress.
PROGRESS_EVERY = 10_000

Progress = Callable[[int, int], None]
#: SQLite's page cache while a recompute writes (KiB).
SQLITE_CACHE_KB = 256 * 1024
#: Rows from which ``COPY`` pays (below, a plain ``executemany``: one game's two points).
COPY_FROM = 100
#: The columns of a rating point, as the writes give them.
POINT_COLUMNS = ("person_id", "discipline", "game_id", "played_on", "mu", "sigma")
#: What a replay reads of each recorded game.
RECORD_VALUES = (
    "id",
    "played_on",
    "sequence",
    "person_a_id",
    "partner_a_id",
    "person_b_id",
    "partner_b_id",
    "rounds",
)


def params() -> Params:
    """The rating model's settings (the core's, chosen by its backtest)."""
    return Params()


def rated(side_a: Sequence[int], side_b: Sequence[int], rounds: Iterable) -> RatedGame:
    """A recorded game as the pure core reads it (its rounds without who shot first)."""
    return RatedGame(tuple(side_a), tuple(side_b), tuple((r[0], r[1], r[2], r[3]) for r in rounds))


def _sides(game: RecordedGame) -> tuple[list[int], list[int]]:
    a = [game.person_a_id] + ([game.partner_a_id] if game.partner_a_id else [])
    b = [game.person_b_id] + ([game.partner_b_id] if game.partner_b_id else [])
    return a, b


# After one result -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What :func:`game_changed` did: ``"updated"`` (moved by the one game), ``"recompute"``
    (the discipline's recompute queued), or ``"none"``."""

    done: str
    discipline: str = ""


def game_changed(game_id: int) -> Outcome:
    """Keep the record and the ratings equal to game ``game_id``'s official result (called on
    commit of whatever changed it). Never raises: a failure here must not turn a verified
    result into an error page; it is logged and the discipline's recompute queued (the nightly
    run repairs anything else)."""
    try:
        return _game_changed(game_id)
    except Exception:
        log.exception("ratings after game %s: queueing a full recompute", game_id)
        schedule_recompute(None)
        return Outcome("recompute")


@transaction.atomic
def _game_changed(game_id: int) -> Outcome:
    """Recorded and rated in one transaction (one commit: the disk's flush is most of the
    cost of a write)."""
    result = recording.sync_game(game_id)
    if result.change in (Change.UNCHANGED, Change.ABSENT):
        return Outcome("none")
    if result.change == Change.CREATED and update_by(result.game):
        return Outcome("updated", result.game.discipline)
    for discipline in {result.discipline, result.game.discipline if result.game else ""} - {""}:
        transaction.on_commit(partial(schedule_recompute, discipline))
    return Outcome("recompute", result.discipline or result.game.discipline)


def update_by(game: RecordedGame) -> bool:
    """Move the ratings of ``game``'s people by it, if it is the newest game of its discipline
    and the book's field state after the game before it is at hand (``book_state``); False
    (nothing written) otherwise. Runs in the caller's transaction, with the discipline's kept
    state and the people's ``Rating`` rows locked until it commits."""
    written = _update_by(game)
    if written is None:
        return False
    book_state.store(
        game.discipline, book_state.position(game.played_on, game.sequence, game.pk), written
    )
    return True


def _update_by(game: RecordedGame) -> dict | None:
    """The update itself; the book's field state after it, or None when it cannot be done."""
    discipline = game.discipline
    kept = book_state.hold(discipline)
    before = (
        RecordedGame.objects.filter(discipline=discipline)
        .exclude(pk=game.pk)
        .order_by("-played_on", "-sequence", "-id")
        .values_list("played_on", "sequence", "id")
        .first()
    )
    if before is not None and tuple(before) > (game.played_on, game.sequence, game.pk):
        return None  # not the newest game: the replay puts it in its place
    state = book_state.load(kept, book_state.position(*before) if before else None)
    if state is None:
        return None
    side_a, side_b = _sides(game)
    rows = {
        r.person_id: r
        for r in Rating.objects.select_for_update().filter(
            person_id__in=side_a + side_b, discipline=discipline
        )
    }
    book = RatingBook(params())
    book_state.restore(book, state)
    for person, row in rows.items():
        book.beliefs[person] = Belief(row.mu, row.sigma, row.games)
    moved = book.update(rated(side_a, side_b, game.rounds))
    now = timezone.now()
    changed, new = [], []
    for person, belief in moved.items():
        row = rows.get(person) or Rating(person_id=person, discipline=discipline)
        row.mu, row.sigma, row.games = belief.mu, belief.sigma, belief.games
        row.last_played, row.updated_at = game.played_on, now
        (changed if row.pk else new).append(row)
    if changed:
        _update_ratings(changed)
    if new:
        Rating.objects.bulk_create(new)
    insert_rows(
        RatingPoint,
        POINT_COLUMNS,
        [
            (person, discipline, game.pk, game.played_on, belief.mu, belief.sigma)
            for person, belief in moved.items()
        ],
    )
    return book_state.state_of(book)


def schedule_recompute(discipline: str | None) -> None:
    """Queue the discipline's recompute (every discipline for None) on the task queue; eager
    where tasks run in place (the tests, a server without a broker). A queue that cannot be
    reached is logged, not raised: the nightly run catches up."""
    from config.celery import QueueUnreachable, check_queue, publish
    from scoring.ratings.tasks import recompute_ratings

    try:
        check_queue()
        publish(lambda: recompute_ratings.apply_async(kwargs={"discipline": discipline}))
    except QueueUnreachable as exc:
        log.warning("ratings recompute of %s not queued: %s", discipline or "all", exc)


# In full ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recomputed:
    """What a recompute did: games replayed, people rated and points written, in seconds."""

    games: int
    people: int
    points: int
    seconds: float
    #: Of which writing the ratings and their points (deleting the old ones included).
    write_seconds: float = 0.0


def disciplines_of(discipline: str | Sequence[str] | None) -> list[str]:
    """One discipline, several, or every one (None)."""
    if discipline is None:
        return [d.value for d in Discipline]
    return [discipline] if isinstance(discipline, str) else list(discipline)


def recompute(
    discipline: str | Sequence[str] | None = None, progress: Progress | None = None
) -> Recomputed:
    """Replay the whole record of ``discipline`` (one, several, or every one for None) and
    rewrite its
    ``Rating`` and ``RatingPoint`` rows: deleted and written again in one transaction, so a
    page read meanwhile sees the old ratings or the new ones, never half."""
    started = time.perf_counter()
    disciplines = disciplines_of(discipline)
    total = RecordedGame.objects.filter(discipline__in=disciplines).count()
    done = games = people = points = 0
    writing = 0.0
    for each in disciplines:
        base = done

        def step(n: int, _base: int = base) -> None:
            if progress is not None:
                progress(min(_base + n, total), total)

        replayed, rated_people, written, spent = _recompute_one(each, step)
        games, people, points = games + replayed, people + rated_people, points + written
        writing += spent
        done += replayed
    if progress is not None:
        progress(total, total)
    return Recomputed(games, people, points, time.perf_counter() - started, writing)


def _read_record(discipline: str) -> Iterator[tuple]:
    """The discipline's record in the replay's order, as the database gives it (``RECORD_VALUES``
    with the rounds decoded): one plain query, without the ORM's per-row conversions (a date
    stays as the database wrote it, and is written back as is)."""
    table = connection.ops.quote_name(RecordedGame._meta.db_table)
    names = ", ".join(
        connection.ops.quote_name(RecordedGame._meta.get_field(n.removesuffix("_id")).column)
        for n in RECORD_VALUES
    )
    sql = f"SELECT {names} FROM {table} WHERE discipline = %s ORDER BY played_on, sequence, id"
    loads = json.loads
    with connection.cursor() as cursor:
        cursor.execute(sql, [discipline])
        while chunk := cursor.fetchmany(BATCH):
            for *row, rounds in chunk:
                yield (*row, loads(rounds) if isinstance(rounds, str | bytes) else rounds)


def _recompute_one(discipline: str, progress: Callable[[int], None]) -> tuple[int, int, int, float]:
    record = _read_record(discipline)
    book = RatingBook(params())
    update = book.update
    last: dict[int, object] = {}
    final: tuple | None = None
    point_rows: list[tuple] = []
    add = point_rows.append
    count = 0
    for game_id, played_on, sequence, a, pa, b, pb, rounds in record:
        side_a = (a, pa) if pa else (a,)
        side_b = (b, pb) if pb else (b,)
        moved = update(RatedGame(side_a, side_b, tuple((r[0], r[1], r[2], r[3]) for r in rounds)))
        for person, belief in moved.items():
            add((person, discipline, game_id, played_on, belief.mu, belief.sigma))
            last[person] = played_on
        count += 1
        final = (played_on, sequence, game_id)
        if count % PROGRESS_EVERY == 0:
            progress(count)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    rating_rows = [
        (person, discipline, b.mu, b.sigma, b.games, last[person], now)
        for person, b in book.beliefs.items()
    ]
    writing = time.perf_counter()
    with transaction.atomic(), _large_page_cache():
        RatingPoint.objects.filter(discipline=discipline).delete()
        Rating.objects.filter(discipline=discipline).delete()
        insert_rows(
            Rating,
            ("person_id", "discipline", "mu", "sigma", "games", "last_played", "updated_at"),
            rating_rows,
            adapt=False,
        )
        insert_rows(RatingPoint, POINT_COLUMNS, point_rows, adapt=False)
        # A game recorded since the record was read (a result verified meanwhile) would be
        # lost with the rows just rewritten: replay again once this commits.
        if RecordedGame.objects.filter(discipline=discipline).count() != count:
            transaction.on_commit(lambda: schedule_recompute(discipline))
        else:
            state = book_state.state_of(book)
            after = book_state.position(*final) if final else None
            book_state.store(discipline, after, state)
    writing = time.perf_counter() - writing
    progress(count)
    return count, len(rating_rows), len(point_rows), writing


@contextmanager
def _large_page_cache() -> Iterator[None]:
    """On SQLite, a page cache large enough for the indexes of half a million new rows while
    they are written (SQLite's default 2 MB rereads their pages from the disk again and again:
    about twice as slow); put back afterwards. Other databases manage their own memory."""
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        (before,) = cursor.fetchone()
        cursor.execute(f"PRAGMA cache_size = -{SQLITE_CACHE_KB}")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA cache_size = {int(before)}")


def _update_ratings(rows: list[Rating]) -> None:
    """One parameterised ``UPDATE`` per row: ``bulk_update``'s ``CASE`` expressions cost more to
    build than the two rows of a game take to write."""
    table = connection.ops.quote_name(Rating._meta.db_table)
    columns = ("mu", "sigma", "games", "last_played", "updated_at")
    assigned = ", ".join(f"{name} = %s" for name in columns)
    sql = f"UPDATE {table} SET {assigned} WHERE id = %s"  # untranslated: SQL
    values = [(r.mu, r.sigma, r.games, r.last_played, r.updated_at, r.pk) for r in rows]
    with connection.cursor() as cursor:
        cursor.executemany(sql, [_adapted(v) for v in values])


def insert_rows(model, columns: Sequence[str], rows: list[tuple], *, adapt: bool = True) -> None:
    """Insert ``rows`` (tuples in the order of ``columns``) as fast as the database takes them:
    ``COPY`` on PostgreSQL, batched ``executemany`` elsewhere; ``adapt=False`` when their dates
    and times are already as the database stores them. Django's ``bulk_create`` builds
    an object and a parameter list per row, several times slower for half a million rows."""
    if not rows:
        return
    table = connection.ops.quote_name(model._meta.db_table)
    names = [connection.ops.quote_name(model._meta.get_field(c).column) for c in columns]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and len(rows) > COPY_FROM:
            raw = cursor.cursor  # psycopg's own cursor
            copy_sql = f"COPY {table} ({', '.join(names)}) FROM STDIN"  # untranslated: SQL
            with raw.copy(copy_sql) as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["%s"] * len(columns))
        sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})"  # untranslated: SQL
        for start in range(0, len(rows), BATCH):
            chunk = rows[start : start + BATCH]
            cursor.executemany(sql, [_adapted(row) for row in chunk] if adapt else chunk)


def _adapted(row: tuple) -> tuple:
    """Dates and times as the database backend stores them (what ``bulk_create`` would do)."""
    ops = connection.ops
    return tuple(
        ops.adapt_datetimefield_value(v)
        if isinstance(v, datetime)
        else ops.adapt_datefield_value(v)
        if isinstance(v, date)
        else v
        for v in row
    )


def recompute_after_import(record_import) -> Recomputed:
    """After an import was confirmed: recompute the disciplines its games count in, and take an
    import snapshot of each ranking."""
    from scoring.models.record import RankingSnapshot
    from scoring.ratings.ranking import take_snapshot

    disciplines = sorted(
        set(
            RecordedGame.objects.filter(source=record_import)
            .values_list("discipline", flat=True)
            .distinct()
        )
    )
    totals = Recomputed(0, 0, 0, 0.0)
    for discipline in disciplines:
        done = recompute(discipline)
        take_snapshot(discipline, RankingSnapshot.Reason.IMPORT)
        totals = Recomputed(
            totals.games + done.games,
            totals.people + done.people,
            totals.points + done.points,
            totals.seconds + done.seconds,
            totals.write_seconds + done.write_seconds,
        )
    return totals


def set_rated(tournament, rated: bool) -> list[str]:
    """Say whether a tournament's games count for the record (a record keeper's decision), and
    bring the record into line at once: its official games recorded (or its recorded games
    taken out), then the ratings of the disciplines they count in recomputed after commit.
    Returns those disciplines."""
    from django.utils.translation import gettext as _

    from tournaments.models import Game, Tournament

    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.rated == rated:
            return []
        locked.rated = rated
        locked._change_reason = (
            _("Counts for the ranking") if rated else _("No longer counts for the ranking")
        )
        locked.save(update_fields=["rated"])
        tournament.rated = rated
        before = set(
            RecordedGame.objects.filter(tournament=locked).values_list("discipline", flat=True)
        )
        games = Game.objects.filter(match__stage__category__tournament=locked).values_list(
            "pk", flat=True
        )
        for game_id in games.order_by("pk"):
            recording.sync_game(game_id)
        after = set(
            RecordedGame.objects.filter(tournament=locked).values_list("discipline", flat=True)
        )
        disciplines = sorted(before | after)
        for discipline in disciplines:
            transaction.on_commit(partial(schedule_recompute, discipline))
    return disciplines
