"""Benchmark of the ratings: the whole history recomputed, and one verified result applied.

A synthetic record (seeded) of 10,000 people and 200,000 singles games of 4 rounds, over ten
years: each person has a level (normal), each round is won by the side whose level plus the
day's luck is higher, tied when they are close; the better player makes more 20s. It is written
into the database (a SQLite file in a temporary folder, or the database of ``DATABASE_URL``,
e.g. PostgreSQL), then:

- ``recompute_s``: the full recompute (``scoring.ratings.services.recompute``): the record read
  in order, replayed by the pure core, and its 10,000 ratings and 400,000 rating points
  rewritten in one transaction (the old ones deleted: the second run, as every night; the
  first, onto empty tables, is printed beside it). The target: under 60 s.
- ``update_ms``: one verified result, the path the app takes after its commit
  (``services.game_changed``): the tournament game recorded (its rounds read, the record row
  written) and its two people's ratings moved by it alone; the median of ``--updates`` results,
  each a new game between two people of the record. The target: under 50 ms.
- ``ratio_full_vs_update``: what the one-game path saves over the naive way (recomputing the
  whole history after each result), in the same run: ``recompute_s`` over ``update_ms``.
- ``yardstick_s``: 10**7 additions in a Python loop, this machine's speed on the day.

Run: ``python bench/ratings.py [--people 10000] [--games 200000] [--updates 30]``. Ends with
``RESULT recompute_s=... update_ms=... ratio_full_vs_update=... yardstick_s=...``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _path in (ROOT, ROOT / "bench"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

START = datetime.date(2016, 1, 1)
DAYS = 3650
TARGET_RECOMPUTE_S = 60.0
TARGET_UPDATE_MS = 50.0


def setup_django() -> str:
    """Django on the database of ``DATABASE_URL``, else a new SQLite file; migrated."""
    if "DATABASE_URL" not in os.environ:
        folder = tempfile.mkdtemp(prefix="bench-ratings-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.setdefault("LONG_WORK_IN_REQUEST", "1")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.db import connection

    return connection.vendor


def synthetic_games(people: int, games: int, seed: int = 7) -> tuple[list[float], list[tuple]]:
    """Levels of ``people`` and ``games`` games as ``(day, a, b, rounds)``, in date order."""
    rng = random.Random(seed)
    level = [rng.gauss(0.0, 1.0) for _ in range(people)]
    out = []
    for _ in range(games):
        a, b = rng.sample(range(people), 2)
        rounds = []
        for _round in range(4):
            edge = level[a] - level[b] + rng.gauss(0.0, 1.2)
            pa, pb = (2, 0) if edge > 0.3 else (0, 2) if edge < -0.3 else (1, 1)
            ta = max(0, round(rng.gauss(1.0 + 0.5 * level[a], 1.0)))
            tb = max(0, round(rng.gauss(1.0 + 0.5 * level[b], 1.0)))
            rounds.append([pa, pb, min(ta, 8), min(tb, 8), _round % 2])
        out.append((rng.randrange(DAYS), a, b, rounds))
    out.sort(key=lambda g: g[0])
    return level, out


def load_record(people: int, games: int) -> list[int]:
    """Write the synthetic record; the people's ids."""
    import json

    from django.db import transaction
    from django.utils import timezone

    from scoring.models.record import RecordedGame
    from scoring.ratings.services import insert_rows
    from tournaments.models import Person
    from tournaments.models.registry import name_key

    _level, record = synthetic_games(people, games)
    now = timezone.now()
    with transaction.atomic():
        first = [f"P{n}" for n in range(people)]
        Person.objects.bulk_create(
            [Person(first_name=f, last_name="Bench", key=name_key(f, "Bench")) for f in first],
            batch_size=2000,
        )
        ids = list(
            Person.objects.filter(last_name="Bench").order_by("pk").values_list("pk", flat=True)
        )
        columns = (
            "key",
            "discipline",
            "played_on",
            "event",
            "stage",
            "pool",
            "number",
            "sequence",
            "person_a_id",
            "person_b_id",
            "rounds",
            "points_a",
            "points_b",
            "twenties_a",
            "twenties_b",
            "created_at",
        )
        rows = []
        for n, (day, a, b, rounds) in enumerate(record):
            rows.append(
                (
                    f"bench:{n}",
                    "singles",
                    START + datetime.timedelta(days=day),
                    f"Bench event {day}",
                    "Preliminary",
                    "",
                    1,
                    n,
                    ids[a],
                    ids[b],
                    json.dumps(rounds),
                    sum(r[0] for r in rounds),
                    sum(r[1] for r in rounds),
                    sum(r[2] for r in rounds),
                    sum(r[3] for r in rounds),
                    now,
                )
            )
        insert_rows(RecordedGame, columns, rows)
    return ids


def tournament_games(person_ids: list[int], count: int, seed: int = 11) -> list[int]:
    """``count`` verified games of a tournament after the record's last day, each between two
    people of the record (their players linked), with their official rounds; the games' ids."""
    from django.db import transaction

    from tournaments.models import (
        Category,
        Entry,
        Game,
        Match,
        Person,
        Player,
        Round,
        Stage,
        Tournament,
    )

    rng = random.Random(seed)
    day = START + datetime.timedelta(days=DAYS + 1)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name="Bench Open", slug=f"bench-open-{rng.random():.6f}", starts_on=day, rated=True
        )
        category = Category.objects.create(tournament=tournament, name="Singles")
        stage = Stage.objects.create(category=category, name="Preliminary", kind="preliminary")
        chosen = rng.sample(person_ids, 2 * count)
        people = Person.objects.in_bulk(chosen)
        entries = []
        for n, pk in enumerate(chosen):
            person = people[pk]
            player = Player.objects.create(
                tournament=tournament,
                first_name=person.first_name,
                last_name=person.last_name,
                number=n + 1,
                person=person,
            )
            entries.append(Entry.objects.create(category=category, player=player))
        matches = [
            Match.objects.create(stage=stage, entry_a=entries[2 * n], entry_b=entries[2 * n + 1])
            for n in range(count)
        ]
        # In bulk, so that no result is rated before the bench asks (saves would call the hook).
        made = Game.objects.bulk_create(Game(match=match) for match in matches)
        Round.objects.bulk_create(
            Round(game=game, number=r, points_a=2, points_b=0, twenties_a=1)
            if rng.random() < 0.5
            else Round(game=game, number=r, points_a=0, points_b=2, twenties_b=1)
            for game in made
            for r in range(1, 5)
        )
        games = [game.pk for game in made]
    return games


def run(people: int, games: int, updates: int) -> dict[str, float]:
    vendor = setup_django()
    from django.core.cache import cache
    from preview import _machine_loop_s

    from scoring.models.record import Rating, RatingPoint, RecordedGame
    from scoring.ratings import services

    print(f"database: {vendor}; {people:,} people, {games:,} games of 4 rounds")
    started = time.perf_counter()
    ids = load_record(people, games)
    print(f"record written in {time.perf_counter() - started:.1f} s")
    cache.clear()

    first = services.recompute("singles")
    print(f"first recompute (no ratings yet): {first.seconds:.2f} s")
    # The one that counts: every rating and point replaced, as the nightly run does.
    done = services.recompute("singles")
    recompute_s = done.seconds
    print(
        f"full recompute, replacing every rating: {recompute_s:.2f} s ({done.games:,} games, "
        f"{done.people:,} ratings, {done.points:,} rating points; "
        f"target < {TARGET_RECOMPUTE_S:.0f} s)"
    )
    print(
        f"  of which reading and replaying {recompute_s - done.write_seconds:.2f} s, writing "
        f"{done.write_seconds:.2f} s"
    )
    assert Rating.objects.filter(discipline="singles").count() == done.people

    played = tournament_games(ids, updates)
    times = []
    outcomes = []
    for game_id in played:
        t0 = time.perf_counter()
        outcome = services.game_changed(game_id)
        times.append((time.perf_counter() - t0) * 1000)
        outcomes.append(outcome.done)
    update_ms = statistics.median(times)
    assert all(o == "updated" for o in outcomes), outcomes
    assert RecordedGame.objects.count() == games + updates
    assert RatingPoint.objects.count() == 2 * (games + updates)
    print(
        f"one verified result (record + update): median {update_ms:.1f} ms over {updates} "
        f"(min {min(times):.1f}, max {max(times):.1f}; target < {TARGET_UPDATE_MS:.0f} ms)"
    )
    ratio = recompute_s * 1000 / update_ms
    print(f"naive full recomputation per result / one-game update: {ratio:,.0f}x")
    yardstick_s = _machine_loop_s()
    print(f"yardstick (10**7 additions in a Python loop): {yardstick_s:.3f} s")
    return {
        "recompute_s": recompute_s,
        "update_ms": update_ms,
        "ratio_full_vs_update": ratio,
        "yardstick_s": yardstick_s,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--people", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--updates", type=int, default=30)
    args = parser.parse_args(argv)
    figures = run(args.people, args.games, args.updates)
    print(
        "RESULT "
        f"recompute_s={figures['recompute_s']:.2f} update_ms={figures['update_ms']:.2f} "
        f"ratio_full_vs_update={figures['ratio_full_vs_update']:.0f} "
        f"yardstick_s={figures['yardstick_s']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
