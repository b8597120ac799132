"""Reads for the shoot-out sheet (the ties a stage still has to settle and the shoot-outs shot),
for the closed-stage page (the stage's games with their official results, the head referee's
changes), and for the organizer's warning that a next stage no longer matches the standings of
the closed stage it was seeded from (:func:`next_stage_drifts`).

A shoot-out is recorded against the stage whose tie it settles (the shoot-out stage only names
who was called), so the sheet is read from that stage's standings: per pool when it was played in
pools. Only the ties the standings ask for are listed (``scoring.standings.selectors``: after
play, where the tie decides something).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from scoring import engine
from scoring.engine import SHOTS_PER_ENTRY, RoundData
from scoring.models import ClosedStageChange, ShootOutScore
from scoring.progression.locks import Closure, closure
from scoring.progression.services import CutTie, ranking_into
from scoring.results.pools import pool_tables
from scoring.results.rules import ROUND_VALUES, values_round
from scoring.standings.selectors import (
    SetAsideShootout,
    StandingLine,
    entry_names,
    stage_standings,
)
from tournaments.models import Entry, Game, Round, Stage, people_paths
from tournaments.selectors import play_pools, seeded_entries, shootout_source


@dataclass(frozen=True)
class TiedGroup:
    """Entries still tied after every tiebreak, sharing ``rank`` (in ``pool`` when played in
    pools): one shoot-out among exactly them."""

    entries: tuple[Entry, ...]
    rank: int
    pool: str = ""

    @property
    def last_place(self) -> int:
        return self.rank + len(self.entries) - 1

    @property
    def key(self) -> str:
        """Names the group in a form: its entry ids, sorted."""
        return "-".join(str(e.id) for e in sorted(self.entries, key=lambda e: e.id))


@dataclass(frozen=True)
class ShootoutSheet:
    """What the shoot-out page shows and takes."""

    source: Stage
    waiting: list[TiedGroup]
    #: Each shoot-out shot so far, in order.
    recorded: list[RecordedShootout]
    #: Shots per player: 12 in singles, 6 for each partner of a doubles team.
    shots_per_player: int
    players_per_side: int
    shots_per_entry: int = SHOTS_PER_ENTRY
    #: Recorded shoot-outs that no longer count (the results changed after them).
    set_aside: tuple[SetAsideShootout, ...] = ()


def _groups(pool: str, lines: list[StandingLine], required: list[list[Entry]]) -> list[TiedGroup]:
    rank = {line.entry.id: line.rank for line in lines}
    return [
        TiedGroup(entries=tuple(group), rank=rank[group[0].id], pool=pool) for group in required
    ]


def waiting_groups(source: Stage) -> list[TiedGroup]:
    """The tied groups of ``source`` a shoot-out must settle now, per pool when it has pools."""
    return _waiting(source)[0]


def _waiting(source: Stage) -> tuple[list[TiedGroup], tuple[SetAsideShootout, ...]]:
    """The tied groups a shoot-out must settle now, and the shoot-outs that no longer count."""
    if len(play_pools(source)) >= 2:
        tables = pool_tables(source)
        groups = [
            group
            for table in tables
            for group in _groups(table.pool.name, table.lines, table.shootouts_required)
        ]
        return groups, tuple(shot for table in tables for shot in table.set_aside)
    standings = stage_standings(source)
    return _groups("", standings.lines, standings.shootouts_required), standings.set_aside


@dataclass(frozen=True)
class RecordedShootout:
    """One shoot-out shot: its number, each entry's 20s (best first), who recorded it and when
    (``recorded_by`` is empty for the loader and the simulation)."""

    order: int
    scores: list[tuple[Entry, int]]
    recorded_by: str
    recorded_at: datetime.datetime
    #: Why it no longer counts (the results changed after it), or empty while it counts.
    no_longer_counts: str = ""


def recorded_shootouts(source: Stage) -> list[RecordedShootout]:
    """The shoot-outs recorded for ``source``'s ties, in the order shot (one query)."""
    scores = (
        ShootOutScore.objects.filter(shootout__stage=source)
        .select_related("shootout__recorded_by", *people_paths("entry"))
        .order_by("shootout__order", "-twenties", "entry_id")
    )
    shot: dict[int, list[tuple[Entry, int]]] = defaultdict(list)
    shootouts = {}
    for score in scores:
        shot[score.shootout.order].append((score.entry, score.twenties))
        shootouts[score.shootout.order] = score.shootout
    return [
        RecordedShootout(
            order=order,
            scores=made,
            recorded_by=_who(shootouts[order].recorded_by),
            recorded_at=shootouts[order].created_at,
        )
        for order, made in sorted(shot.items())
    ]


def _who(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def shootout_sheet(stage: Stage) -> ShootoutSheet:
    """The sheet for ``stage``: a stage with ties, or the shoot-out stage that settles them."""
    source = shootout_source(stage)
    category = source.category
    waiting, set_aside = _waiting(source)
    why = {shot.order: shot.text for shot in set_aside}
    recorded = [
        replace(shot, no_longer_counts=why.get(shot.order, ""))
        for shot in recorded_shootouts(source)
    ]
    return ShootoutSheet(
        source=source,
        waiting=waiting,
        recorded=recorded,
        shots_per_player=category.shootout_shots_per_player,
        players_per_side=category.players_per_side,
        set_aside=set_aside,
    )


# --- a closed stage: its games and the head referee's changes ---------------------------------


@dataclass(frozen=True)
class PlayedGame:
    """One game of a stage with its official rounds (card data, the match's order of sides)."""

    game: Game
    rounds: list[RoundData]

    @property
    def points(self) -> list[int]:
        return [sum(r["points"][i] for r in self.rounds) for i in range(self._sides)]

    @property
    def twenties(self) -> list[int]:
        return [sum(r["twenties"][i] for r in self.rounds) for i in range(self._sides)]

    @property
    def _sides(self) -> int:
        return len(self.rounds[0]["points"]) if self.rounds else len(self.game.match.entries)


def stage_games(stage: Stage) -> list[PlayedGame]:
    """The stage's games between two or three sides (no byes), in order of play, each with its
    official rounds (two queries)."""
    related = ["match__board", *people_paths("match__entry_a", "match__entry_b", "match__entry_c")]
    games = (
        Game.objects.filter(match__stage=stage, match__entry_b__isnull=False)
        .select_related(*related)
        .order_by("match__round_of_play", "match__board__number", "match_id", "number")
    )
    rounds: dict[int, list[RoundData]] = defaultdict(list)
    stored = (
        Round.objects.filter(game__match__stage=stage)
        .order_by("game_id", "number")
        .values_list("game_id", *ROUND_VALUES)
    )
    for game_id, *values in stored:
        rounds[game_id].append(engine.round_to_data(values_round(*values)))
    return [PlayedGame(game, rounds.get(game.id, [])) for game in games]


def closed_changes(**filters: object) -> list[ClosedStageChange]:
    """The head referee's changes of closed results, newest first (one query): of a stage
    (``stage=...``) or of a tournament (``stage__category__tournament=...``)."""
    related = [
        "stage__category",
        "into",
        "changed_by",
        "game__match",
        *people_paths("game__match__entry_a", "game__match__entry_b", "game__match__entry_c"),
    ]
    return list(ClosedStageChange.objects.filter(**filters).select_related(*related))


# --- a next stage that no longer matches the standings it was seeded from ----------------------


@dataclass(frozen=True)
class Drift:
    """The next stage of a closed stage no longer matches that stage's standings, after the head
    referee changed its results: ``leaving`` are in the next stage but no longer among those who
    advance, ``joining`` advance but are not in it, ``ties`` wait for a shoot-out first (the
    next stage does not go on until it is recorded), ``set_aside`` are the recorded shoot-outs
    that no longer count; ``problem`` says why the stage could not be ranked, if so."""

    closure: Closure
    leaving: list[Entry]
    joining: list[Entry]
    ties: list[CutTie]
    set_aside: tuple[SetAsideShootout, ...] = ()
    problem: str = ""

    @property
    def stage(self) -> Stage:
        return self.closure.stage

    @property
    def into(self) -> Stage:
        return self.closure.into

    @property
    def text(self) -> str:
        values = {"stage": self.stage.name, "into": self.into.name}
        parts = [_("%(into)s no longer matches the standings of %(stage)s.") % values]
        if self.problem:
            parts.append(
                _("%(stage)s cannot be ranked: %(problem)s") % {**values, "problem": self.problem}
            )
        if self.leaving:
            parts.append(
                _("In %(into)s but no longer among those who advance: %(names)s.")
                % {**values, "names": entry_names(self.leaving)}
            )
        if self.joining:
            parts.append(
                _("Among those who advance but not in %(into)s: %(names)s.")
                % {**values, "names": entry_names(self.joining)}
            )
        if self.ties:
            ties = "; ".join(t.describe() for t in self.ties)
            if self.into.kind == Stage.Kind.KNOCKOUT:
                parts.append(_("A shoot-out must settle a tie (%(ties)s).") % {"ties": ties})
            else:
                parts.append(
                    _(
                        "A shoot-out must settle a tie first (%(ties)s): until it is recorded, "
                        "%(into)s cannot be advanced nor its next round drawn."
                    )
                    % {**values, "ties": ties}
                )
        parts += [shot.text for shot in self.set_aside]
        return " ".join(parts)


def next_stage_drift(found: Closure) -> Drift | None:
    """How the next stage of a closed stage differs from the stage's standings now (the
    entries, a tie waiting for a shoot-out, a stage that cannot be ranked), or None when it
    matches them."""
    ranking = ranking_into(found.stage, found.into)
    if isinstance(ranking, str):
        return Drift(found, [], [], [], problem=ranking)
    leaving, joining = ranking.crossing(seeded_entries(found.into))
    if not (leaving or joining or ranking.ties):
        return None
    return Drift(found, leaving, joining, ranking.ties, ranking.set_aside)


def next_stage_drifts(**filters: object) -> list[Drift]:
    """The next stages that no longer match the standings of the closed stage they were seeded
    from, in play order: of a tournament (``stage__category__tournament=...``) or a category
    (``stage__category=...``).

    Only the head referee's change alters a closed stage's results, so only the stages changed
    since their advance are ranked again (one query when none was)."""
    latest: dict[int, datetime.datetime] = {}
    changes = ClosedStageChange.objects.filter(**filters).values_list("stage_id", "changed_at")
    for stage_id, changed_at in changes:
        if stage_id not in latest or changed_at > latest[stage_id]:
            latest[stage_id] = changed_at
    if not latest:
        return []
    stages = (
        Stage.objects.filter(pk__in=latest)
        .select_related("category__tournament")
        .order_by("category__name", "order")
    )
    drifts = []
    for stage in stages:
        found = closure(stage)
        if found is None or (found.since is not None and found.since > latest[stage.pk]):
            continue  # open again, or advanced again after the change: seeded from it
        drift = next_stage_drift(found)
        if drift is not None:
            drifts.append(drift)
    return drifts
