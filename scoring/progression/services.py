"""Running the stages of a category: from one stage's standings to the next stage's draw,
knockout winners into their next match, shoot-outs on the cut line, the next Swiss round.

A category is a chain of stages by ``order`` (WCC: preliminary rounds, a round-robin playoff of
two pools of 8, then the semifinals and final, best 2 of 3). ``advance`` takes a finished stage's
standings and seeds the next stage with the top ``advance_count``; a tie across the cut stops it,
because WCC: "If there still is a tie, a Shoot-Out will be conducted" and "Top scorer(s) after
all shots are taken will advance".

The shoot-out is kept as a stage of kind shoot-out placed right after the stage whose tie it
settles (later stages move down one place); its pools name the tied entries. What each entry
shot is a ``scoring.models.ShootOut`` of the stage whose tie it settles, because that stage's
standings read it (``scoring.standings.selectors.stage_standings``); a tie left after a shoot-out
is shot again ("If still tied, repeat Shoot-out from the beginning"), as a second ``ShootOut``.

What each step needs of a stage (advance, undo an advance, draw a Swiss stage's next round,
record a shoot-out) is said here once, as preconditions that return the words of their refusal:
the step declarations (``scoring.progression.actions``) ask them to show or explain a button,
and the services ask them again (``ensure``). Every refusal is a ``tournaments.actions.Refused``
of its kind (``conflict`` for the stored state, ``invalid`` for what was asked); its words name
no stage when they are about the stage the step is taken on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from simple_history.utils import bulk_create_with_history

from scoring.engine import SHOTS_PER_ENTRY
from scoring.models import ShootOut, ShootOutScore, StageAdvance
from scoring.permissions import ShootoutTakers, conflict_refusal
from scoring.progression.locks import closure, ensure_open, ensure_settled
from scoring.results.knockout import knockout_results, knockout_state
from scoring.results.outcomes import stage_outcomes
from scoring.results.pools import pool_tables
from scoring.results.shootouts import ties_awaiting_shootout
from scoring.standings.selectors import SetAsideShootout, stage_standings
from tournaments import formats
from tournaments.actions import Forbidden, Kind, Precondition, Refused, ensure
from tournaments.models import Entry, Match, Stage
from tournaments.selectors import (
    FIELD_POOL,
    next_stage,
    play_pools,
    previous_stage,
    shootout_source,
    stage_matches,
)
from tournaments.services import draws

CUT_POOL = "cut"


class CutLineTieError(Refused):
    """Entries tied across the cut: the shoot-out stage that settles it is named here."""

    def __init__(self, message: str, *, shootout_stage: Stage, ties: list[CutTie]) -> None:
        super().__init__(message, kind=Kind.CONFLICT)
        self.shootout_stage = shootout_stage
        self.ties = ties


@dataclass(frozen=True)
class CutTie:
    """Entries still tied where it matters for the next stage: across the cut line (``places``
    of them go on), or, when the next stage seeds by place, among entries that all go on."""

    pool: str
    entries: tuple[Entry, ...]
    places: int
    rank: int
    seeding: bool = False

    def describe(self) -> str:
        """The tie in words: the places it spans (8 to 9, not "1 place") and, across the cut,
        how many of them go on."""
        names = ", ".join(e.name for e in self.entries)
        values = {
            "names": names,
            "first": self.rank,
            "last": self.rank + len(self.entries) - 1,
            "places": self.places,
        }
        if self.seeding:
            tie = _("%(names)s tied on places %(first)s to %(last)s") % values
        else:
            tie = (
                ngettext(
                    "%(names)s tied on places %(first)s to %(last)s, of whom %(places)s goes on",
                    "%(names)s tied on places %(first)s to %(last)s, of whom %(places)s go on",
                    self.places,
                )
                % values
            )
        if self.pool == CUT_POOL:
            return tie
        return _("pool %(pool)s: %(tie)s") % {"pool": self.pool, "tie": tie}


@dataclass(frozen=True)
class Ranking:
    """Who advances from a stage: one list per pool (best first), or one list for the stage;
    ``set_aside`` are the recorded shoot-outs that no longer count (the results changed after
    them), whose ties, if still deciding, are among ``ties`` again."""

    groups: list[list[Entry]]
    pooled: bool
    ties: list[CutTie]
    set_aside: tuple[SetAsideShootout, ...] = ()

    @property
    def qualifiers(self) -> list[Entry]:
        """The advancing entries in seeding order: by place, then pool (1A, 1B, 2A, 2B ...)."""
        if not self.pooled:
            return list(self.groups[0])
        return [g[place] for place in range(len(self.groups[0])) for g in self.groups]

    def crossing(self, seeded: Sequence[Entry]) -> tuple[list[Entry], list[Entry]]:
        """Against the entries a next stage holds (``seeded``): those no longer among the
        qualifiers, and the qualifiers it does not hold. An entry in a tie on the cut is
        neither until its shoot-out says."""
        would = self.qualifiers
        tied = {e.pk for t in self.ties if not t.seeding for e in t.entries}
        leaving = [e for e in seeded if e not in would and e.pk not in tied]
        joining = [e for e in would if e not in seeded and e.pk not in tied]
        return leaving, joining


# --- is a stage finished? --------------------------------------------------------------------


def unfinished_matches(stage: Stage) -> list[Match]:
    """The stage's matches still to be decided, in order of play."""
    matches = stage_matches(stage)
    outcomes = stage_outcomes(stage, matches)
    return [m for m in matches if not outcomes[m.id].complete]


def check_stage_finished(stage: Stage) -> None:
    """Refuse (``Refused``, a conflict) saying what is left when the stage is not finished."""
    if not stage.matches.exists():
        raise Refused(_("Not drawn yet."), kind=Kind.CONFLICT)
    left = unfinished_matches(stage)
    if left:
        first = left[0]
        values = {
            "count": len(left),
            "round": first.round_of_play,
            "match": first,
        }
        if first.board_id:
            values["board"] = first.board.number
            message = ngettext(
                "Not finished: %(count)s match still to play (e.g. round %(round)s, board "
                "%(board)s: %(match)s).",
                "Not finished: %(count)s matches still to play (e.g. round %(round)s, board "
                "%(board)s: %(match)s).",
                len(left),
            )
        else:
            message = ngettext(
                "Not finished: %(count)s match still to play (e.g. round %(round)s: %(match)s).",
                "Not finished: %(count)s matches still to play (e.g. round %(round)s: %(match)s).",
                len(left),
            )
        raise Refused(message % values, kind=Kind.CONFLICT)
    if stage.kind == Stage.Kind.SWISS:
        drawn = stage.matches.aggregate(n=Max("round_of_play"))["n"] or 0
        if drawn < (stage.games_per_entry or 0):
            raise Refused(
                _(
                    "Not finished: %(drawn)s of %(rounds)s rounds played; draw the next round "
                    "(“Draw round …” on the category page)."
                )
                % {"drawn": drawn, "rounds": stage.games_per_entry},
                kind=Kind.CONFLICT,
            )


# --- what advancing needs ---------------------------------------------------------------------
#
# The Advance button of a stage (or of the shoot-out stage that settles its tie, which advances
# the stage it settles) and the endpoint ask these; ``advance`` asks them again. Whether the
# stage is finished, and whether a tie waits on the cut, are the service's to find: they need
# every result of the stage.


def _played(stage: Stage) -> Stage | None:
    """The stage an advance of ``stage`` advances: a shoot-out stage's is the stage whose tie it
    settles (None when there is none)."""
    return previous_stage(stage) if stage.kind == Stage.Kind.SHOOTOUT else stage


def settles_a_tie(stage: Stage) -> str | None:
    """A shoot-out stage advances the stage played before it: there must be one."""
    if _played(stage) is not None:
        return None
    return _("This shoot-out settles no stage's tie.")


def goes_on(stage: Stage) -> str | None:
    """A next stage to advance into: a knockout's winners go on inside its bracket, and the last
    stage has nowhere to go."""
    played = _played(stage)
    if played is None:
        return None
    if played.kind == Stage.Kind.KNOCKOUT:
        return _(
            "A knockout's winners go on inside its bracket as their matches are verified, and "
            "its final decides the places."
        )
    if next_stage(played) is None:
        return _("The last stage of %(category)s: there is no next stage to advance to.") % {
            "category": played.category.name
        }
    return None


def advance_count_set(stage: Stage) -> str | None:
    """The stage says how many of its entries go on."""
    played = _played(stage)
    target = next_stage(played) if played is not None else None
    if target is None or played.advance_count:
        return None
    return _("Set how many entries advance to %(target)s (edit the stage).") % {
        "target": target.name
    }


def next_stage_empty(stage: Stage) -> str | None:
    """The next stage holds no entries yet (else the stage has advanced: undo that first)."""
    played = _played(stage)
    target = next_stage(played) if played is not None else None
    if target is None or not (
        target.matches.exists() or target.pools.filter(entries__isnull=False).exists()
    ):
        return None
    return _(
        "%(target)s already has its entries; undo the advance (or its draw) to advance again."
    ) % {"target": target.name}


def played_out(stage: Stage) -> str | None:
    """Drawn: a stage not drawn yet has nothing to advance (whether it is finished, the service
    finds from its results)."""
    played = _played(stage)
    if played is None or played.matches.exists():
        return None
    return _("Not drawn yet: advance once the stage is drawn and played.")


#: What advancing a stage needs of it, in the order its refusals are told.
ADVANCE_CONDITIONS: tuple[Precondition, ...] = (
    settles_a_tie,
    goes_on,
    advance_count_set,
    next_stage_empty,
    played_out,
)


# --- what undoing an advance needs ------------------------------------------------------------


def advanced(stage: Stage) -> str | None:
    """The stage (or the stage whose tie a shoot-out stage settles) has advanced."""
    if closure(stage) is not None:
        return None
    return _("Not advanced: there is no advance to undo.")


def next_stage_unplayed(stage: Stage) -> str | None:
    """The stage it advanced into has no result yet, and the stage after that is not drawn
    from it: undoing the advance undoes that stage's draw (``draws.undo_draw``)."""
    found = closure(stage)
    if found is None:
        return None
    results = draws._results_in(found.into)
    if results:
        return _(
            "The advance cannot be undone: %(into)s has results (%(results)s). Void or correct "
            "them first; a result of %(stage)s is changed by the head referee, on its closed "
            "results page."
        ) % {"stage": found.stage.name, "into": found.into.name, "results": results}
    return draws.next_stage_undrawn(found.into)


#: What undoing an advance needs (``scoring.progression.closed.undo_advance`` asks them again).
UNDO_ADVANCE_CONDITIONS: tuple[Precondition, ...] = (advanced, next_stage_unplayed)


# --- what the next Swiss round needs ----------------------------------------------------------


def swiss(stage: Stage) -> Refused | None:
    if stage.kind == Stage.Kind.SWISS:
        return None
    return Refused(
        _("Only a Swiss stage is paired round by round, not %(kind)s.")
        % {"kind": stage.get_kind_display().lower()},
        kind=Kind.INVALID,
    )


def swiss_started(stage: Stage) -> str | None:
    """Its first round is drawn (by the stage's draw, or the advance into it)."""
    if stage.matches.exists():
        return None
    return _("Draw the stage first: its first round is paired by seed.")


#: What pairing a Swiss stage's next round needs; that the current round is finished, the
#: service finds from its results.
NEXT_ROUND_CONDITIONS: tuple[Precondition, ...] = (
    swiss,
    draws.swiss_rounds_set,
    swiss_started,
    draws.swiss_rounds_left,
)


# --- what recording a shoot-out needs ---------------------------------------------------------


def tie_waiting(stage: Stage) -> str | Refused | None:
    """A group of entries still tied where it decides something, after play."""
    try:
        source = shootout_source(stage)
    except Refused as exc:
        return exc
    if ties_awaiting_shootout(source):
        return None
    return _("Settled: no tie waits for a shoot-out.")


#: What recording a shoot-out needs of the stage (which group shot it, the service checks).
SHOOTOUT_CONDITIONS: tuple[Precondition, ...] = (tie_waiting,)


# --- advancing -------------------------------------------------------------------------------


def advance(
    stage: Stage,
    *,
    pool_count: int | None = None,
    double: bool = False,
    third_place: bool = False,
) -> Stage:
    """Seed the next stage with the top ``stage.advance_count`` of this finished stage, and draw
    it. Returns the next stage.

    - round robin: into ``pool_count`` pools (default: the next stage's empty pools, or one) in
      snake order, club mates kept apart (WCC: the top 16 into two pools of 8); ``double`` for a
      double round robin;
    - knockout: into the bracket by seed; from two pools, by place then pool, so that the
      semifinals are 1A v 2B and 1B v 2A (the WCC crossover); ``third_place`` adds the match
      for 3rd and 4th;
    - Swiss or preliminary: the field, best first, and its first round.

    From a stage played in pools each pool sends ``advance_count / pools`` entries. A tie across
    the cut creates the shoot-out stage (once) and raises ``CutLineTieError`` until the shoot-out
    is recorded (``record_shootout``). Refused (``Refused``, :data:`ADVANCE_CONDITIONS`) for a
    stage with nothing to advance to and for an unfinished stage, and (``ValidationError``)
    while the closed stage this one was seeded from waits for a shoot-out again
    (``locks.ensure_settled``).
    """
    ensure(stage, *ADVANCE_CONDITIONS)
    if stage.kind == Stage.Kind.SHOOTOUT:
        source = _played(stage)
        return advance(source, pool_count=pool_count, double=double, third_place=third_place)
    target = next_stage(stage)
    ensure_settled(stage)
    check_stage_finished(stage)
    seeding = target.kind in (Stage.Kind.KNOCKOUT, Stage.Kind.ROUND_ROBIN)
    ranking = ranking_for_advance(stage, seeding=seeding)
    if ranking.ties:
        shootout = _shootout_stage_for(stage, ranking.ties)
        cut = "; ".join(t.describe() for t in ranking.ties if not t.seeding)
        seeds = "; ".join(t.describe() for t in ranking.ties if t.seeding)
        found = [_("a tie sits on the cut line (%(ties)s)") % {"ties": cut}] if cut else []
        if seeds:
            found.append(
                _("a tie decides the seeding of %(target)s (%(ties)s)")
                % {"target": target.name, "ties": seeds}
            )
        ties = found[0]
        for more in found[1:]:
            ties = _("%(tie)s and %(other)s") % {"tie": ties, "other": more}
        # Not prefixed with the stage: the category page and the API put its name before every
        # refusal of an advance (else it reads "Preliminary: Singles: Preliminary: ...").
        raise CutLineTieError(
            _(
                "%(ties)s. WCC Tie-Breaking Procedure: a shoot-out settles it (12 shots at the "
                "20 each, 6 each in doubles; top scorers place higher). Record it in "
                "'%(shootout)s' and advance again."
            )
            % {"ties": ties, "shootout": shootout.name},
            shootout_stage=shootout,
            ties=ranking.ties,
        )
    with transaction.atomic():
        _seed(target, ranking, pool_count=pool_count, double=double, third_place=third_place)
        _closed(stage, target, len(ranking.qualifiers))
    return target


def _closed(stage: Stage, target: Stage, count: int) -> None:
    """Record the advance: from now on the stage's results are closed
    (``scoring.progression.locks``); the stage's history says who advanced it, and when."""
    StageAdvance.objects.create(stage=stage, into=target)
    noted = Stage.objects.get(pk=stage.pk)  # as stored: the note changes nothing else
    noted._change_reason = ngettext(
        "Advanced %(count)s entry to %(target)s; its results are closed.",
        "Advanced %(count)s entries to %(target)s; its results are closed.",
        count,
    ) % {"count": count, "target": target.name}
    noted.save()


def ranking_for_advance(stage: Stage, *, seeding: bool = False) -> Ranking:
    """The entries that go on from a finished stage, per pool when it was played in pools, and
    the ties a shoot-out must settle first: across the cut (``formats.shootout_at_cut``) and,
    with ``seeding`` (the next stage seeds by place: 1A meets 2B), among the qualifiers."""
    count = stage.advance_count or 0
    tables = pool_tables(stage) if len(play_pools(stage)) >= 2 else []
    if len(tables) >= 2:
        if count % len(tables):
            raise Refused(
                _("%(count)s entries cannot advance evenly from %(pools)s pools.")
                % {"count": count, "pools": len(tables)},
                kind=Kind.CONFLICT,
            )
        per_pool = count // len(tables)
        groups, ties, set_aside = [], [], []
        for table in tables:
            set_aside += table.set_aside
            if table.problem:
                raise Refused(
                    _("Pool %(pool)s: %(problem)s")
                    % {"pool": table.pool.name, "problem": table.problem},
                    kind=Kind.CONFLICT,
                )
            if len(table.lines) < per_pool:
                raise Refused(
                    _("Pool %(pool)s has %(entries)s entries; %(count)s cannot advance from it.")
                    % {"pool": table.pool.name, "entries": len(table.lines), "count": per_pool},
                    kind=Kind.CONFLICT,
                )
            ties += _ties(table.pool.name, table.lines, per_pool, seeding=seeding)
            groups.append([line.entry for line in table.lines[:per_pool]])
        return Ranking(groups=groups, pooled=True, ties=ties, set_aside=tuple(set_aside))
    standings = stage_standings(stage)
    if standings.problem:
        raise Refused(str(standings.problem), kind=Kind.CONFLICT)
    if len(standings.lines) < count:
        raise Refused(
            _("%(count)s entries should advance but only %(played)s played.")
            % {"count": count, "played": len(standings.lines)},
            kind=Kind.CONFLICT,
        )
    return Ranking(
        groups=[[line.entry for line in standings.lines[:count]]],
        pooled=False,
        ties=_ties(CUT_POOL, standings.lines, count, seeding=seeding),
        set_aside=standings.set_aside,
    )


def ranking_into(stage: Stage, into: Stage) -> Ranking | str:
    """Who goes on from ``stage`` into ``into`` as ``advance`` would rank it now (seeding ties
    count when ``into`` seeds by place), or in words why it cannot say."""
    seeding = into.kind in (Stage.Kind.KNOCKOUT, Stage.Kind.ROUND_ROBIN)
    try:
        return ranking_for_advance(stage, seeding=seeding)
    except ValidationError as exc:
        return " ".join(exc.messages)


def _ties(pool: str, lines: Sequence, count: int, *, seeding: bool) -> list[CutTie]:
    """Lines are standings rows (rank, entry), best first; entries still tied share a rank."""
    ties = []
    tie = formats.shootout_at_cut([(str(line.entry.id), line.rank) for line in lines], count)
    if tie:
        by_id = {str(line.entry.id): line for line in lines}
        rank = by_id[tie.entries[0]].rank
        entries = tuple(by_id[e].entry for e in tie.entries)
        ties.append(CutTie(pool=pool, entries=entries, places=tie.places, rank=rank))
    if seeding:
        by_rank: dict[int, list[Entry]] = {}
        for line in lines[:count]:
            by_rank.setdefault(line.rank, []).append(line.entry)
        for rank, entries in by_rank.items():
            inside = rank + len(entries) - 1 <= count
            if len(entries) > 1 and inside and not (tie and rank == ties[0].rank):
                ties.append(CutTie(pool, tuple(entries), len(entries), rank=rank, seeding=True))
    return ties


def _seed(
    target: Stage, ranking: Ranking, *, pool_count: int | None, double: bool, third_place: bool
) -> None:
    qualifiers = ranking.qualifiers
    kind = Stage.Kind(target.kind)
    if kind == Stage.Kind.ROUND_ROBIN:
        count = pool_count or target.pools.count() or 1
        by_id = {str(e.id): e for e in qualifiers}
        groups = formats.snake_pools(list(by_id), count, clubs=draws.entry_clubs(qualifiers))
        draws.draw_round_robin(target, [[by_id[e] for e in g] for g in groups], double=double)
    elif kind == Stage.Kind.KNOCKOUT:
        draws.draw_knockout(target, qualifiers, third_place=third_place)
    elif kind in (Stage.Kind.SWISS, Stage.Kind.PRELIMINARY):
        draws.store_pool(target, FIELD_POOL, qualifiers)
        draws.draw_stage(target)
    else:
        raise Refused(
            _("%(stage)s is a %(kind)s stage; nothing is seeded.")
            % {"stage": target.name, "kind": target.get_kind_display()},
            kind=Kind.INVALID,
        )


@transaction.atomic
def _shootout_stage_for(stage: Stage, ties: Sequence[CutTie]) -> Stage:
    """The shoot-out stage right after ``stage``, created the first time (later stages move
    down one place), with a pool naming each group of tied entries."""
    shootout = Stage.objects.filter(
        category_id=stage.category_id, order=stage.order + 1, kind=Stage.Kind.SHOOTOUT
    ).first()
    if shootout is None:
        later = Stage.objects.select_for_update().filter(
            category_id=stage.category_id, order__gt=stage.order
        )
        for other in later.order_by("-order"):  # from the end, so no two share an order
            other.order += 1
            other.save(update_fields=["order"])
        shootout = Stage.objects.create(
            category_id=stage.category_id,
            name=_("Shoot-out after %(stage)s") % {"stage": stage.name},
            kind=Stage.Kind.SHOOTOUT,
            order=stage.order + 1,
            advance_count=sum(t.places for t in ties),
        )
    for tie in ties:
        draws.store_pool(shootout, tie.pool, tie.entries)
    return shootout


# --- shoot-outs ------------------------------------------------------------------------------


#: Who may record a shoot-out, as the pages and the API say it.
RECORD_SHOOTOUT_ROLES = gettext_lazy("a referee, the head referee or the scoring table")


@transaction.atomic
def record_shootout(
    stage: Stage, twenties: Mapping[Entry | int, int], *, user: AbstractBaseUser | None = None
) -> ShootOut:
    """Record one shoot-out: the 20s each tied entry made with its 12 shots (6 each in doubles).

    ``stage`` is the shoot-out stage or the stage whose tie it settles; ``twenties`` maps each
    entry (or entry id) to the 20s it made. The entries must be exactly one group still tied
    where the tie decides something, after play (WCC: "All tied contestants will use 12
    opportunities"). With ``user`` (the pages and the API), only someone holding
    ``scoring.record_shootout`` at the tournament may record it (``PermissionDenied``), and the
    shoot-out keeps who recorded it; the loader and the simulation record without one. A stage
    that has advanced is closed (``scoring.progression.locks``), except to the shoot-out its
    standings ask for again: a head referee's change of its results left a tie that decides
    who went on (the shoot-out that settled it no longer counts), and the next stage waits for
    it (``locks.ensure_settled``). Raises ``ValidationError`` naming what is wrong; nothing is
    saved then (``Refused``; ``Forbidden`` for the role, or for an official who shoots in it).
    """
    if user is not None and not user.has_perm("scoring.record_shootout", stage):
        raise Forbidden(
            _("Only %(roles)s may record a shoot-out.") % {"roles": RECORD_SHOOTOUT_ROLES}
        )
    source = shootout_source(stage)
    made = {
        (key.id if isinstance(key, Entry) else int(key)): value for key, value in twenties.items()
    }
    groups = ties_awaiting_shootout(source)
    named = set(made)
    group = next((g for g in groups if {e.id for e in g} == named), None)
    if group is None:
        # A closed stage takes only the shoot-out its standings ask for again.
        ensure_open(source)
    for entry_id, value in made.items():
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= SHOTS_PER_ENTRY
        ):
            raise Refused(
                _(
                    "Entry %(entry)s made %(made)s 20s; each entry has %(shots)s shots, so 0 to "
                    "%(shots)s."
                )
                % {"entry": entry_id, "made": repr(value), "shots": SHOTS_PER_ENTRY}
            )
    if user is not None:
        # Nobody records a shoot-out they shoot in: another official writes their 20s down.
        takers = ShootoutTakers(stage=stage, entry_ids=frozenset(made))
        if not user.has_perm("scoring.record_shootout", takers):
            raise Forbidden(
                conflict_refusal(user, "scoring.record_shootout", takers)
                or _("Only %(roles)s may record a shoot-out.") % {"roles": RECORD_SHOOTOUT_ROLES}
            )
    if group is None:
        waiting = "; ".join(", ".join(e.name for e in group) for group in groups) or _("none")
        raise Refused(
            _(
                "The entries named are not one group still tied. Groups waiting for a shoot-out: "
                "%(waiting)s."
            )
            % {"waiting": waiting}
        )
    order = (ShootOut.objects.filter(stage=source).aggregate(n=Max("order"))["n"] or 0) + 1
    recorder = user if user is not None and user.is_authenticated else None
    # The history rows (the organizer's audit page) say who recorded it and what each made.
    names = {e.id: e.name for e in group}
    reason = _("Shoot-out %(order)s in %(stage)s recorded: %(made)s") % {
        "order": order,
        "stage": source,
        "made": ", ".join(f"{names[entry_id]} {value}" for entry_id, value in made.items()),
    }
    shootout = ShootOut(stage=source, order=order, recorded_by=recorder)
    shootout._history_user = recorder
    shootout._change_reason = reason
    shootout.save()
    bulk_create_with_history(
        [
            ShootOutScore(shootout=shootout, entry_id=entry_id, twenties=value)
            for entry_id, value in made.items()
        ],
        ShootOutScore,
        default_user=recorder,
        default_change_reason=reason,
    )
    return shootout


# --- knockout --------------------------------------------------------------------------------


@transaction.atomic
def advance_knockout(stage: Stage) -> list[Match]:
    """Send the winners (and, for the third-place match, the semifinal losers) on to their next
    match; returns the matches created.

    A match is won by the first side to win a majority of its games (best of 3: two); a game is
    decided by its official rounds, a tied playoff game by its 5th round (WCC Scoring). Call it
    whenever a knockout result is recorded; it does nothing when no match has been decided since.
    """
    if stage.kind != Stage.Kind.KNOCKOUT:
        raise Refused(_("%(stage)s is not a knockout.") % {"stage": stage.name})
    state = knockout_state(stage)
    if state is None:
        raise Refused(
            _("%(stage)s has not been drawn yet.") % {"stage": stage.name}, kind=Kind.CONFLICT
        )
    return draws.open_knockout_matches(stage, knockout_results(state))


# --- Swiss -----------------------------------------------------------------------------------


@transaction.atomic
def draw_next_swiss_round(stage: Stage) -> list[Match]:
    """Pair the next round of a Swiss stage by the standings so far, never a rematch
    (``tournaments.services.draws.draw_swiss_round``); the next round is drawn only once the
    current one is finished, because it is paired from its results. Refused while the closed
    stage it was seeded from waits for a shoot-out again (``locks.ensure_settled``). Refused
    (``Refused``, :data:`NEXT_ROUND_CONDITIONS`) for a stage that is not Swiss, not started or
    with every round drawn, and while its current round is not finished."""
    ensure(stage, *NEXT_ROUND_CONDITIONS)
    ensure_settled(stage)
    matches = stage_matches(stage)
    outcomes = stage_outcomes(stage, matches)
    current = max((m.round_of_play for m in matches), default=0)
    unfinished = [m for m in matches if m.round_of_play == current and not outcomes[m.id].complete]
    if unfinished:
        raise Refused(
            ngettext(
                "Round %(round)s is not finished (%(count)s match to play: %(match)s); the next "
                "round is paired from its results.",
                "Round %(round)s is not finished (%(count)s matches to play, e.g. %(match)s); "
                "the next round is paired from its results.",
                len(unfinished),
            )
            % {"round": current, "count": len(unfinished), "match": unfinished[0]},
            kind=Kind.CONFLICT,
        )
    standings: list[draws.SwissLine] = []
    if current:
        standings = [
            draws.SwissLine(str(line.entry.id), line.rank, line.points)
            for line in stage_standings(stage).lines
        ]
    return draws.draw_swiss_round(stage, standings)
