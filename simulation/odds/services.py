"""Writes of the live cut odds: work out a stage's odds from its official results and store them.

The odds are drawn from the outcome model (``simulation.outcomes``): the games still to play are
played many times from tabulated games at the entries' levels, each finish ranked as the
standings rank (points, then 20s), so a page reads stored figures and never waits for them.

Only a preliminary of 2-1-0 games of 4 rounds (NCA) has odds: the tables hold such games and
nothing else. A stage that cuts to nothing, or a category of another scoring system, stores a
``status`` the pages put in words (:mod:`simulation.odds.words`), never a guess.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring.standings.selectors import AWARDED_PLACES, StageStandings, stage_standings
from simulation.models import CutOdds
from simulation.services.profiles import entry_levels
from tournaments import live
from tournaments.models import Category, Game, Match, Stage
from tournaments.selectors import next_stage

logger = logging.getLogger(__name__)

#: Finishes drawn per computation: enough that a chance moves by less than a point between two
#: draws of the same standings (the standard error of 50 % over 2000 finishes is 1.1 points).
FINISHES = 2000

#: Why a stage has no odds; :mod:`simulation.odds.words` says each in words.
OK = "ok"
NOT_PRELIMINARY = "not-preliminary"
NOT_NCA = "not-nca"
NO_CUT = "no-cut"
NO_TABLE = "no-table"
NOT_DRAWN = "not-drawn"
FAILED = "failed"


@dataclass(frozen=True)
class StageState:
    """What the odds of a stage stand on: its standings, the games left, and a fingerprint that
    changes whenever an official result of the stage does (so a burst of results recomputes
    once, not once per result)."""

    standings: StageStandings
    remaining: tuple[tuple[int, int], ...]
    results_seen: int
    fingerprint: str


def why_no_odds(stage: Stage) -> str:
    """The status of a stage that cannot have odds, or :data:`OK` (one query: the next stage)."""
    category: Category = stage.category
    if stage.kind != Stage.Kind.PRELIMINARY:
        return NOT_PRELIMINARY
    if (
        category.scoring_system != Category.ScoringSystem.NCA
        or category.rounds_per_game != 4
        or stage.best_of != 1
    ):
        return NOT_NCA
    if not stage.advance_count or next_stage(stage) is None:
        return NO_CUT
    return OK


def stage_state(stage: Stage) -> StageState:
    """The stage's standings and the games it still has to play (a fixed number of queries).

    A game still to play is a scheduled game between two entries with no official round and no
    forfeit; a game under way counts in the standings with its rounds so far, as the standings
    count it, and is not played again."""
    standings = stage_standings(stage)
    matches = Match.objects.filter(stage=stage, entry_b__isnull=False, entry_c__isnull=True)
    decided = Game.objects.filter(match__stage=stage).filter(
        Q(rounds__isnull=False) | ~Q(forfeited_by="")
    )
    decided_matches = set(decided.order_by().values_list("match_id", flat=True))
    remaining = tuple(
        (a, b)
        for match_id, a, b in matches.order_by("id").values_list("id", "entry_a_id", "entry_b_id")
        if match_id not in decided_matches
    )
    lines = [(x.entry.id, x.points, x.twenties, x.games) for x in standings.lines]
    digest = hashlib.sha256(json.dumps([lines, remaining]).encode()).hexdigest()[:16]
    return StageState(
        standings=standings,
        remaining=remaining,
        results_seen=decided.order_by().values("id").distinct().count(),
        fingerprint=digest,
    )


def refresh_cut_odds(
    stage: Stage,
    *,
    finishes: int = FINISHES,
    seed: int = 0,
    read: tuple[str, StageState | None] | None = None,
) -> CutOdds:
    """Work out the stage's cut odds from its official results and store them (one row per
    stage); a stage without odds stores why, and the pages say it. ``read``: the stage's
    status and state as :func:`_read` just read them, so that they are not read twice."""
    stage = Stage.objects.select_related("category__tournament").get(pk=stage.pk)
    status, state = read if read is not None else _read(stage)
    figures: dict = {"status": status}
    error = ""
    started = time.perf_counter()
    if state is not None:
        figures.update(fingerprint=state.fingerprint, cut=stage.advance_count)
        if not state.standings.lines:
            figures["status"] = NOT_DRAWN
        else:
            try:
                figures.update(_draw(stage, state, finishes=finishes, seed=seed))
            except FileNotFoundError as exc:
                figures["status"] = NO_TABLE
                error = str(exc)
            except ValueError as exc:
                # What the core refuses (its words say what is wrong), shown instead of odds.
                figures["status"] = FAILED
                error = str(exc)
    seconds = time.perf_counter() - started
    with transaction.atomic():
        odds, _created = CutOdds.objects.update_or_create(
            stage=stage,
            defaults={
                "figures": figures,
                "results_seen": state.results_seen if state else 0,
                "finishes": finishes if figures["status"] == OK else 0,
                "seconds": round(seconds, 3),
                "error": error,
                "computed_at": timezone.now(),
            },
        )
        # Open pages (standings, a player's page, the hall screen) reload on the new figures.
        live.touch("stage", [stage.id])
    return odds


def _draw(stage: Stage, state: StageState, *, finishes: int, seed: int) -> dict:
    """The figures of the odds from the pure core (``simulation.outcomes.cut``)."""
    from simulation.outcomes.cut import Standing, cut_odds
    from simulation.outcomes.table import load_table

    category = stage.category
    table = load_table(category.kind)
    entries = [line.entry for line in state.standings.lines]
    levels = entry_levels(entries, category)
    standings = [
        Standing(entry=x.entry.id, points=x.points, twenties=x.twenties, games=x.games)
        for x in state.standings.lines
    ]
    cut = min(stage.advance_count or 0, len(standings))
    places = min(AWARDED_PLACES, len(standings))
    result = cut_odds(
        standings,
        state.remaining,
        levels,
        cut,
        places,
        table=table,
        finishes=finishes,
        seed=seed,
        points_per_game=2 * category.rounds_per_game,
    )
    return {
        "cut": cut,
        "places": places,
        "remaining": len(state.remaining),
        "entries": [
            {
                "entry": odds.entry,
                "cut": round(float(odds.cut), 4),
                "places": [round(float(p), 4) for p in odds.places],
                "shootout": round(float(odds.shootout), 4),
                "needs": None
                if odds.needs is None
                else {
                    "points": odds.needs.points,
                    "of_points": odds.needs.of_points,
                    "twenties": odds.needs.twenties,
                },
            }
            for odds in result.entries
        ],
    }


def _read(stage: Stage) -> tuple[str, StageState | None]:
    """The stage's status and, when it can have odds, its standings and games still to play."""
    status = why_no_odds(stage)
    return status, stage_state(stage) if status == OK else None


def _stale(stage: Stage, status: str, state: StageState | None) -> bool:
    stored = CutOdds.objects.filter(stage=stage).values_list("figures", flat=True).first()
    if stored is None:
        return True
    if state is None:
        return stored.get("status") != status
    return state.fingerprint != stored.get("fingerprint")


def stale(stage: Stage) -> bool:
    """Whether the stored odds no longer stand on the stage's results (or were never worked
    out)."""
    return _stale(stage, *_read(stage))


def refresh_if_stale(stage: Stage) -> CutOdds | None:
    """What the task does after a result: the odds worked out again unless they already stand
    on the stage's results (a burst of results queues one task each, and all but the first find
    nothing to do); the stage is read once for both."""
    status, state = _read(stage)
    if not _stale(stage, status, state):
        return None
    return refresh_cut_odds(stage, read=(status, state))
