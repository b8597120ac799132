"""The shoot-outs of a tournament as the organizer's audit page lists them, read from their
history tables: who recorded each one, when, and what each entry made; later changes (in the
admin) and deletions (a stage drawn again) with the values before and after.

A shoot-out and its scores are recorded together (``services.record_shootout``), so the scores
written with the shoot-out are shown on its line; a score changed, added or removed afterwards
gets a line of its own. Rows are read in a few queries and compared in Python.
"""

from __future__ import annotations

import datetime

from django.utils.translation import gettext as _

from scoring.models import ShootOut, ShootOutScore
from tournaments.history import Change, FieldChange
from tournaments.models import ENTRY_PEOPLE, Category, Entry, Stage, Tournament

#: A score row written this soon after its shoot-out, by the same user with the same reason, was
#: recorded with it (``record_shootout`` writes both in one transaction).
SAME_RECORDING = datetime.timedelta(seconds=60)


def _who(row) -> str:
    return row.history_user.get_username() if row.history_user is not None else "—"


def shootout_changes(tournament: Tournament) -> list[Change]:
    """The tournament's shoot-out changes, newest first."""
    category_ids = Category.history.filter(tournament_id=tournament.pk).values("id")
    stage_ids = set(Stage.history.filter(category_id__in=category_ids).values_list("id", flat=True))
    shootouts = list(
        ShootOut.history.filter(stage_id__in=stage_ids)
        .select_related("history_user")
        .order_by("id", "history_date", "history_id")
    )
    scores = list(
        ShootOutScore.history.filter(shootout_id__in={r.id for r in shootouts})
        .select_related("history_user")
        .order_by("id", "history_date", "history_id")
    )
    stage_names = {
        s.id: f"{s.category.name}: {s.name}"
        for s in Stage.objects.filter(pk__in=stage_ids).select_related("category")
    }
    entry_names = {
        e.id: e.name
        for e in Entry.objects.filter(pk__in={r.entry_id for r in scores}).select_related(
            *ENTRY_PEOPLE
        )
    }

    def entry(entry_id: int) -> str:
        if entry_id in entry_names:
            return entry_names[entry_id]
        return _("entry #%(id)s") % {"id": entry_id}

    def title(row) -> str:
        stage = stage_names.get(row.stage_id)
        if stage is None:
            stage = _("stage #%(id)s") % {"id": row.stage_id}
        return _("%(stage)s, shoot-out %(order)s") % {"stage": stage, "order": row.order}

    kind = _("Shoot-out")
    score_actions = {"+": _("score added"), "~": _("score changed"), "-": _("score removed")}

    created = {r.id: r for r in shootouts if r.history_type == "+"}
    latest = {r.id: r for r in shootouts}  # the last row of each: its order and stage
    deleted = {r.id: r for r in shootouts if r.history_type == "-"}
    recorded_with: dict[int, list] = {}
    out: list[Change] = []
    previous: dict[int, object] = {}
    for row in scores:
        before = previous.get(row.id)
        previous[row.id] = row
        parent = created.get(row.shootout_id)
        if (
            row.history_type == "+"
            and parent is not None
            and row.history_user_id == parent.history_user_id
            and (row.history_change_reason or "") == (parent.history_change_reason or "")
            and abs(row.history_date - parent.history_date) <= SAME_RECORDING
        ):
            recorded_with.setdefault(parent.id, []).append(row)
            continue
        gone = deleted.get(row.shootout_id)
        if row.history_type == "-" and gone is not None:
            continue  # removed with its shoot-out: listed on that line
        if row.history_type == "~":
            old = str(before.twenties) if before is not None else "?"
            if old == str(row.twenties) and not row.history_change_reason:
                continue
            fields = [FieldChange(entry(row.entry_id), old, str(row.twenties))]
        elif row.history_type == "+":
            fields = [FieldChange(entry(row.entry_id), "—", str(row.twenties))]
        else:
            fields = [FieldChange(entry(row.entry_id), str(row.twenties), "—")]
        shootout = latest.get(row.shootout_id)
        out.append(
            Change(
                when=row.history_date,
                who=_who(row),
                kind=kind,
                name=title(shootout) if shootout is not None else f"#{row.shootout_id}",
                action=score_actions[row.history_type],
                reason=row.history_change_reason or "",
                fields=fields,
            )
        )
    last_scores: dict[int, dict[int, object]] = {}
    for row in scores:
        if row.history_type == "-" and row.shootout_id not in deleted:
            last_scores.setdefault(row.shootout_id, {}).pop(row.id, None)
        else:
            last_scores.setdefault(row.shootout_id, {})[row.id] = row
    previous_shootout: dict[int, object] = {}
    for row in shootouts:
        before = previous_shootout.get(row.id)
        previous_shootout[row.id] = row
        if row.history_type == "+":
            fields = [
                FieldChange(entry(s.entry_id), "—", str(s.twenties))
                for s in recorded_with.get(row.id, [])
            ]
            action = _("recorded")
        elif row.history_type == "-":
            fields = [
                FieldChange(entry(s.entry_id), str(s.twenties), "—")
                for s in last_scores.get(row.id, {}).values()
            ]
            action = _("deleted")
        else:
            fields = []
            if before is not None and before.order != row.order:
                fields.append(FieldChange(_("order"), str(before.order), str(row.order)))
            if before is not None and before.stage_id != row.stage_id:
                fields.append(FieldChange(_("stage"), title(before), title(row)))
            if not fields and not row.history_change_reason:
                continue
            action = _("changed")
        out.append(
            Change(
                when=row.history_date,
                who=_who(row),
                kind=kind,
                name=title(row),
                action=action,
                reason=row.history_change_reason or "",
                fields=fields,
            )
        )
    out.sort(key=lambda c: c.when, reverse=True)
    return out
