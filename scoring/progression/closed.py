"""Changing a closed stage: the head referee's change of a result, and undoing an advance.

Once a stage has advanced its results are locked (``scoring.progression.locks``). A mistake found
later is still put right, by the head referee (WCC: the head referee rules on what the rules do
not settle): :func:`change_closed_result` takes the game's corrected rounds and a reason, says
first what the change would mean for the next stage (who would no longer advance and who would,
seeds that swap, a new tie on the cut line, or no change to who advances), then writes it through
the same official path as a ruling on a dispute (every card of the game takes it, verified) and
records it: who, when, why, the rounds before and after, the impact. The next stage is not
redrawn by it: the impact tells the organizer, who can undo the advance (:func:`undo_advance`)
while the next stage has no result, and advance again.

A change may leave the entries of a recorded shoot-out no longer tied with each other alone:
that shoot-out then no longer counts (the standings set it aside, kept on record, and its
history says why), the tie as it now is asks for a shoot-out again, and the next stage does not
go on until it is recorded (``locks.ensure_settled``). The organizer's dashboard and the
category page say where a next stage no longer matches the standings of the stage it was seeded
from (``scoring.progression.selectors.next_stage_drifts``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.engine import RoundData
from scoring.models import ClosedStageChange, ShootOut, StageAdvance
from scoring.permissions import conflict_refusal
from scoring.progression.locks import Closure, applying, closure
from scoring.progression.services import UNDO_ADVANCE_CONDITIONS, Ranking, ranking_into
from scoring.results.services import official_rounds, record_game
from scoring.scorecards.services import check_complete, normalise_rounds, resolve_dispute
from scoring.standings.selectors import SetAsideShootout, entry_names
from tournaments.actions import Forbidden, Kind, Refused, ensure
from tournaments.models import Entry, Game, Stage, people_paths
from tournaments.selectors import play_pools, seeded_entries
from tournaments.services.draws import _results_in, undo_draw
from tournaments.services.game_locks import lock_games

#: Who may change a closed result and who may undo an advance, as the pages and the API say it.
CHANGE_ROLES = gettext_lazy("the head referee")
UNDO_ROLES = gettext_lazy("the organizers")


def _change_who() -> str:
    return _("Only %(roles)s changes a result of a closed stage.") % {"roles": CHANGE_ROLES}


#: What a refusal of the change's role says, on the pages and in the API alike.
CHANGE_WHO = lazy(_change_who, str)()


@dataclass(frozen=True)
class Impact:
    """What a change of a closed result would mean for the next stage.

    ``seeded`` are the entries the next stage holds now; ``after`` who would surely advance after
    the change, best first (None when the stage could not be ranked), and ``undecided`` those
    tied on the cut line, among whom a shoot-out would decide; ``leaving`` and ``joining`` the
    entries that would cross the cut either way; ``set_aside`` the recorded shoot-outs the
    change would unsettle (they would no longer count)."""

    text: str
    seeded: list[Entry]
    after: list[Entry] | None
    leaving: list[Entry]
    joining: list[Entry]
    set_aside: tuple[SetAsideShootout, ...] = ()
    undecided: tuple[Entry, ...] = ()

    @property
    def crosses_cut(self) -> bool:
        return bool(self.leaving or self.joining)


@dataclass(frozen=True)
class ClosedChange:
    """A change of a closed result, previewed or written (``record`` is None in a preview).
    Rounds are in the match's order of sides (entry A first)."""

    closure: Closure
    game: Game
    before: list[RoundData]
    after: list[RoundData]
    impact: Impact
    record: ClosedStageChange | None = None


@dataclass(frozen=True)
class UndoneAdvance:
    stage: Stage
    into: Stage
    removed: int

    def message(self) -> str:
        return ngettext(
            "The advance of %(stage)s to %(into)s is undone (%(removed)s match of %(into)s "
            "removed); %(stage)s is open again: correct its results, then advance it again.",
            "The advance of %(stage)s to %(into)s is undone (%(removed)s matches of %(into)s "
            "removed); %(stage)s is open again: correct its results, then advance it again.",
            self.removed,
        ) % {"stage": self.stage.name, "into": self.into.name, "removed": self.removed}


# --- reading ---------------------------------------------------------------------------------


def closed_game(game_id: int, *, tournament_id: int | None = None) -> Game:
    """A game with what the change pages and messages print (one query)."""
    related = ["match__stage__category__tournament", "match__board"]
    related += [*people_paths("match__entry_a", "match__entry_b", "match__entry_c")]
    games = Game.objects.select_related(*related)
    if tournament_id is not None:
        games = games.filter(match__stage__category__tournament_id=tournament_id)
    return games.get(pk=game_id)


def _seed_label(stage: Stage, ranking: Ranking, index: int) -> str:
    """A seed as the draw sheet says it: 3, or 2A when the stage was played in pools."""
    if not ranking.pooled:
        return str(index + 1)
    pools = [p.name for p in play_pools(stage)]
    return f"{index // len(pools) + 1}{pools[index % len(pools)]}"


def _seeding_change(stage: Stage, into: Stage, before: Ranking, after: Ranking) -> tuple[str, bool]:
    """The seeds that would change, in words, and whether any would."""
    old, new = before.qualifiers, after.qualifiers
    moved = [i for i in range(min(len(old), len(new))) if old[i] != new[i]]
    if not moved:
        return _("No change to who advances to %(into)s, nor to their seeds.") % {
            "into": into.name
        }, False
    label = [_seed_label(stage, after, i) for i in moved]
    if len(moved) == 2 and old[moved[0]] == new[moved[1]] and old[moved[1]] == new[moved[0]]:
        i, j = moved
        return _(
            "No change to who advances to %(into)s, but seeds %(first)s and %(second)s swap: "
            "%(first_name)s would be seed %(first)s, %(second_name)s seed %(second)s."
        ) % {
            "into": into.name,
            "first": label[0],
            "second": label[1],
            "first_name": new[i].name,
            "second_name": new[j].name,
        }, True
    seeds = ", ".join(
        _("%(name)s seed %(seed)s (now %(was)s)")
        % {"name": new[i].name, "seed": lab, "was": old[i].name}
        for i, lab in zip(moved, label, strict=True)
    )
    return _("No change to who advances to %(into)s, but the seeding changes: %(seeds)s.") % {
        "into": into.name,
        "seeds": seeds,
    }, True


def describe_impact(
    stage: Stage, into: Stage, seeded: Sequence[Entry], before: Ranking | str, after: Ranking | str
) -> Impact:
    """The impact in words: who would no longer advance and who would, seeds that swap, a tie
    that a shoot-out would have to settle, or no change to who advances.

    Who advances is compared with the entries the next stage holds; the seeding with the
    ranking before the change, which is what the next stage was seeded from."""
    seeded = list(seeded)
    if isinstance(after, str):
        text = _("%(stage)s could not be ranked after this change: %(problem)s") % {
            "stage": stage.name,
            "problem": after,
        }
        return Impact(text=text, seeded=seeded, after=None, leaving=[], joining=[])
    would = after.qualifiers
    cut = [t for t in after.ties if not t.seeding]
    seeding_ties = [t for t in after.ties if t.seeding]
    leaving, joining = after.crossing(seeded)
    # The shoot-outs this change would unsettle; one already set aside is not news.
    counted = {s.order for s in before.set_aside} if isinstance(before, Ranking) else set()
    unsettled = tuple(s for s in after.set_aside if s.order not in counted)
    parts: list[str] = []
    if leaving and joining:
        parts.append(
            _("%(leaving)s would no longer advance to %(into)s; %(joining)s would.")
            % {"leaving": entry_names(leaving), "into": into.name, "joining": entry_names(joining)}
        )
    elif leaving:
        parts.append(
            _("%(leaving)s would no longer advance to %(into)s.")
            % {"leaving": entry_names(leaving), "into": into.name}
        )
    elif joining:
        parts.append(
            _("%(joining)s would advance to %(into)s too.")
            % {"joining": entry_names(joining), "into": into.name}
        )
    if cut:
        ties = "; ".join(t.describe() for t in cut)
        parts.append(
            _(
                "A tie would sit on the cut line (%(ties)s): a shoot-out would decide who "
                "advances to %(into)s."
            )
            % {"ties": ties, "into": into.name}
        )
    seeds_changed = False
    if not parts:
        if isinstance(before, str):
            parts.append(_("No change to who advances to %(into)s.") % {"into": into.name})
        else:
            text, seeds_changed = _seeding_change(stage, into, before, after)
            parts.append(text)
    if seeding_ties:
        ties = "; ".join(t.describe() for t in seeding_ties)
        parts.append(
            _("A tie would decide the seeding of %(into)s (%(ties)s).")
            % {"into": into.name, "ties": ties}
        )
    parts += [shot.would for shot in unsettled]
    if (cut or seeding_ties) and into.kind != Stage.Kind.KNOCKOUT:
        # A knockout goes on inside its bracket from its own results: nothing waits there.
        parts.append(
            _(
                "Until that shoot-out is recorded, %(into)s could not be advanced nor its next "
                "round drawn."
            )
            % {"into": into.name}
        )
    if leaving or joining or cut or seeding_ties or seeds_changed:
        played = _results_in(into)
        if played:
            parts.append(
                _(
                    "%(into)s is not redrawn by this change, and it has results (%(played)s): "
                    "its draw stands."
                )
                % {"into": into.name, "played": played}
            )
        else:
            parts.append(
                _(
                    "%(into)s is not redrawn by this change: the organizer may undo the advance "
                    "while %(into)s has no result, and advance %(stage)s again."
                )
                % {"into": into.name, "stage": stage.name}
            )
    # A tie on the cut line is the shoot-out's to settle: none of its entries surely advances.
    undecided = tuple(e for t in cut for e in t.entries)
    return Impact(
        text=" ".join(parts),
        seeded=seeded,
        after=[e for e in would if e.pk not in {u.pk for u in undecided}],
        leaving=leaving,
        joining=joining,
        set_aside=unsettled,
        undecided=undecided,
    )


def _impact(closed: Closure, game: Game, rounds_a: Sequence[RoundData]) -> Impact:
    """Rank the stage as it is and with the change, the change written inside a savepoint that
    is always rolled back (so the standings are read by the same code as everywhere)."""
    stage, into = closed.stage, closed.into
    before = ranking_into(stage, into)
    with transaction.atomic():
        point = transaction.savepoint()
        try:
            with applying(stage):
                record_game(game, rounds_a)
            after = ranking_into(stage, into)
        finally:
            transaction.savepoint_rollback(point)
    return describe_impact(stage, into, seeded_entries(into), before, after)


# --- the head referee's change ---------------------------------------------------------------


def stage_closure(stage: Stage) -> Closure | None:
    """The stage's closure, read once per stage object: a page asking the step of each of the
    stage's games (``closed_actions``) reads it once."""
    if "_closure" not in stage.__dict__:
        stage.__dict__["_closure"] = closure(stage)
    return stage.__dict__["_closure"]


def stage_is_closed(game: Game) -> Refused | None:
    """A closed result is changed here only while its stage is closed; an open stage's results
    are changed on the scorecards."""
    stage = game.match.stage
    if stage_closure(stage) is not None:
        return None
    return Refused(
        _(
            "%(stage)s is not closed: change its results on the scorecards (a referee's "
            "correction, or the head referee's ruling on a dispute)."
        )
        % {"stage": stage.name},
        kind=Kind.CONFLICT,
    )


@transaction.atomic
def change_closed_result(
    *,
    game: Game,
    rounds: Sequence[Mapping[str, Any]],
    user: AbstractBaseUser,
    reason: str = "",
    initials: str = "",
    preview: bool = False,
) -> ClosedChange:
    """The head referee changes the result of ``game`` in a closed stage: ``rounds`` in the
    match's order of sides (entry A first), complete, with a ``reason`` and their ``initials``.

    With ``preview`` nothing is written: the answer says what the change would mean for the next
    stage. Otherwise every card of the game takes the rounds, verified, the official result
    follows (the path of a ruling on a dispute) and a :class:`ClosedStageChange` is stored with
    the impact. The game is locked and read again first, and the step's permission and state
    (:func:`stage_is_closed`) asked on it: ``Forbidden`` for anyone but the head referee (and
    for a head referee who plays in the game: nobody rules on their own game), ``Refused``
    naming what is wrong (a stage that is not closed, bad rounds, a change that changes
    nothing, a missing reason or initials); nothing is saved then.
    """
    lock_games([game.pk])
    game = closed_game(game.pk)
    stage = game.match.stage
    if not user.has_perm("scoring.change_closed_result", game):
        # The head referee who plays in the game is told so: another official changes it.
        raise Forbidden(
            conflict_refusal(user, "scoring.change_closed_result", game) or str(CHANGE_WHO)
        )
    unmet = stage_is_closed(game)
    if unmet is not None:
        raise unmet
    found = stage_closure(stage)
    clean = normalise_rounds(game, rounds)
    check_complete(game, clean)
    before = official_rounds(game)
    values = {"match": game.match, "game": game.number, "stage": stage.name}
    if before == clean:
        raise Refused(
            _(
                "%(match)s, game %(game)s: these are the rounds already recorded; nothing would "
                "change."
            )
            % values
        )
    if not preview:
        if not reason.strip():
            raise Refused(
                _(
                    "%(match)s, game %(game)s: say why a result of the closed stage %(stage)s "
                    "is changed."
                )
                % values
            )
        if not initials.strip():
            raise Refused(
                _("%(match)s, game %(game)s: the head referee's initials are missing.") % values
            )
    impact = _impact(found, game, clean)
    if preview:
        return ClosedChange(found, game, before, clean, impact)
    why = _("closed-stage change by the head referee (%(initials)s)") % {
        "initials": initials.strip().upper()[:5]
    }
    with applying(stage):
        resolve_dispute(
            game=game,
            rounds_a=clean,
            user=user,
            initials=initials,
            why=why,
            require_dispute=False,
        )
    record = ClosedStageChange.objects.create(
        stage=stage,
        game=game,
        into=found.into,
        changed_by=user,
        initials=initials.strip().upper()[:5],
        reason=reason.strip(),
        before=before,
        after=clean,
        impact=impact.text,
    )
    _note_set_aside(stage, game, impact.set_aside, user)
    return ClosedChange(found, game, before, clean, impact, record)


def _note_set_aside(
    stage: Stage, game: Game, unsettled: Sequence[SetAsideShootout], user: AbstractBaseUser
) -> None:
    """Each shoot-out the change unsettled stays on record; its history (the organizer's
    Changes page) says from when and why it no longer counts."""
    for shot in unsettled:
        shootout = ShootOut.objects.get(stage=stage, order=shot.order)
        shootout._history_user = user
        shootout._change_reason = _(
            "No longer counts after the head referee's change of %(match)s, game %(game)s: %(why)s"
        ) % {"match": game.match, "game": game.number, "why": shot.text}
        shootout.save()


# --- undoing an advance ----------------------------------------------------------------------


@transaction.atomic
def undo_advance(stage: Stage, *, user: AbstractBaseUser) -> UndoneAdvance:
    """The organizer takes back the advance of ``stage`` (or of the stage whose tie a shoot-out
    stage settles): the next stage's draw and seeding go (``undo_draw``) and ``stage`` is open
    again. Recorded shoot-outs stay: they are results of ``stage``'s ties.

    Refused (``Refused``: ``services.UNDO_ADVANCE_CONDITIONS``, the preconditions of the step
    ``scoring.progression.actions.undo_advance``) when the stage has not advanced, when the next
    stage has a result (a card row, an official round, a shoot-out) or when the stage after it
    is drawn; ``Forbidden`` for anyone but the organizers.
    """
    if not user.has_perm("scoring.undo_advance", stage):
        raise Forbidden(_("Only %(roles)s undo an advance.") % {"roles": UNDO_ROLES})
    ensure(stage, *UNDO_ADVANCE_CONDITIONS)
    found = closure(stage)
    into = found.into
    removed = undo_draw(into)
    StageAdvance.objects.filter(stage=found.stage, into=into, undone_at__isnull=True).update(
        undone_at=timezone.now(), undone_by=user
    )
    source = Stage.objects.get(pk=found.stage.pk)
    source._change_reason = _("Advance to %(into)s undone: results open again.") % {
        "into": into.name
    }
    source._history_user = user
    source.save()
    return UndoneAdvance(found.stage, into, removed)
