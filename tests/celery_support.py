"""A real Celery worker for tests: against Redis when REDIS_URL is set (CI), otherwise against
Celery's in-memory broker, so the same tests run everywhere and none is skipped. And worker
processes (that a test may kill) on a database of their own, with a driver that plays the
organizer's browser (below)."""

import contextlib
import functools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from celery import signals
from celery.contrib.testing.worker import start_worker

from config.celery import app

#: This test process's own queue: two test runs sharing one Redis (two checkouts, a developer and
#: CI), or two pytest-xdist workers of one run, must never run each other's tasks against the
#: wrong test database. The xdist worker's name is in it for whoever reads the broker.
QUEUE = f"tests-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{uuid.uuid4().hex[:12]}"


class TaskCounter:
    """Follows the tasks this process sends until its worker has finished running them.

    A task that sends others (a chord's header, the next batch, a retry of itself) sends them
    before it finishes, so when every task sent has finished, nothing is left to run: the work
    the test started is over and its transactions are committed. Waiting for that, instead of
    polling the database, keeps the test's thread off the database while the worker writes: on
    SQLite the test database is one in-memory database shared by both threads, where a reader
    and a writer of the same table lock each other out instead of waiting.

    Tasks are followed by id, counted (a retry is sent again under the same id), so a task
    finishing that the test did not send (the worker's start-up ping) changes nothing.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._pending: Counter[str] = Counter()
        self.sent = 0
        self.finished = 0

    def on_sent(self, headers: dict | None = None, **_: object) -> None:
        with self._changed:
            self._pending[(headers or {}).get("id", "")] += 1
            self.sent += 1

    def on_finished(self, task_id: str = "", **_: object) -> None:
        with self._changed:
            if self._pending[task_id] > 0:
                self._pending[task_id] -= 1
                self.finished += 1
            self._changed.notify_all()

    def wait_until_idle(self, timeout: float = 300) -> None:
        """Block until at least one task was sent and every task sent has finished."""
        with self._changed:
            idle = self._changed.wait_for(
                lambda: self.sent > 0 and self.finished == self.sent, timeout=timeout
            )
            if not idle:
                raise AssertionError(
                    f"the worker was still busy after {timeout} s: "
                    f"{self.finished} of {self.sent} tasks finished"
                )


@contextlib.contextmanager
def running_worker() -> Iterator[TaskCounter]:
    """Run a worker thread consuming the broker of the settings for the duration of the block.

    Tasks sent inside the block go through the broker (eager mode is switched off), so the test
    exercises serialisation, routing and result storage like production does. The block gets a
    ``TaskCounter`` counting from after the worker's start-up check: ``wait_until_idle()`` returns
    once the tasks the test started, and every task they sent, have run.
    """
    eager, queue = app.conf.task_always_eager, app.conf.task_default_queue
    app.conf.task_always_eager = False
    app.conf.task_default_queue = QUEUE
    app.loader.import_module("celery.contrib.testing.tasks")
    counter = TaskCounter()
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=True, shutdown_timeout=10, queues=[QUEUE]
        ):
            signals.before_task_publish.connect(counter.on_sent, weak=False)
            signals.task_postrun.connect(counter.on_finished, weak=False)
            try:
                yield counter
            finally:
                signals.before_task_publish.disconnect(counter.on_sent)
                signals.task_postrun.disconnect(counter.on_finished)
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = eager, queue


# --- worker processes on a database of their own ------------------------------------------------
#
# A worker that is killed (``kill -9``) must be a process, and a process cannot reach the tests'
# database (on SQLite an in-memory one). ``scenario_database`` makes a migrated database that
# processes share: a SQLite file, or a database of its own on the PostgreSQL server of
# DATABASE_URL. ``WorkerProcess`` runs ``celery worker`` on it, in a process group of its own;
# ``drive`` (run with ``python -m tests.celery_support drive``) plays the part of the organizer's
# browser: it starts a dry run through the page and polls its progress partial, printing one JSON
# line per change, then the facts of the finished copy tournament.

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def scenario_database(folder: Path) -> Iterator[dict[str, str]]:
    """A migrated database for worker processes: the environment that points at it."""
    url = os.environ.get("DATABASE_URL", "")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    for name in ("REDIS_URL", "BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "PYTEST_XDIST_WORKER"):
        env.pop(name, None)
    if url.startswith(("postgres://", "postgresql://", "pgsql://")):
        name = f"{_db_name(url)}_workers_{uuid.uuid4().hex[:8]}"
        _postgres(url, f'CREATE DATABASE "{name}"')
        env["DATABASE_URL"] = url.rsplit("/", 1)[0].rstrip("/") + f"/{name}"
        cleanup = functools.partial(
            _postgres, url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
        )
    else:
        env["DATABASE_URL"] = f"sqlite:///{folder / 'workers.sqlite3'}"
        # A file that processes share, as under `make run`: transactions take the write lock
        # when they begin (the suite's in-memory database needs DEFERRED, this one must not).
        env["SQLITE_TRANSACTION_MODE"] = "IMMEDIATE"
        cleanup = None
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=600,
        )
        yield env
    finally:
        if cleanup is not None:
            cleanup()


def _db_name(url: str) -> str:
    return url.rsplit("/", 1)[-1].split("?", 1)[0] or "crokinole"


def _postgres(url: str, statement: str) -> None:
    import environ
    import psycopg

    config = environ.Env.db_url_config(url)
    with psycopg.connect(
        dbname="postgres",
        user=config.get("USER") or None,
        password=config.get("PASSWORD") or None,
        host=config.get("HOST") or None,
        port=config.get("PORT") or None,
        autocommit=True,
    ) as connection:
        connection.execute(statement)


class WorkerProcess:
    """``celery worker`` (prefork, two processes, with beat for the stall check) in a process
    group of its own, logging to ``log``."""

    def __init__(self, env: dict[str, str], log: Path, name: str) -> None:
        self.log = log
        self._file = open(log, "ab")  # noqa: SIM115 - closed by stop() / kill()
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "config", "worker",
                "--loglevel=INFO", "--concurrency=2", "--pool=prefork",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
                "-B", "--schedule", str(log.with_suffix(".beat")), "-n", f"{name}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def wait_ready(self, timeout: float = 180) -> None:
        """Until the worker says it is ready to take tasks."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the worker stopped at start-up:\n{self.log.read_text()}")
            if " ready." in self.log.read_text(errors="replace"):
                return
            time.sleep(0.2)
        raise AssertionError(f"the worker was not ready after {timeout} s:\n{self.log.read_text()}")

    def taken(self, task: str) -> set[str]:
        """Ids of the ``task`` tasks this worker has taken from the queue and not finished."""
        text = self.log.read_text(errors="replace")
        received = set(re.findall(rf"Task {re.escape(task)}\[([\w-]+)\] received", text))
        ended = set(
            re.findall(rf"Task {re.escape(task)}\[([\w-]+)\] (?:succeeded|failed|raised)", text)
        )
        return received - ended

    def wait_taken(self, task: str, timeout: float = 120) -> set[str]:
        """Until the worker holds a ``task`` task it has not finished: its ids."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ids := self.taken(task):
                return ids
            time.sleep(0.02)
        raise AssertionError(f"the worker took no {task} within {timeout} s")

    def kill(self) -> None:
        """``kill -9`` the worker and its pool processes at once, as the kernel's OOM killer
        or a lost machine would: nothing is acknowledged or handed back."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self._file.close()

    def stop(self) -> None:
        """A warm shutdown, or a kill when it takes too long."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
                return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # pool processes left behind, if any
        self._file.close()


class Driver:
    """``drive`` in a process of its own; ``lines()`` yields what it prints, parsed."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.celery_support", "drive", *args],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def lines(self) -> Iterator[dict]:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            if raw.startswith("{"):
                yield json.loads(raw)
            else:
                print(raw, end="")  # the driver's own warnings, for the test's output
        self.process.wait(timeout=30)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


def drive(slug: str, seed: int, timeout: float) -> None:
    """The organizer's side of a dry run, printed as JSON lines: a club night (12 registered
    players, tiny games; a 3-game preliminary, the top 4 to a best-of-3 knockout) started
    through the dry-run page, its progress partial polled until it is done or failed, then the
    facts of the copy tournament that tell whether any game was written or counted twice."""
    import django

    django.setup()
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse

    from scoring.models import CardRow
    from scoring.results.outcomes import stage_outcomes
    from simulation.models import DryRun, SimulatedGame, Status
    from tests.simulation.app.support import add_stage, make_tournament, organizer_of
    from tournaments.models import Game, Stage
    from tournaments.selectors import stage_matches

    def say(**line: object) -> None:
        print(json.dumps(line), flush=True)

    tournament, category = make_tournament(slug, players=12, discs=2, rounds=2, boards=4)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=3, advance_count=4)
    add_stage(category, 2, Stage.Kind.KNOCKOUT, best_of=3, third_place=True)
    client = Client(SERVER_NAME="localhost")
    client.force_login(organizer_of(tournament, f"organizer-{slug}"))
    client.get(reverse("simulation:hub", args=[slug]))  # a process's first page loads the code
    started = time.monotonic()
    response = client.post(
        reverse("simulation:dry_run_start", args=[slug]), {"field": "registered", "seed": seed}
    )
    dry = DryRun.objects.get(source=tournament)
    say(event="started", dry=dry.pk, code=response.status_code, seconds=time.monotonic() - started)
    status_url = reverse("simulation:dry_run_status", args=[slug, dry.pk])
    shown: dict = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        partial = client.get(status_url).content.decode()
        dry = DryRun.objects.select_related("run").get(pk=dry.pk)
        run = dry.run
        line = {
            "event": "progress",
            "status": dry.status,
            "played": run.games_played if run else 0,
            "expected": run.games_expected if run else 0,
            "in_flight": len(run.in_flight) if run else 0,
            "bar": _bar(partial),
            "stalled": "Stalled since" in partial,
        }
        if line != shown:
            say(**line)
            shown = line
        if dry.status in (Status.DONE, Status.FAILED):
            break
        time.sleep(0.3)
    copy = dry.copy
    games = Game.objects.filter(match__stage__category__tournament=copy)
    unfinished = 0
    for stage in Stage.objects.filter(category__tournament=copy):
        outcomes = stage_outcomes(stage, stage_matches(stage))
        unfinished += sum(1 for outcome in outcomes.values() if not outcome.complete)
    rows = (
        CardRow.objects.filter(game__in=games)
        .values("game")
        .annotate(n=Count("id"))
        .values_list("n", flat=True)
    )
    run = dry.run
    stored = 0
    if app.conf.result_backend == "django-db":
        from django_celery_results.models import TaskResult

        stored = TaskResult.objects.filter(task_name="simulation.tasks.play_jobs").count()
    say(
        event="end",
        stored_results=stored,
        status=dry.status,
        error=dry.error,
        games_played=run.games_played if run else 0,
        played=games.filter(rounds__isnull=False).distinct().count(),
        simulated=SimulatedGame.objects.filter(game__in=games).count(),
        rows_per_game=sorted(set(rows)),
        unfinished=unfinished,
        summary_games=(dry.summary or {}).get("games"),
        copy_link=copy is not None
        and copy.get_absolute_url()
        in client.get(reverse("simulation:dry_run", args=[slug, dry.pk])).content.decode(),
    )


def _bar(partial: str) -> int | None:
    """The progress bar's value in the partial, if it has one."""
    found = re.search(r'aria-valuenow="(\d+)"', partial)
    return int(found.group(1)) if found else None


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command != "drive":
        raise SystemExit(f"unknown command {command!r}; the one command is: drive SLUG SEED")
    drive(args[0], int(args[1]), float(args[2]) if len(args) > 2 else 300)
