"""Web benchmark: a 400-player WCC preliminary with 10 games each (2,000 games).

Prints the time to compute the standings and to render the standings page, the number of SQL
queries per page at two field sizes (it must not grow with the number of players), and the PDF
batch's scorecards per second. The baselines, run in the same process, are the naive way of
computing standings (one aggregate query per entry) and, for the PDF, the ordinary path that lays
every card out with WeasyPrint.

Run: .venv/bin/python bench/web.py  (uses a throwaway SQLite database unless DATABASE_URL is set)
"""

import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = tempfile.mkdtemp(prefix="bench-web-")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{WORK}/bench.sqlite3"
os.environ["MEDIA_ROOT"] = WORK
# The page's cost is measured, not the cache of its standings (one ranking per live version,
# which every reload after a result reads): the figures are those of the first visitor.
os.environ.setdefault("LIVE_CACHE_SECONDS", "0")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Sum  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from scoring.standings.selectors import stage_standings  # noqa: E402
from tournaments import formats  # noqa: E402
from tournaments.models import (  # noqa: E402
    Category,
    Entry,
    Game,
    Match,
    Player,
    Round,
    Stage,
    Tournament,
)


def build(players: int, games: int, slug: str) -> Stage:
    """A played preliminary, written with bulk inserts (the bench measures reads)."""
    rng = random.Random(players)
    t = Tournament.objects.create(name=f"Bench {players}", slug=slug)
    c = Category.from_preset(t, "competitive-singles")
    c.save()
    Player.objects.bulk_create(
        Player(tournament=t, first_name=f"P{i}", last_name="Bench", number=i)
        for i in range(1, players + 1)
    )
    Entry.objects.bulk_create(Entry(category=c, player=p) for p in t.players.all())
    stage = Stage.objects.create(
        category=c, name="Preliminary", kind="preliminary", games_per_entry=games, advance_count=16
    )
    ids = [str(e.id) for e in c.entries.all()]
    rounds = formats.preliminary_rounds(ids, games, method="random", seed=1)
    matches = Match.objects.bulk_create(
        Match(stage=stage, round_of_play=n, entry_a_id=int(p.a), entry_b_id=int(p.b))
        for n, rnd in enumerate(rounds, 1)
        for p in rnd
        if p.b is not None
    )
    game_objs = Game.objects.bulk_create(Game(match=m, number=1) for m in matches)
    results = []
    for g in game_objs:
        for number in range(1, 5):
            pa = rng.choice((0, 1, 2))
            results.append(
                Round(
                    game=g,
                    number=number,
                    points_a=pa,
                    points_b=2 - pa,
                    twenties_a=rng.randint(0, 3),
                    twenties_b=rng.randint(0, 3),
                    discs_per_side=8,
                )
            )
    Round.objects.bulk_create(results, batch_size=2000)
    return stage


def naive_standings(stage: Stage) -> list[tuple[int, int, int]]:
    """Baseline: one aggregate query per entry, then sort by points and 20s."""
    rows = []
    for entry in Entry.objects.filter(category=stage.category):
        a = Round.objects.filter(game__match__stage=stage, game__match__entry_a=entry).aggregate(
            p=Sum("points_a"), t=Sum("twenties_a")
        )
        b = Round.objects.filter(game__match__stage=stage, game__match__entry_b=entry).aggregate(
            p=Sum("points_b"), t=Sum("twenties_b")
        )
        rows.append(((a["p"] or 0) + (b["p"] or 0), (a["t"] or 0) + (b["t"] or 0), entry.id))
    rows.sort(reverse=True)
    return rows


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def page_queries(client: Client, stage: Stage) -> int:
    url = reverse("scoring:standings", args=[stage.category.tournament.slug, stage.id])
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, response.status_code
    return len(ctx.captured_queries)


def pdf_cards_per_second(stage: Stage, round_of_play: int) -> tuple[int, float]:
    """Scorecards per second of the PDF batch of one round of play (one card per entry), through
    the same service the Celery task runs in one worker (stamped cards)."""
    from django.core.cache import cache

    from scoring.printing import stamp
    from scoring.printing.batch import build_round_batch
    from scoring.printing.options import PrintOptions

    # Cold: every QR code encoded again, as on the first round printed with these links.
    cache.clear()
    stamp._QR_MEMORY.clear()
    start = time.perf_counter()
    batch = build_round_batch(
        stage_id=stage.id,
        round_of_play=round_of_play,
        batch_id=f"bench-{round_of_play}",
        options=PrintOptions(site="http://localhost"),
    )
    return batch.cards, batch.cards / (time.perf_counter() - start)


def pdf_old_cards_per_second(stage: Stage, round_of_play: int) -> tuple[int, float]:
    """Baseline: the same round through the ordinary path, each card laid out by WeasyPrint in
    chunks of 25 (what the batch did before cards were stamped)."""
    from scoring.printing.batch import CHUNK, round_title
    from scoring.printing.cards import round_cards
    from scoring.printing.options import PrintOptions
    from scoring.printing.render import render_cards

    start = time.perf_counter()
    cards = round_cards(stage, round_of_play)
    options = PrintOptions(site="http://localhost")
    render_cards(cards, options, title=round_title(stage, round_of_play), chunk=CHUNK)
    return len(cards), len(cards) / (time.perf_counter() - start)


def main() -> None:
    call_command("migrate", verbosity=0)
    # The settings allow localhost alone unless told otherwise (the test runner's "testserver"
    # is not added outside tests).
    client = Client(HTTP_HOST="localhost")
    small = build(40, 10, "bench-small")
    big = build(400, 10, "bench-big")
    games = Game.objects.filter(match__stage=big).count()
    rounds = Round.objects.filter(game__match__stage=big).count()
    print(f"field: 400 players, {games} games, {rounds} rounds")

    standings_s = best_of(lambda: stage_standings(big))
    naive_s = best_of(lambda: naive_standings(big), repeat=2)
    url = reverse("scoring:standings", args=[big.category.tournament.slug, big.id])
    page_s = best_of(lambda: client.get(url))
    q_small, q_big = page_queries(client, small), page_queries(client, big)

    print(f"standings (selector + engine): {standings_s * 1000:8.1f} ms")
    print(f"standings, naive per-entry ORM: {naive_s * 1000:8.1f} ms (baseline)")
    print(f"ratio vs baseline:              {naive_s / standings_s:8.1f}x")
    print(f"standings page render:          {page_s * 1000:8.1f} ms")
    print(f"SQL queries per page: 40 players {q_small}, 400 players {q_big}")
    # Old and new alternate on rounds of play not printed before, best of two each; the first
    # (the ordinary path's) makes the entries' private links.
    old_runs, new_runs = [], []
    for old_round, new_round in ((1, 2), (4, 3)):
        for stage_round, runs, measure in (
            (old_round, old_runs, pdf_old_cards_per_second),
            (new_round, new_runs, pdf_cards_per_second),
        ):
            runs.append(measure(big, stage_round))
    count, cards = max(new_runs, key=lambda run: run[1])
    old_count, old_cards = max(old_runs, key=lambda run: run[1])
    seconds = count / cards
    print(f"PDF batch of a round of play:   {count} cards, {cards:.1f} cards/s ({seconds:.1f} s)")
    print(
        f"PDF, ordinary path (baseline):  {old_count} cards, {old_cards:.1f} cards/s "
        f"({old_count / old_cards:.1f} s)"
    )
    print(f"PDF ratio vs baseline:          {cards / old_cards:8.1f}x")
    fields = {
        "standings_ms": f"{standings_s * 1000:.1f}",
        "naive_ms": f"{naive_s * 1000:.1f}",
        "ratio_vs_naive": f"{naive_s / standings_s:.1f}",
        "page_ms": f"{page_s * 1000:.1f}",
        "queries_40": q_small,
        "queries_400": q_big,
    }
    fields["pdf_cards_per_s"] = f"{cards:.1f}"
    fields["pdf_old_cards_per_s"] = f"{old_cards:.1f}"
    fields["pdf_speedup"] = f"{cards / old_cards:.1f}"
    fields["pdf_round_s"] = f"{count / cards:.2f}"
    print("RESULT " + " ".join(f"{k}={v}" for k, v in fields.items()))
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
