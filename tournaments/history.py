"""The organizer's audit page, read from the history tables: every change of the tournament, its
categories, stages, players, teams, entries and staff roles, newest first, with who made it and
the values before and after. (Shoot-outs and changes of closed results are scoring's: the page's
view reads them from ``scoring.progression``, since this module does not import scoring.)

The history rows of a category or entry that was deleted still name its category, so the
tournament's categories are taken from the history too (a deleted category's changes stay
listed). Rows are read per model in a few queries and compared in Python (no query per row).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext, pgettext_lazy

from tournaments.models import Category, Entry, Player, Stage, Team, Tournament, TournamentRole
from tournaments.models.labels import field_label

#: What happened to the object, after its kind and name ("Category Cue Singles created").
ACTIONS = {
    "+": pgettext_lazy("audit", "created"),
    "~": pgettext_lazy("audit", "changed"),
    "-": pgettext_lazy("audit", "deleted"),
}
#: A role is given and taken back rather than created and deleted.
ROLE_ACTIONS = {
    "+": pgettext_lazy("audit", "given"),
    "~": pgettext_lazy("audit", "changed"),
    "-": pgettext_lazy("audit", "taken back"),
}


@dataclass(frozen=True)
class FieldChange:
    label: str
    before: str
    after: str


@dataclass(frozen=True)
class Change:
    """One line of the audit page."""

    when: datetime.datetime
    who: str
    kind: str
    name: str
    action: str
    reason: str = ""
    fields: list[FieldChange] = field(default_factory=list)


def _value(row: models.Model, f: models.Field, labels: dict[str, dict[int, str]]) -> str:
    raw = getattr(row, f.attname)
    if raw is None or raw == "":
        return "—"
    if f.is_relation and f.name in labels:
        return labels[f.name].get(raw, f"#{raw}")
    if f.choices:
        return str(dict(f.flatchoices).get(raw, raw))
    if isinstance(raw, bool):
        return gettext("yes") if raw else gettext("no")
    return str(raw)


def _changes(
    rows: Iterable[models.Model],
    kind: str,
    name_of,
    labels: dict[str, dict[int, str]],
    *,
    actions: dict[str, str] = ACTIONS,
    deleted_values: bool = False,
) -> list[Change]:
    """Each history row compared with the row before it of the same object. With
    ``deleted_values`` a deletion lists the values it removed (a role taken back: which one)."""
    out: list[Change] = []
    previous: dict[int, models.Model] = {}
    for row in rows:  # ordered by object, then oldest first
        tracked = {f.name for f in row._meta.concrete_fields}  # less any excluded_fields
        fields = [
            f
            for f in row.instance_type._meta.concrete_fields
            if not f.primary_key
            and f.name not in ("tournament", "created_at")
            and f.name in tracked
        ]
        before = previous.get(row.id)
        diff = []
        for f in fields:
            after_value = _value(row, f, labels)
            if row.history_type == "+":
                if after_value != "—":
                    diff.append(FieldChange(str(field_label(f)), "—", after_value))
            elif row.history_type == "-":
                if deleted_values and after_value != "—":
                    diff.append(FieldChange(str(field_label(f)), after_value, "—"))
            else:
                before_value = _value(before, f, labels) if before is not None else "?"
                if before_value != after_value:
                    diff.append(FieldChange(str(field_label(f)), before_value, after_value))
        previous[row.id] = row
        reason = getattr(row, "history_change_reason", "") or ""
        if row.history_type == "~" and not diff and not reason:
            continue
        user = row.history_user
        out.append(
            Change(
                when=row.history_date,
                who=user.get_username() if user is not None else "—",
                kind=kind,
                name=name_of(row),
                action=str(actions[row.history_type]),
                reason=reason,
                fields=diff,
            )
        )
    return out


def _rows(history, **filters):
    return list(
        history.filter(**filters).select_related("history_user").order_by("id", "history_date")
    )


def tournament_changes(tournament: Tournament, *, limit: int = 500) -> list[Change]:
    """The tournament's changes, newest first (at most ``limit``)."""
    categories = _rows(Category.history, tournament_id=tournament.pk)
    category_ids = {r.id for r in categories} | set(
        tournament.categories.values_list("pk", flat=True)
    )
    players = _rows(Player.history, tournament_id=tournament.pk)
    teams = _rows(Team.history, tournament_id=tournament.pk)
    stages = _rows(Stage.history, category_id__in=category_ids)
    entries = _rows(Entry.history, category_id__in=category_ids)
    player_names = {r.id: f"{r.first_name} {r.last_name} ({r.number})" for r in players}
    team_names = {
        r.id: r.name
        or f"{player_names.get(r.player_one_id, '?')} / {player_names.get(r.player_two_id, '?')}"
        for r in teams
    }
    roles = _rows(TournamentRole.history, tournament_id=tournament.pk)
    user_ids = {r.user_id for r in roles} | {r.user_id for r in players if r.user_id}
    usernames = dict(
        get_user_model()._default_manager.filter(pk__in=user_ids).values_list("pk", "username")
    )
    role_names = dict(TournamentRole.Role.choices)
    category_names = {r.id: r.name for r in categories}
    category_names.update(tournament.categories.values_list("pk", "name"))
    labels = {
        "player": player_names,
        "player_one": player_names,
        "player_two": player_names,
        "team": team_names,
        "category": category_names,
        "user": usernames,
    }

    def entry_name(r) -> str:
        who = player_names.get(r.player_id) if r.player_id else team_names.get(r.team_id)
        return gettext("%(entry)s in %(category)s") % {
            "entry": who or gettext("entry #%(id)s") % {"id": r.id},
            "category": category_names.get(r.category_id, "?"),
        }

    def role_name(r) -> str:
        who = usernames.get(r.user_id) or gettext("account #%(id)s") % {"id": r.user_id}
        return f"{who}: {role_names.get(r.role, r.role)}"

    changes = (
        _changes(
            _rows(Tournament.history, id=tournament.pk),
            gettext("Tournament"),
            lambda r: r.name,
            labels,
        )
        + _changes(categories, gettext("Category"), lambda r: r.name, labels)
        + _changes(
            stages,
            gettext("Stage"),
            lambda r: f"{category_names.get(r.category_id, '?')}: {r.name}",
            labels,
        )
        + _changes(players, gettext("Player"), lambda r: player_names[r.id], labels)
        + _changes(teams, gettext("Team"), lambda r: team_names[r.id], labels)
        + _changes(entries, gettext("Entry"), entry_name, labels)
        + _changes(
            roles,
            gettext("Role"),
            role_name,
            labels,
            actions=ROLE_ACTIONS,
            deleted_values=True,
        )
    )
    changes.sort(key=lambda c: c.when, reverse=True)
    return changes[:limit]
