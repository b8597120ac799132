"""What the hall screen (a projector or a TV in the playing hall) shows: who plays where now, the
latest results, a stage's standings.

Every figure comes from the readers the other public pages use (``now_playing``, the judge
behind ``match_outcomes``, ``stage_standings``), so the screen can never disagree with the
board lists or the standings page; this module only picks and orders what they return, in a
fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Max

from scoring.results.outcomes import match_outcomes
from scoring.results.schedule import RoundSchedule, ScheduleRow, now_playing
from scoring.standings.selectors import StageStandings, stage_standings
from tournaments.models import Game, Match, Stage, Tournament
from tournaments.selectors import MATCH_RELATED, play_pools

#: How many results the screen lists: enough for a round of a large event, paged on the screen.
LATEST_RESULTS = 24
#: Matches read beyond :data:`LATEST_RESULTS`, for those whose first games are in but which are
#: not decided yet (a best-of-three after its first game).
_MARGIN = 8


@dataclass(frozen=True)
class LatestResult:
    """A decided match, with the stage and round it belongs to (the screen mixes stages)."""

    row: ScheduleRow

    @property
    def match(self) -> Match:
        return self.row.match


def latest_results(
    tournament: Tournament, *, stage: Stage | None = None, limit: int = LATEST_RESULTS
) -> list[LatestResult]:
    """The matches whose official result came in last, newest first (two queries).

    "Last" is the order in which their official rounds were first written (the rounds are
    written when the scoring table's check makes a game official, and corrected in place), so a
    correction does not push an old game back to the top. A walkover has no rounds and is not
    news for the hall; byes are not results. The scores are the judge's, as on the board list.
    """
    matches = Match.objects.filter(stage__category__tournament=tournament)
    if stage is not None:
        matches = matches.filter(stage=stage)
    newest = list(
        matches.annotate(last_round=Max("games__rounds__id"))
        .filter(last_round__isnull=False)
        .select_related(*MATCH_RELATED)
        .order_by("-last_round")[: limit + _MARGIN]
    )
    outcomes = match_outcomes(newest, Game.objects.filter(match__in=[m.id for m in newest]))
    decided = [m for m in newest if outcomes[m.id].complete and not outcomes[m.id].bye]
    return [LatestResult(ScheduleRow(m, outcomes[m.id], slot=1)) for m in decided[:limit]]


def screen_standings(stage: Stage) -> list[StageStandings]:
    """The stage's standings as the hall reads them: one table, or one per round-robin pool
    (the same tables as the standings page, without the bracket picture a screen cannot use)."""
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        pools = play_pools(stage)
        drawn = {p for p in Match.objects.filter(stage=stage).values_list("pool_id", flat=True)}
        pools = [p for p in pools if p.id in drawn]
        if pools:
            return [stage_standings(stage, pool) for pool in pools]
    return [stage_standings(stage)]


@dataclass
class HallScreen:
    """What one screen shows, already read; a panel not asked for is left empty."""

    now: list[RoundSchedule] = field(default_factory=list)
    results: list[LatestResult] = field(default_factory=list)
    standings: list[StageStandings] = field(default_factory=list)

    @property
    def three(self) -> bool:
        """Whether a game now in play has three players (the list then adds their column)."""
        return any(s.three for s in self.now)


def hall_screen(
    tournament: Tournament, panels: tuple[str, ...], stage: Stage | None = None
) -> HallScreen:
    """The panels of ``panels`` ("now", "results", "standings") for the whole tournament, or
    for ``stage`` alone when one is given; the standings need a stage."""
    screen = HallScreen()
    if "now" in panels:
        screens = now_playing(tournament)
        if stage is not None:
            screens = [s for s in screens if s.stage.id == stage.id]
        screen.now = screens
    if "results" in panels:
        screen.results = latest_results(tournament, stage=stage)
    if "standings" in panels and stage is not None and stage.kind != Stage.Kind.SHOOTOUT:
        screen.standings = screen_standings(stage)
    return screen
