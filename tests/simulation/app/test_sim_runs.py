"""The run's state machine: each transition locks the run, checks where it stands and moves it
on once; eager tasks and a real worker drive the very same transitions, in the same order."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable

import pytest

from scoring.models import CardRow
from simulation import tasks
from simulation.models import AutoPlay, DryRun, MatchPreview, SimulatedGame, Status
from simulation.services import autoplay, dryrun, playing, previews, runs
from tests.celery_support import running_worker
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Game, Stage
from tournaments.services.draws import draw_stage

TRANSITIONS = ("start", "plan", "apply_batch", "finish", "fail")
#: How the tasks travel: in this process, or through a broker to a real worker.
TRAVELS = ["eager", pytest.param("worker", marks=pytest.mark.slow)]


def _play(batch: runs.Dispatch) -> list[dict]:
    return [playing.play_match_job(job) for job in batch.jobs]


def _preliminary(rounds: int = 1) -> tuple[AutoPlay, Stage]:
    tournament, category = make_tournament(players=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=rounds)
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage, seed=3
    )
    return run, stage


def _played(stage: Stage) -> int:
    return Game.objects.filter(match__stage=stage, rounds__isnull=False).distinct().count()


@pytest.mark.django_db
def test_a_batch_applied_twice_is_applied_once():
    run, stage = _preliminary()
    step = runs.start(run.pk)
    assert [b.label for b in step.batches] == ["Competitive Singles: Preliminary, round 1"]
    batch = step.batches[0]
    results = _play(batch)

    first = runs.apply_batch(run.pk, batch.id, results)
    again = runs.apply_batch(run.pk, batch.id, results)

    assert first.batches == () and again.batches == ()
    run.refresh_from_db()
    assert run.status == Status.DONE, run.error
    assert (run.games_played, run.batches, run.in_flight) == (2, 1, [])
    assert _played(stage) == 2
    assert SimulatedGame.objects.filter(game__match__stage=stage).count() == 2
    assert CardRow.objects.filter(card__stage=stage).count() == 4  # one row per side, not two


@pytest.mark.django_db
def test_the_next_round_is_out_while_one_is_written_and_may_come_back_first():
    run, stage = _preliminary(rounds=2)
    draw_stage(stage)

    step = runs.start(run.pk)

    one, two = step.batches
    assert one.label.endswith("round 1") and two.label.endswith("round 2")
    run.refresh_from_db()
    assert [b["id"] for b in run.in_flight] == [one.id, two.id]
    assert runs.apply_batch(run.pk, two.id, _play(two)).batches == ()
    run.refresh_from_db()
    assert run.status == Status.RUNNING and [b["id"] for b in run.in_flight] == [one.id]
    runs.apply_batch(run.pk, one.id, _play(one))
    run.refresh_from_db()
    assert run.status == Status.DONE and run.games_played == 4 == _played(stage)


@pytest.mark.django_db
def test_a_failed_run_ends_failed_with_its_message_and_drops_late_batches():
    run, stage = _preliminary()
    batch = runs.start(run.pk).batches[0]

    runs.fail(run.pk, "The hall closes at ten.")
    runs.fail(run.pk, "A second message does not replace the first.")
    late = runs.apply_batch(run.pk, batch.id, _play(batch))

    assert late.batches == ()
    run.refresh_from_db()
    assert run.status == Status.FAILED
    assert run.error == "The hall closes at ten." and run.phase == "Stopped"
    assert run.in_flight == [] and run.finished_at is not None
    assert _played(stage) == 0 and run.games_played == 0
    assert runs.start(run.pk).batches == ()  # a failed run is not started again
    assert AutoPlay.objects.get(pk=run.pk).status == Status.FAILED


@pytest.mark.django_db
def test_a_run_started_twice_sends_its_batches_once():
    run, _ = _preliminary()

    first = runs.start(run.pk)
    runs.mark_sent(run.pk, [b.id for b in first.batches])  # as the task does once it sent them
    second = runs.start(run.pk)

    assert len(first.batches) == 1 and second.batches == ()
    run.refresh_from_db()
    assert len(run.in_flight) == 1 and run.in_flight[0]["sent"]


@pytest.mark.django_db
def test_a_start_whose_worker_died_before_sending_sends_its_batches_when_delivered_again():
    """Planned and committed, then the worker died before the batches reached the broker: the
    start comes back (acknowledged late) and sends them, in place of the lost ones."""
    run, stage = _preliminary()

    lost = runs.start(run.pk).batches
    again = runs.start(run.pk).batches

    assert len(lost) == len(again) == 1 and lost[0].id != again[0].id
    run.refresh_from_db()
    assert [b["id"] for b in run.in_flight] == [again[0].id]
    assert runs.apply_batch(run.pk, lost[0].id, _play(lost[0])).batches == ()  # not written
    runs.apply_batch(run.pk, again[0].id, _play(again[0]))
    run.refresh_from_db()
    assert run.status == Status.DONE and run.games_played == 2 == _played(stage)


@pytest.mark.django_db
def test_three_rounds_drawn_ahead_are_at_the_workers_at_once_and_each_written_once():
    """While a round is written the next two are played (``MAX_IN_FLIGHT``): no worker process
    waits for the write. Written out of order, every game still counts once."""
    run, stage = _preliminary(rounds=3)
    step = runs.start(run.pk)
    labels = [b.label[-7:] for b in step.batches]
    assert runs.MAX_IN_FLIGHT == 3 and labels == ["round 1", "round 2", "round 3"]
    runs.mark_sent(run.pk, [b.id for b in step.batches])
    first, second, third = step.batches

    assert runs.apply_batch(run.pk, third.id, _play(third)).batches == ()  # back first
    assert runs.apply_batch(run.pk, third.id, _play(third)).batches == ()  # and again
    runs.apply_batch(run.pk, first.id, _play(first))
    runs.apply_batch(run.pk, second.id, _play(second))
    run.refresh_from_db()
    assert run.status == Status.DONE and run.games_played == 6 == _played(stage)


@pytest.mark.django_db
def test_a_batch_whose_worker_died_before_sending_the_next_sends_it_when_delivered_again(
    monkeypatch,
):
    monkeypatch.setattr(runs, "MAX_IN_FLIGHT", 2)  # round 3 waits for round 1's write
    run, stage = _preliminary(rounds=3)
    first, second = runs.start(run.pk).batches  # rounds 1 and 2 out, round 3 planned later
    runs.mark_sent(run.pk, [first.id, second.id])
    results = _play(first)

    lost = runs.apply_batch(run.pk, first.id, results).batches  # died before sending these
    again = runs.apply_batch(run.pk, first.id, results).batches  # delivered again

    assert [b.label for b in lost] == [b.label for b in again] and len(again) == 1
    assert again[0].label.endswith("round 3") and lost[0].id != again[0].id
    runs.mark_sent(run.pk, [again[0].id])
    assert runs.apply_batch(run.pk, first.id, results).batches == ()  # sent: left be
    runs.apply_batch(run.pk, second.id, _play(second))
    runs.apply_batch(run.pk, again[0].id, _play(again[0]))
    run.refresh_from_db()
    assert run.status == Status.DONE and run.games_played == 6 == _played(stage)


@pytest.mark.django_db
def test_a_batch_that_cannot_be_written_fails_the_run_and_keeps_what_was_written():
    run, stage = _preliminary(rounds=2)
    draw_stage(stage)
    one, two = runs.start(run.pk).batches
    runs.apply_batch(run.pk, one.id, _play(one))
    broken = [{**result, "games": [{"game_id": -1}]} for result in _play(two)]

    runs.apply_batch(run.pk, two.id, broken)

    run.refresh_from_db()
    assert run.status == Status.FAILED and run.error
    assert run.games_played == 2 == _played(stage)  # round 1 stays written


@pytest.mark.django_db
def test_the_dry_run_ends_as_its_run_ends():
    failing = dryrun.create_dry_run(preset="club", entries=5, boards=2, seed=2)
    step = runs.start_dry_run(failing.pk)
    runs.mark_sent(step.run_id, [b.id for b in step.batches])
    assert runs.start_dry_run(failing.pk).batches == ()  # delivered twice: started once
    failing.refresh_from_db()
    assert failing.status == Status.RUNNING and failing.run_id == step.run_id
    assert failing.phase == "Playing" and step.batches

    runs.fail(step.run_id, "A simulated game failed: the physics gave up")

    failing.refresh_from_db()
    assert failing.status == Status.FAILED
    assert failing.error == "A simulated game failed: the physics gave up"
    assert failing.summary is None


@pytest.mark.django_db
def test_a_dry_run_whose_copy_cannot_be_built_fails_and_leaves_no_copy():
    dry = dryrun.create_dry_run(preset="club", entries=5, seed=2)
    DryRun.objects.filter(pk=dry.pk).update(preset="gone")

    assert runs.start_dry_run(dry.pk) == runs.Next(None)

    dry.refresh_from_db()
    assert dry.status == Status.FAILED and "Unknown preset 'gone'" in dry.error
    assert dry.copy is None and dry.run is None
    assert not AutoPlay.objects.exists()


@pytest.mark.django_db
def test_a_preview_stored_twice_keeps_its_first_result():
    _, category = make_tournament(players=2)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    preview = previews.create_preview(match=stage.matches.get(), games=10, seed=1)

    job = previews.start(preview.pk)
    assert job is not None and len(job.seeds) == 10
    assert previews.start(preview.pk) is None
    previews.store_result(preview.pk, [[2, 0, 1, 0, 8]] * 10)
    previews.store_result(preview.pk, [[0, 2, 0, 1, 8]] * 10)
    previews.fail(preview.pk, "too late")

    preview.refresh_from_db()
    assert preview.status == Status.DONE and preview.error == ""
    assert preview.result["win"] == 1.0


# --- eager tasks and a real worker: the same transitions ------------------------------------------


class Recorder:
    """Wraps the run's transitions: each call is recorded as ``name>`` when it starts and
    ``<name`` when it returns, then handed to the real function."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[str] = []
        self._depth = 0
        self._lock = threading.Lock()
        for name in TRANSITIONS:
            monkeypatch.setattr(runs, name, self._wrap(name, getattr(runs, name)))

    def _wrap(self, name: str, function: Callable) -> Callable:
        @functools.wraps(function)
        def recorded(*args, **kwargs):
            self._note(f"{name}>")
            try:
                return function(*args, **kwargs)
            finally:
                self._note(f"<{name}")

        return recorded

    def _note(self, call: str) -> None:
        with self._lock:
            self.calls.append(call)
            self._depth += 1 if call.endswith(">") else -1

    def ended(self) -> bool:
        """The run finished or failed, and the transition that did it has returned."""
        with self._lock:
            return self._depth == 0 and ("<finish" in self.calls or "<fail" in self.calls)


def _drive(travel: str, run_id: int, recorder: Recorder) -> None:
    """Start the run as the pages do (``delay``), eagerly or through a worker, and wait for
    its end. A worker's end is awaited on the recorder, not on the database, which the worker
    thread is writing."""
    if travel == "eager":
        tasks.run_autoplay.delay(run_id)
        return
    with running_worker():
        tasks.run_autoplay.delay(run_id)
        deadline = time.monotonic() + 180
        while not recorder.ended() and time.monotonic() < deadline:
            time.sleep(0.2)


#: A 4-player knockout: both semifinals in one batch, then the final (a knockout never plays
#: ahead: the final's entries are known only once the semifinals are written).
KNOCKOUT = [
    "start>", "plan>", "<plan", "<start",
    "apply_batch>", "plan>", "<plan", "<apply_batch",
    "apply_batch>", "plan>", "finish>", "<finish", "<plan", "<apply_batch",
]  # fmt: skip


@pytest.mark.parametrize("travel", TRAVELS)
@pytest.mark.django_db(transaction=True)
def test_eager_tasks_and_a_worker_go_through_the_same_transitions(travel, eager, monkeypatch):
    tournament, category = make_tournament(players=4)
    stage = add_stage(category, 1, Stage.Kind.KNOCKOUT, best_of=1)
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.STAGE, stage=stage, seed=5
    )
    recorder = Recorder(monkeypatch)

    _drive(travel, run.pk, recorder)

    assert recorder.calls == KNOCKOUT
    run.refresh_from_db()
    assert run.status == Status.DONE, run.error
    assert (run.games_played, run.batches) == (3, 2)
    assert _played(stage) == 3


@pytest.mark.parametrize("travel", TRAVELS)
@pytest.mark.django_db(transaction=True)
def test_a_game_that_fails_ends_the_run_the_same_way_eager_or_at_a_worker(
    travel, eager, monkeypatch
):
    run, stage = _preliminary()
    recorder = Recorder(monkeypatch)

    def broken(job):
        raise RuntimeError("the physics gave up")

    monkeypatch.setattr(playing, "play_match_job", broken)

    _drive(travel, run.pk, recorder)

    assert recorder.calls == ["start>", "plan>", "<plan", "<start", "fail>", "<fail"]
    run.refresh_from_db()
    assert run.status == Status.FAILED
    assert run.error.startswith("A simulated game failed:") and "the physics gave up" in run.error
    assert run.in_flight == [] and _played(stage) == 0


@pytest.mark.django_db
def test_a_preview_runs_eagerly_through_the_same_chord(eager, monkeypatch):
    _, category = make_tournament(players=2)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    preview = previews.create_preview(match=stage.matches.get(), games=10, seed=1)
    stored: list[int] = []
    real = previews.store_result
    monkeypatch.setattr(
        previews, "store_result", lambda pk, rows: stored.append(len(rows)) or real(pk, rows)
    )

    tasks.run_preview.delay(preview.pk)

    assert stored == [10]  # the chord body got every game of every header task
    assert MatchPreview.objects.get(pk=preview.pk).status == Status.DONE
