"""What an entry plays next, and when its board should be free for it.

The private link's page leads with it, and the public player page shows the same estimate
beside its "Next" block. Whether a match ahead is decided, and how many games it may still
need, is the judge's (``match_outcomes``); the arithmetic of the wait is the pure
``tournaments.next_match``. A fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q

from scoring.results.outcomes import MatchOutcome, match_outcomes
from tournaments.models import Entry, Game, Match, RoundClock
from tournaments.next_match import Ahead, Estimate, estimate_start, games_left
from tournaments.selectors import MATCH_RELATED


@dataclass(frozen=True)
class NextMatch:
    """The entry's match now in play, or the next one it plays."""

    match: Match
    entry: Entry
    #: The game of the match to be played next (1 until the first is over).
    game_number: int
    in_play: bool
    #: When it should start; None when it is in play already or has no board yet.
    estimate: Estimate | None

    @property
    def opponents(self) -> list[Entry]:
        return [e for e in self.match.entries if e.id != self.entry.id]

    @property
    def board(self) -> int | None:
        return self.match.board.number if self.match.board_id else None


def _order(match: Match) -> tuple:
    """The order of play within a stage: round of play, then the start time, then the draw."""
    return (
        match.round_of_play,
        match.starts_at is None,
        match.starts_at or datetime.min,
        match.id,
    )


def _played(outcome: MatchOutcome) -> int:
    return sum(1 for g in outcome.games if g.finished)


def _games_left(match: Match, outcome: MatchOutcome) -> int:
    return games_left(
        best_of=match.best_of,
        wins=outcome.wins,
        played=_played(outcome),
        fixed=match.stage.fixed_match,
    )


def next_match(entry: Entry, *, now: datetime) -> NextMatch | None:
    """The match ``entry`` plays now or next, with the wait for its board; None when it has
    nothing left to play."""
    mine = list(
        Match.objects.filter(
            Q(entry_a=entry) | Q(entry_b=entry) | Q(entry_c=entry), entry_b__isnull=False
        ).select_related(*MATCH_RELATED)
    )
    if not mine:
        return None
    outcomes = match_outcomes(mine, Game.objects.filter(match__in=[m.id for m in mine]))
    open_ = [m for m in mine if not outcomes[m.id].complete]
    if not open_:
        return None
    started = [m for m in open_ if outcomes[m.id].started]
    match = (
        started[0]
        if started
        else min(open_, key=lambda m: (m.stage.order, m.starts_at is None, _order(m)))
    )
    outcome = outcomes[match.id]
    number = _played(outcome) + 1
    if outcome.started:
        return NextMatch(match, entry, number, in_play=True, estimate=None)
    return NextMatch(match, entry, number, in_play=False, estimate=board_estimate(match, now=now))


def board_estimate(match: Match, *, now: datetime) -> Estimate | None:
    """How long until ``match`` (not started) can start on its board; None without a board.

    Ahead of it: the matches of its stage on the same board earlier in the order of play, and
    any match of another stage being played on that board now, that are not decided yet."""
    if match.board_id is None:
        return None
    tournament_id = match.stage.category.tournament_id
    same_board = list(
        Match.objects.filter(board_id=match.board_id, entry_b__isnull=False)
        .exclude(pk=match.pk)
        .select_related("stage__category")
    )
    stage_open = list(
        Match.objects.filter(
            stage_id=match.stage_id, entry_b__isnull=False, round_of_play__lt=(match.round_of_play)
        ).select_related("stage__category")
    )
    judged = {m.id: m for m in [*same_board, *stage_open]}
    outcomes = match_outcomes(list(judged.values()), Game.objects.filter(match__in=list(judged)))
    ahead: list[tuple[bool, tuple, Match]] = []
    for other in same_board:
        outcome = outcomes[other.id]
        if outcome.complete:
            continue
        if other.stage_id == match.stage_id and _order(other) < _order(match):
            ahead.append((not outcome.started, _order(other), other))
        elif other.stage_id != match.stage_id and outcome.started:
            ahead.append((False, (), other))
    ahead.sort(key=lambda item: (item[0], item[1]))
    minutes = match.stage.category.tournament.game_minutes
    queue = [Ahead(_games_left(m, outcomes[m.id]), minutes) for _, _, m in ahead]
    clock = RoundClock.objects.filter(tournament_id=tournament_id).first()
    current_since = round_ends_at = None
    if clock is not None and clock.state != RoundClock.State.READY:
        reading = clock.read(now)
        elapsed = reading.duration - reading.remaining
        current_since = now - timedelta(seconds=elapsed) if queue else None
        earlier_round_open = any(not outcomes[m.id].complete for m in stage_open)
        if clock.state == RoundClock.State.RUNNING and earlier_round_open:
            round_ends_at = now + timedelta(seconds=max(reading.remaining, 0))
    return estimate_start(
        queue,
        now=now,
        starts_at=match.starts_at,
        current_since=current_since,
        round_ends_at=round_ends_at,
    )
