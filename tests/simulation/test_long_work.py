"""Long work never blocks a request and never hangs.

- A task queue that cannot be reached is said on the page within a second or two, and nothing
  is left queued.
- Work that makes no progress is seen as stalled (since when, why), with Retry and Stop; the
  periodic check sends it again, and fails it with the reason when that does not help. A batch
  that comes back after its run was sent again is not written twice.
- Real worker processes: a dry run on the filesystem broker with results in the database, its
  progress bar seen moving; and a worker killed with ``kill -9`` mid dry run, replaced by a new
  one, after which the run completes with every game written and counted once (on Redis when
  REDIS_URL is set, where the dead worker's tasks come back to the queue; else on the filesystem
  broker, where they are lost and the stall check sends them again).
"""

from __future__ import annotations

import io
import os
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from config.celery import app
from scoring.models import CardRow
from simulation import tasks
from simulation.models import AutoPlay, DryRun, MatchPreview, SimulatedGame, Status
from simulation.services import autoplay, dryrun, playing, runs
from tests.celery_support import Driver, WorkerProcess, scenario_database
from tests.events import OFFICIALS
from tests.simulation.app.support import add_stage, make_tournament, organizer_of
from tournaments.models import Game, Stage
from tournaments.services.draws import draw_stage

#: Nothing listens on port 1: connecting is refused at once, as with a Redis that is not started.
UNREACHABLE = "redis://127.0.0.1:1/0"


@pytest.fixture
def eager() -> Iterator[None]:
    """Tasks run in the test's process, whatever REDIS_URL says."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def unreachable_queue() -> Iterator[str]:
    """The broker is a Redis that is not there; tasks would go to it, not run here."""
    conf = app.conf
    saved = conf.broker_url, conf.broker_transport, conf.task_always_eager
    _new_connections()  # no pooled connection to the real broker answers in its place
    conf.broker_url, conf.broker_transport, conf.task_always_eager = UNREACHABLE, None, False
    yield UNREACHABLE
    conf.broker_url, conf.broker_transport, conf.task_always_eager = saved
    _new_connections()  # and none to the unreachable one stays for the next tests


def _new_connections() -> None:
    """Drop the app's pooled broker connections, as Celery does in a forked process: the next
    task goes over a connection to the broker the settings name now."""
    app._after_fork()


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def _club(slug: str = "stall-open", *, rounds: int = 1):
    """Four players, tiny games, a preliminary of ``rounds`` rounds already drawn."""
    tournament, category = make_tournament(slug, players=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=rounds)
    draw_stage(stage)
    return tournament, category, stage


def _played(stage: Stage) -> int:
    return Game.objects.filter(match__stage=stage, rounds__isnull=False).distinct().count()


# --- (a) a task queue that cannot be reached ----------------------------------------------------


@pytest.mark.django_db
def test_starting_work_with_the_queue_unreachable_says_so_at_once_and_queues_nothing(
    client, unreachable_queue
):
    tournament, _, stage = _club()
    client.force_login(organizer_of(tournament))
    match = stage.matches.first()
    starts = [
        ("dry run", reverse("simulation:dry_run_start", args=[tournament.slug]), {"seed": 1}),
        (
            "preview",
            reverse("simulation:preview_start", args=[tournament.slug, match.pk]),
            {"games": 20},
        ),
        (
            "auto-play",
            reverse("simulation:autoplay_start", args=[tournament.slug]),
            {"scope": "stage", "stage": stage.pk},
        ),
    ]
    for what, url, data in starts:
        began = time.monotonic()
        response = client.post(url, data)
        seconds = time.monotonic() - began

        assert seconds < 3, f"the {what} page took {seconds:.1f} s"
        assert response.status_code == 302, what
        page = client.get(response["Location"]).content.decode()
        assert "was not started: The task queue at redis://127.0.0.1:1/0 cannot be reached" in (
            page
        ), what
        assert "start Redis or the worker; nothing was queued." in page
    assert not DryRun.objects.exists()
    assert not MatchPreview.objects.exists()
    assert not AutoPlay.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_dryrun_command_with_the_queue_unreachable_says_so_at_once_and_queues_nothing(
    unreachable_queue,
):
    tournament, _, _ = _club("command-open")
    began = time.monotonic()
    with pytest.raises(CommandError, match="cannot be reached") as refused:
        call_command("dryrun", tournament=tournament.slug, stdout=io.StringIO())
    assert time.monotonic() - began < 3
    assert unreachable_queue in str(refused.value)
    assert not DryRun.objects.exclude(status=Status.FAILED).exists()


@pytest.mark.django_db
def test_a_pdf_batch_with_the_queue_unreachable_is_refused_at_once_on_the_print_page(
    client, small_event, unreachable_queue
):
    client.force_login(small_event.users[str(OFFICIALS[0])])  # the organizer
    url = reverse(
        "scoring:print-batch-start",
        kwargs={"slug": small_event.tournament.slug, "stage_id": small_event.stage.pk,
                "round_of_play": 1},
    )  # fmt: skip

    began = time.monotonic()
    response = client.post(url)

    assert time.monotonic() - began < 3
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "scoring:print-index", args=[small_event.tournament.slug]
    )
    page = client.get(response["Location"]).content.decode()
    assert "The cards were not printed: The task queue at redis://127.0.0.1:1/0" in page


@pytest.mark.django_db
def test_work_whose_queue_goes_away_before_it_is_sent_is_failed_with_the_reason(
    unreachable_queue, django_capture_on_commit_callbacks
):
    dry = dryrun.create_dry_run(preset="club", entries=5, seed=2)

    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        tasks.send_after_commit(
            tasks.run_dry_run, dry.pk, on_unreachable=lambda e: runs.fail_dry_run(dry.pk, e)
        )

    assert time.monotonic() - began < 3
    dry.refresh_from_db()
    assert dry.status == Status.FAILED
    assert dry.error.startswith("The task queue at redis://127.0.0.1:1/0 cannot be reached")


# --- (b) stalls, retries and batches that come back late ----------------------------------------


def _age(run: AutoPlay, minutes: int = 10) -> None:
    """The run as it stands ``minutes`` later with nothing come back: what a dead worker leaves."""
    past = timezone.now() - timedelta(minutes=minutes)
    in_flight = [{**batch, "sent_at": past.isoformat()} for batch in run.in_flight]
    AutoPlay.objects.filter(pk=run.pk).update(started_at=past, in_flight=in_flight)
    run.refresh_from_db()


def _results(batch: runs.Dispatch) -> list[dict]:
    return [playing.play_match_job(job) for job in batch.jobs]


@pytest.mark.django_db
def test_a_run_whose_batches_never_come_back_shows_stalled_and_retry_finishes_it_once(
    client, eager, django_capture_on_commit_callbacks
):
    tournament, _, stage = _club()
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage, seed=4
    )
    lost = runs.start(run.pk).batches[0]  # sent, and its worker died with it
    run.refresh_from_db()
    assert runs.stall_of(run) is None  # just sent: not stalled
    _age(run)
    status_url = reverse("simulation:autoplay_status", args=[tournament.slug, run.pk])

    stall = runs.stall_of(run)
    assert stall is not None and "nothing has come back from the workers" in stall.reason
    anonymous = client.get(status_url).content.decode()
    assert "Stalled since" in anonymous and "Retry" not in anonymous
    client.force_login(organizer_of(tournament))
    page = client.get(status_url).content.decode()
    assert "<strong>Stalled</strong>" in page and "Preliminary, round 1" in page
    assert "Retry</button>" in page and "Stop</button>" in page

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("simulation:autoplay_retry", args=[tournament.slug, run.pk]))
    assert response.status_code == 302
    assert "Auto-play was sent to the workers again." in _messages(response)

    run.refresh_from_db()
    assert run.status == Status.DONE, run.error
    assert run.games_played == 2 == _played(stage)
    # The lost batch comes back at last: it was dropped by the retry, so nothing is written.
    runs.apply_batch(run.pk, lost.id, _results(lost))
    run.refresh_from_db()
    assert run.games_played == 2 == _played(stage)
    assert SimulatedGame.objects.filter(game__match__stage=stage).count() == 2
    assert CardRow.objects.filter(game__match__stage=stage).count() == 4


@pytest.mark.django_db
def test_a_game_handed_over_twice_in_one_batch_is_written_and_counted_once():
    tournament, _, stage = _club()
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage, seed=4
    )
    batch = runs.start(run.pk).batches[0]
    results = _results(batch)

    runs.apply_batch(run.pk, batch.id, results + results)  # a header task delivered twice

    run.refresh_from_db()
    assert run.status == Status.DONE, run.error
    assert run.games_played == 2 == _played(stage)
    assert CardRow.objects.filter(game__match__stage=stage).count() == 4


@pytest.mark.django_db
def test_the_periodic_check_sends_a_stalled_run_again_then_fails_it_with_the_reason(
    client, eager, settings
):
    settings.SIMULATION_STALL_SECONDS = 60
    tournament, _, stage = _club(rounds=2)
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage, seed=4
    )
    runs.start(run.pk)
    run.refresh_from_db()
    _age(run)

    tasks.check_stalled_runs()  # as the worker's beat runs it

    run.refresh_from_db()
    assert run.status == Status.DONE, run.error
    assert run.games_played == 4 == _played(stage)

    # A run that the workers never answer: sent again MAX_AUTO_RESUMES times, then failed.
    other, _, other_stage = _club("never-answered")
    stuck = autoplay.create_autoplay(
        tournament=other, scope=AutoPlay.Scope.STAGE, stage=other_stage, seed=4
    )
    runs.start(stuck.pk)
    for resumed in range(1, runs.MAX_AUTO_RESUMES + 1):
        stuck.refresh_from_db()
        _age(stuck)
        steps = runs.check_stalled()  # what it would send is never played
        stuck.refresh_from_db()
        assert stuck.status == Status.RUNNING and steps[0].batches
        assert [batch["resumed"] for batch in stuck.in_flight] == [resumed]
    _age(stuck)
    runs.check_stalled()

    stuck.refresh_from_db()
    assert stuck.status == Status.FAILED
    assert stuck.error.startswith("Stalled: nothing has come back from the workers for")
    assert f"sending it again {runs.MAX_AUTO_RESUMES} times did not help" in stuck.error
    client.force_login(organizer_of(other))
    page = client.get(reverse("simulation:autoplay", args=[other.slug, stuck.pk])).content
    assert b"Retry</button>" in page and b"Stop</button>" not in page


@pytest.mark.django_db
def test_a_dry_run_no_worker_picked_up_is_stalled_and_retry_plays_it_and_shows_the_copy_last(
    client, eager, django_capture_on_commit_callbacks
):
    tournament, category = make_tournament("rehearsed", players=4)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    dry = dryrun.create_dry_run(source=tournament, category=category, seed=3)
    DryRun.objects.filter(pk=dry.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    client.force_login(organizer_of(tournament))
    detail = reverse("simulation:dry_run", args=[tournament.slug, dry.pk])

    page = client.get(detail).content.decode()
    assert "Stalled since" in page and "no worker has started it" in page
    assert "Retry</button>" in page

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("simulation:dry_run_retry", args=[tournament.slug, dry.pk]))

    dry.refresh_from_db()
    assert dry.status == Status.DONE, dry.error
    assert dry.copy.get_absolute_url() in client.get(detail).content.decode()


@pytest.mark.django_db
def test_a_half_played_dry_run_does_not_link_its_copy_and_can_be_stopped(client):
    tournament, category = make_tournament("half-played", players=4)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    dry = dryrun.create_dry_run(source=tournament, category=category, seed=3)
    runs.start_dry_run(dry.pk)  # its batches went out to the workers
    dry.refresh_from_db()
    client.force_login(organizer_of(tournament))
    detail = reverse("simulation:dry_run", args=[tournament.slug, dry.pk])

    page = client.get(detail).content.decode()
    assert dry.status == Status.RUNNING and dry.copy is not None
    assert dry.copy.get_absolute_url() not in page and "Stalled" not in page

    response = client.post(reverse("simulation:dry_run_stop", args=[tournament.slug, dry.pk]))

    assert response.status_code == 302
    dry.refresh_from_db()
    assert dry.status == Status.FAILED and dry.error == "Stopped by org."
    assert dry.run.status == Status.FAILED


@pytest.mark.django_db
def test_a_dry_run_whose_worker_died_after_its_run_ended_is_ended_by_the_check():
    tournament, category = make_tournament("ended", players=4)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    dry = dryrun.create_dry_run(source=tournament, category=category, seed=3)
    step = runs.start_dry_run(dry.pk)
    for batch in step.batches:
        runs.apply_batch(step.run_id, batch.id, _results(batch))
    # The run finished, and its worker died before the dry run around it was told.
    DryRun.objects.filter(pk=dry.pk).update(status=Status.RUNNING, summary=None, finished_at=None)
    dry.refresh_from_db()
    assert dry.status == Status.RUNNING and dry.run.status == Status.DONE

    runs.check_stalled()

    dry.refresh_from_db()
    assert dry.status == Status.DONE and dry.summary["games"] == 2


@pytest.mark.django_db
def test_a_dry_run_delivered_again_after_its_copy_was_built_starts_its_run_once():
    tournament, category = make_tournament("again", players=4)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    dry = dryrun.create_dry_run(source=tournament, category=category, seed=3)
    # The first delivery built the copy, and its worker died before the run started.
    DryRun.objects.filter(pk=dry.pk).update(status=Status.RUNNING, started_at=timezone.now())
    dry.refresh_from_db()
    run = dryrun.build_copy(dry)
    dry.save(update_fields=["copy", "run"])

    step = runs.start_dry_run(dry.pk)  # the task comes back from the queue
    runs.mark_sent(step.run_id, [b.id for b in step.batches])  # as the task does once sent
    again = runs.start_dry_run(dry.pk)

    assert step.run_id == run.pk and len(step.batches) == 1 and again.batches == ()
    assert AutoPlay.objects.filter(tournament=dry.copy).count() == 1


@pytest.mark.django_db
def test_a_preview_whose_games_never_come_back_is_stalled_and_can_be_stopped(client):
    tournament, _, stage = _club("previewed")
    match = stage.matches.first()
    preview = MatchPreview.objects.create(match=match, games=20, players={}, status=Status.RUNNING)
    MatchPreview.objects.filter(pk=preview.pk).update(
        created_at=timezone.now() - timedelta(minutes=10)
    )
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("simulation:match", args=[tournament.slug, match.pk])).content
    assert b"Stalled since" in page and b"Stop</button>" in page

    client.post(reverse("simulation:preview_stop", args=[tournament.slug, preview.pk]))

    preview.refresh_from_db()
    assert preview.status == Status.FAILED and preview.error == "Stopped by org."


@pytest.mark.django_db
def test_retry_and_stop_are_steps_that_say_why_they_do_not_apply(client, eager):
    """Retry is for work that stalled or failed, Stop for work under way; a dry run's own run
    is retried through its dry run. The page offers what the steps allow, and a post of a
    button that no longer applies (a second Stop) is refused in words, changing nothing."""
    from simulation.actions import Work, retry_autoplay, stop_autoplay
    from tournaments.actions import Kind

    tournament, _, stage = _club("steps")
    organizer = organizer_of(tournament)
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage, seed=4
    )
    runs.start(run.pk)
    run.refresh_from_db()
    moving = retry_autoplay.refusal(organizer, Work(run))
    assert (
        moving.kind == Kind.CONFLICT and "Retry is for work that stalled or failed" in moving.text
    )
    assert stop_autoplay.refusal(organizer, Work(run)) is None
    client.force_login(organizer)
    status = client.get(reverse("simulation:autoplay_status", args=[tournament.slug, run.pk]))
    assert b"Stop</button>" in status.content and b"Retry</button>" not in status.content

    stop = reverse("simulation:autoplay_stop", args=[tournament.slug, run.pk])
    assert "Auto-play was stopped." in _messages(client.post(stop))
    again = client.post(stop)
    refusal = "This work has already ended (failed): there is nothing to stop."
    assert _messages(again)[-1] == refusal
    run.refresh_from_db()
    assert run.status == Status.FAILED and run.error == "Stopped by org."
    assert retry_autoplay.refusal(organizer, Work(run)) is None  # failed: Retry applies

    dry = dryrun.create_dry_run(source=tournament, preset="club", entries=5, seed=2)
    runs.start_dry_run(dry.pk)
    dry.refresh_from_db()
    runs.fail(dry.run_id, "lost")
    dry.run.refresh_from_db()
    own = retry_autoplay.unmet(Work(dry.run))  # (its copy is organized by nobody here)
    assert own.text == f"This run plays dry run {dry.pk}: retry the dry run instead."
    stranger = organizer_of(_club("elsewhere")[0], "other-org")  # organizes another event
    refused = stop_autoplay.refusal(stranger, Work(run))
    assert refused.kind == Kind.FORBIDDEN and "organizers" in refused.text


# --- (c) and (d) real worker processes ----------------------------------------------------------


@pytest.fixture(scope="module")
def workers_db(tmp_path_factory) -> Iterator[dict[str, str]]:
    """A migrated database that worker processes and the driver share (one per module: the
    tests use tournaments of their own)."""
    with scenario_database(tmp_path_factory.mktemp("workers")) as env:
        yield env


def _check_played_once(end: dict) -> None:
    """Every match of the copy was played to its end, and every game written and counted once."""
    assert end["status"] == Status.DONE, end["error"]
    assert end["unfinished"] == 0
    assert end["played"] > 0
    assert end["games_played"] == end["played"] == end["simulated"] == end["summary_games"]
    assert end["rows_per_game"] == [2]  # one row per side, never two
    assert end["copy_link"]


@pytest.mark.slow
def test_a_worker_on_the_filesystem_broker_plays_a_dry_run_and_its_bar_moves(workers_db, tmp_path):
    env = {
        **workers_db,
        "BROKER_URL": "filesystem://",
        "BROKER_FOLDER": str(tmp_path / "broker"),
    }
    worker = WorkerProcess(env, tmp_path / "worker.log", "files")
    driver = None
    try:
        worker.wait_ready()
        driver = Driver(env, "files-night", "5", "300")
        lines = list(driver.lines())
    finally:
        if driver is not None:
            driver.close()
        worker.stop()

    started, *progress, end = lines
    # The page answers at once: the dry run is played by the worker, not in the request.
    assert started["code"] == 302 and started["seconds"] < 10
    bars = [line["bar"] for line in progress if line["status"] == Status.RUNNING]
    assert any(bar is not None and 0 < bar < 100 for bar in bars), progress
    assert [bar for bar in bars if bar is not None] == sorted(b for b in bars if b is not None)
    _check_played_once(end)
    assert end["stored_results"] > 0  # the games' results went through the database


def _unfinished_by_first(tmp_path: Path, held: set[str]) -> set[str]:
    """The held tasks that the killed worker had not logged as done."""
    before = (tmp_path / "first.log").read_text(errors="replace")
    return {task_id for task_id in held if f"write_batch[{task_id}] succeeded" not in before}


def _wait_received(tmp_path: Path, held: set[str], timeout: float) -> None:
    """Until the second worker has received every task the first held unfinished (or the
    timeout: the assertion after says which)."""
    deadline = time.monotonic() + timeout
    unfinished = _unfinished_by_first(tmp_path, held)
    while time.monotonic() < deadline:
        after = (tmp_path / "second.log").read_text(errors="replace")
        if all(f"write_batch[{task_id}] received" in after for task_id in unfinished):
            return
        time.sleep(0.5)


@pytest.mark.slow
def test_a_worker_killed_mid_dry_run_is_replaced_and_the_run_completes_once(workers_db, tmp_path):
    redis = os.environ.get("REDIS_URL", "")
    if redis:
        # The dead worker's tasks come back to the queue after the visibility timeout; the
        # stall check is kept out of the way, so that is what completes the run.
        env = {
            **workers_db,
            "REDIS_URL": redis,
            "CELERY_QUEUE": f"long-work-{uuid.uuid4().hex[:12]}",
            "TASK_VISIBILITY_TIMEOUT": "8",
            "SIMULATION_STALL_SECONDS": "3600",
        }
    else:
        # Files taken by the dead worker are lost with it: the stall check sends them again.
        env = {
            **workers_db,
            "BROKER_URL": "filesystem://",
            "BROKER_FOLDER": str(tmp_path / "broker"),
            "SIMULATION_STALL_SECONDS": "8",
            "STALL_CHECK_SECONDS": "1",
        }
    first = WorkerProcess(env, tmp_path / "first.log", "first")
    second = driver = None
    try:
        first.wait_ready()
        driver = Driver(env, "killed-night", "5", "400")
        lines = driver.lines()
        seen = []
        for line in lines:
            seen.append(line)
            if line["event"] == "progress" and line["played"] > 0:
                break
        # Killed while it holds a batch being written: a task taken and not acknowledged.
        held = first.wait_taken("simulation.tasks.write_batch")
        first.kill()
        killed_at = seen[-1]
        second = WorkerProcess(env, tmp_path / "second.log", "second")
        second.wait_ready()
        seen.extend(lines)
        if redis:
            # The run may complete without the tasks the dead worker held (it wrote its batch
            # and sent the next before it died, unacknowledged): they still come back from
            # Redis once their visibility timeout is over, and the new worker must take them.
            _wait_received(tmp_path, held, timeout=90)
    finally:
        if driver is not None:
            driver.close()
        first.stop()
        if second is not None:
            second.stop()

    assert killed_at["event"] == "progress", seen
    assert killed_at["status"] == Status.RUNNING
    assert 0 < killed_at["played"] < killed_at["expected"]
    _check_played_once(seen[-1])
    after = (tmp_path / "second.log").read_text(errors="replace")
    # The kill lands a moment after the task was seen taken: one the dead worker had finished
    # by then left nothing to recover (the run's completion, checked above, is all there is).
    unfinished = _unfinished_by_first(tmp_path, held)
    if redis:  # the tasks the dead worker held came back from Redis to the new one
        assert all(f"write_batch[{task_id}] received" in after for task_id in unfinished), held
    # Without Redis they are lost with the dead worker. Whether the run needed the stall check
    # (which sends its work again, ``test_the_periodic_check_sends_a_stalled_run_again...``)
    # depends on where the kill landed: a batch written before the worker died is planned on
    # by the next batch written. Either way the run completed, every game played once.
