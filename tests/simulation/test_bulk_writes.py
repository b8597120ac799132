"""Simulated games written in bulk (``simulation.services.bulk_writes``) leave exactly what the
per-game scorecard workflow leaves, in a number of statements that does not grow with the games."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import CardRow
from scoring.scorecards.services import card_for, fill_row
from scoring.standings.selectors import standings_blocks
from simulation.models import AutoPlay, DryRun, Status
from simulation.services import autoplay, dryrun, playing, runs
from simulation.services.system_users import system_users
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Game, Round, Stage, Tournament


def _source(players: int = 12) -> Tournament:
    """A preliminary, then a best-of-3 knockout of the top 4 with its 3rd-place match: both
    ways of writing (bulk for the preliminary, one game at a time in the knockout) are met."""
    tournament, category = make_tournament("bulk-source", players=players, discs=2, rounds=2)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=3, advance_count=4)
    add_stage(category, 2, Stage.Kind.KNOCKOUT, best_of=3, third_place=True)
    return tournament


def _dry_run(source: Tournament, *, bulk: bool, monkeypatch: pytest.MonkeyPatch) -> DryRun:
    monkeypatch.setattr(autoplay, "BULK_WRITES", bulk)
    dry = dryrun.create_dry_run(source=source, seed=11, boards=3)
    step = runs.start_dry_run(dry.pk)
    waiting = list(step.batches)
    while waiting:  # the state machine the Celery tasks drive, one batch at a time
        batch = waiting.pop(0)
        played = [playing.play_match_job(job) for job in batch.jobs]
        waiting.extend(runs.apply_batch(step.run_id, batch.id, played).batches)
    dry.refresh_from_db()
    assert dry.status == Status.DONE, dry.error
    return dry


def _game_key(game: Game) -> tuple[Any, ...]:
    match = game.match
    return (
        match.stage.order,
        match.round_of_play,
        match.bracket_slot,
        match.entry_a.number,
        match.entry_b.number,
        game.number,
    )


def _written(tournament: Tournament) -> dict[str, Any]:
    """Everything the results left, by natural keys (no ids, no times): rows with their history,
    official rounds with theirs, the matches drawn and every stage's standings."""
    rows = {}
    for row in CardRow.objects.filter(card__stage__category__tournament=tournament).select_related(
        "game__match__stage", "game__match__entry_a", "game__match__entry_b", "card__entry"
    ):
        history = [
            (
                h.history_type,
                h.history_change_reason,
                h.status,
                h.version,
                h.validated_number,
                h.validated_initials,
                h.validated_how,
                h.validated_at is not None,
                h.verified_by_id is not None,
                h.rounds,
            )
            for h in row.history.order_by("history_id")
        ]
        rows[(_game_key(row.game), row.card.entry.number)] = (
            row.status,
            row.version,
            row.rounds,
            row.simulated,
            row.filled_by.username,
            row.validated_number,
            row.validated_initials,
            row.validated_how,
            row.verified_by.username,
            row.referee_initials,
            history,
        )
    rounds = {}
    for r in Round.objects.filter(
        game__match__stage__category__tournament=tournament
    ).select_related("game__match__stage", "game__match__entry_a", "game__match__entry_b"):
        values = tuple(
            getattr(r, f.name) for f in Round._meta.concrete_fields if f.name not in ("id", "game")
        )
        history = [(h.history_type, h.points_a, h.points_b) for h in r.history.all()]
        rounds[(_game_key(r.game), r.number)] = (values, history)
    category = tournament.categories.get()
    standings = [
        # Entries still level share a rank, listed by their row ids (not the same in two copies).
        sorted((line.rank, line.entry.number, line.points, line.twenties) for line in block.lines)
        for stage in category.stages.order_by("order")
        for block in standings_blocks(stage)
    ]
    matches = sorted(
        (m.stage.order, m.round_of_play, m.bracket_slot, m.entry_a.number, m.entry_b.number)
        for stage in category.stages.all()
        for m in stage.matches.filter(entry_b__isnull=False).select_related(
            "stage", "entry_a", "entry_b"
        )
    )
    return {"rows": rows, "rounds": rounds, "standings": standings, "matches": matches}


@pytest.mark.django_db
@pytest.mark.slow
def test_bulk_writes_leave_what_the_per_game_workflow_leaves(monkeypatch):
    source = _source()
    one_by_one = _dry_run(source, bulk=False, monkeypatch=monkeypatch)
    in_bulk = _dry_run(source, bulk=True, monkeypatch=monkeypatch)

    before, after = _written(one_by_one.copy), _written(in_bulk.copy)
    assert before["rows"] and before["rounds"]
    assert after["rows"] == before["rows"]
    assert after["rounds"] == before["rounds"]
    assert after["matches"] == before["matches"]
    assert after["standings"] == before["standings"]
    assert in_bulk.run.games_played == one_by_one.run.games_played
    assert in_bulk.summary["stats"] == one_by_one.summary["stats"]
    # Every row went through the three steps people's rows go through.
    reasons = {tuple(h[1] for h in row[-1]) for row in after["rows"].values()}
    assert reasons == {("filled", "validated", "verified")}


def _first_round(players: int, slug: str) -> tuple[AutoPlay, list[dict[str, Any]]]:
    """The first round of play of a preliminary of small games, played and not written yet."""
    tournament, category = make_tournament(slug, players=players, discs=2, rounds=1)
    add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=2)
    run = autoplay.create_autoplay(
        tournament=tournament, scope=AutoPlay.Scope.CATEGORY, category=category, seed=3
    )
    step = runs.start(run.pk)
    run.refresh_from_db()
    system_users(run.tournament)  # its accounts exist from the first batch on
    return run, [playing.play_match_job(job) for job in step.batches[0].jobs]


#: Statements to write a batch in bulk, whatever its number of games.
MAX_BATCH_QUERIES = 30


@pytest.mark.django_db
def test_writing_a_batch_in_bulk_takes_the_same_statements_for_2_or_10_games(
    django_assert_max_num_queries,
):
    run, played = _first_round(24, "bulk-queries")
    assert len(played) == 12
    counts = []
    for part in (played[:2], played[2:]):
        with (
            CaptureQueriesContext(connection) as queries,
            django_assert_max_num_queries(MAX_BATCH_QUERIES),
        ):
            written = autoplay.apply_results(run, part, bulk=True)
        assert written == len(part)
        counts.append(len(queries))
    assert counts[0] == counts[1]
    rows = CardRow.objects.filter(game__match__stage__category=run.category)
    assert rows.count() == 2 * len(played)
    assert set(rows.values_list("status", flat=True)) == {CardRow.Status.VERIFIED}
    assert Round.objects.filter(game__match__stage__category=run.category).count() == len(played)


@pytest.mark.django_db
def test_a_game_with_a_row_already_goes_through_the_workflow():
    """A row a person entered since the batch was planned is not overwritten in bulk: its game
    goes through the workflow one step at a time, which refuses to sign it for the opponent,
    and nothing of the batch is written."""
    run, played = _first_round(8, "bulk-taken")
    game = Game.objects.select_related("match__stage", "match__entry_a").get(
        pk=played[0]["games"][0]["game_id"]
    )
    referee = system_users(run.tournament).referee
    rounds = [dict(r) for r in played[0]["games"][0]["rounds"]]
    fill_row(
        card=card_for(game.match.stage, game.match.entry_a), game=game, rounds=rounds, user=referee
    )

    with pytest.raises(PermissionDenied, match=r"(?i)only the opponent"):
        autoplay.apply_results(run, played, bulk=True)

    rows = CardRow.objects.filter(game__match__stage__category=run.category)
    assert [(row.game_id, row.status, row.version) for row in rows] == [
        (game.pk, CardRow.Status.FILLED, 1)
    ]
    assert not Round.objects.filter(game__match__stage__category=run.category).exists()


def test_a_batch_is_shared_out_by_its_games_heaviest_first():
    jobs = [{"match_id": k, "games": [{}] * n} for k, n in enumerate([1, 3, 1, 1, 2, 1, 3])]

    one_each = playing.share_out(jobs, 96)
    assert sorted(job["match_id"] for chunk in one_each for job in chunk) == list(range(7))
    assert [len(chunk) for chunk in one_each] == [1] * 7
    assert [len(chunk[0]["games"]) for chunk in one_each][:2] == [3, 3]

    three = playing.share_out(jobs, 3)
    loads = [sum(len(job["games"]) for job in chunk) for chunk in three]
    assert loads == sorted(loads, reverse=True) and max(loads) - min(loads) <= 1
    assert sum(loads) == 12
    assert playing.share_out([], 4) == []
