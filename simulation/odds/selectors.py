"""Reads of the live cut odds: the stored figures beside the standings they stand on.

A page never works odds out: it reads the ``CutOdds`` row the task stored after the last
verified result, and the standings (``scoring.standings.selectors.live_standings``, cached per
live version) for the names and ranks, in a fixed number of queries whatever the stage's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from scoring.standings.selectors import StandingLine, live_standings
from simulation.models import CutOdds
from simulation.odds import words
from simulation.odds.services import OK
from tournaments.models import Stage


@dataclass(frozen=True)
class OddsLine:
    """One entry's odds beside its standing."""

    line: StandingLine
    cut: float
    places: tuple[float, ...]
    shootout: float
    needs: dict | None
    cut_size: int

    @property
    def entry(self):
        return self.line.entry

    @property
    def cut_percent(self) -> str:
        return words.percent(self.cut)

    @property
    def cut_width(self) -> float:
        """The bar's length, out of 100."""
        return round(100 * self.cut, 1)

    @property
    def place_percents(self) -> list[str]:
        return [words.percent(p) for p in self.places]

    @property
    def shootout_percent(self) -> str:
        return words.percent(self.shootout)

    @property
    def sentence(self) -> str:
        return words.needs_sentence(self.cut_size, self.cut, self.needs)


@dataclass(frozen=True)
class StageOdds:
    """A stage's odds as its pages show them: ``lines`` in standings order, or ``reason`` why
    there are none (then ``lines`` is empty)."""

    stage: Stage
    status: str
    reason: str
    lines: tuple[OddsLine, ...]
    cut: int
    places: int
    results_seen: int
    finishes: int
    computed_at: datetime | None

    @property
    def freshness(self) -> str:
        return words.freshness(self.results_seen)

    @property
    def place_labels(self) -> list[str]:
        return [words.place_label(n) for n in range(1, self.places + 1)]

    def line_of(self, entry_id: int) -> OddsLine | None:
        return next((x for x in self.lines if x.entry.id == entry_id), None)


def stage_odds(stage: Stage, version: int | None = None) -> StageOdds:
    """The stored odds of ``stage`` with its standings (one query for the odds, the standings'
    own fixed number, cached per live version)."""
    stored = CutOdds.objects.filter(stage=stage).first()
    figures = stored.figures if stored else {}
    status = figures.get("status", "") if stored else ""
    empty = StageOdds(
        stage=stage,
        status=status or "missing",
        reason=words.reason(stage, status, stored.error if stored else ""),
        lines=(),
        cut=int(figures.get("cut") or 0),
        places=0,
        results_seen=stored.results_seen if stored else 0,
        finishes=stored.finishes if stored else 0,
        computed_at=stored.computed_at if stored else None,
    )
    if status != OK:
        return empty
    by_entry = {row["entry"]: row for row in figures.get("entries", [])}
    cut = int(figures.get("cut") or 0)
    lines = []
    for line in live_standings(stage, version).lines:
        row = by_entry.get(line.entry.id)
        if row is None:
            continue  # an entry drawn after the odds were stored: shown once they follow
        lines.append(
            OddsLine(
                line=line,
                cut=float(row["cut"]),
                places=tuple(float(p) for p in row["places"]),
                shootout=float(row["shootout"]),
                needs=row.get("needs"),
                cut_size=cut,
            )
        )
    return StageOdds(
        stage=stage,
        status=status,
        reason="",
        lines=tuple(lines),
        cut=cut,
        places=int(figures.get("places") or 0),
        results_seen=stored.results_seen,
        finishes=stored.finishes,
        computed_at=stored.computed_at,
    )


def api_data(odds: StageOdds) -> dict:
    """What ``GET /api/stages/<id>/cut-odds/`` answers: the page's figures and words."""
    return {
        "stage": odds.stage.id,
        "status": odds.status,
        "reason": odds.reason,
        "cut": odds.cut,
        "places": odds.places,
        "results_seen": odds.results_seen,
        "freshness": odds.freshness if odds.lines else "",
        "finishes": odds.finishes,
        "computed_at": odds.computed_at,
        "entries": [
            {
                "entry": x.entry.id,
                "name": x.entry.name,
                "rank": x.line.rank,
                "points": x.line.points,
                "twenties": x.line.twenties,
                "cut": x.cut,
                "cut_percent": x.cut_percent,
                "places": list(x.places),
                "shootout": x.shootout,
                "needs": x.needs,
                "sentence": x.sentence,
            }
            for x in odds.lines
        ],
    }
