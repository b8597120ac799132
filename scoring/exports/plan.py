"""Which models make up a tournament, found by walking foreign keys rather than listed by hand.

Every model of the ``tournaments`` and ``scoring`` apps belongs to one tournament through a chain
of foreign keys (a round through its game, match, stage and category). The plan finds, for each
model, the shortest such chain, the order in which rows can be inserted (a row after the rows it
refers to), and the history table (django-simple-history) that goes with it. A field added to a
model travels in the export without a change here; a new model is picked up as soon as it has a
foreign key leading to a tournament. A model that has none, or that refers to something that is
neither a user nor part of the tournament, makes the plan fail with a message saying what to do
(``tests/scoring/test_export_import.py`` builds the plan, so the test suite fails first): give
it such a key, or list it in ``EXCLUDED`` with the reason it is not carried.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q, QuerySet
from simple_history.models import HistoricalChanges

from tournaments.models import Tournament

#: The apps whose models make up a tournament.
APPS = ("tournaments", "scoring")

#: Models of those apps that an export leaves out on purpose, by label, with the reason. Keep a
#: reason a reader of a backup would accept: what is lost by not carrying the model.
EXCLUDED: dict[str, str] = {
    "tournaments.Invitation": (
        "an invitation is addressed to an account of this site, by what its organizer "
        "typed; it means nothing on another site and grants nothing until its owner accepts "
        "it, so it stays here (a signed file from this site makes new ones for its staff "
        "instead)"  # untranslated: a reason for the developers, never shown
    ),
    **dict.fromkeys(
        (
            "tournaments.Person",
            "tournaments.HistoricalPerson",
            "scoring.RecordImport",
            "scoring.RecordedGame",
            "scoring.Rating",
            "scoring.RatingPoint",
            "scoring.RatingBookState",
            "scoring.RankingSnapshot",
        ),
        "the record (the registry of people, their games, ratings and rankings) is the site's, "
        "not an event's: the site that reads the file matches its players to its own registry "
        "and records the tournament's verified games itself",  # untranslated: for developers
    ),
}

#: Models of the whole site that a tournament's rows point to without owning them: such a key is
#: left out of the file (the reading site has its own), never followed.
SITE_WIDE = frozenset({"tournaments.Person"})


class PlanError(Exception):
    """The models cannot be exported as they are (a programming error, caught by the tests)."""


@dataclass(frozen=True)
class ModelPlan:
    """One model of the tournament: how its rows are found and what its fields refer to."""

    model: type[models.Model]
    #: The foreign key that leads towards the tournament (None for the tournament itself).
    parent: models.ForeignKey | None
    #: The lookup from this model to its tournament, e.g. ``stage__category__tournament``.
    path: str
    #: The model's history table, if it keeps one.
    history: type[models.Model] | None = None
    #: Foreign keys to other models of the tournament, by field name.
    references: dict[str, type[models.Model]] = field(default_factory=dict)
    #: Foreign keys to users (carried as usernames), by field name.
    user_fields: frozenset[str] = frozenset()
    #: Many-to-many fields to models of the tournament, by field name.
    many: dict[str, type[models.Model]] = field(default_factory=dict)
    #: The same, for the history table's fields.
    history_references: dict[str, type[models.Model]] = field(default_factory=dict)
    history_user_fields: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def history_label(self) -> str:
        assert self.history is not None
        return self.history._meta.label_lower

    def rows(self, tournament: Tournament) -> QuerySet:
        """The tournament's rows of this model, oldest first."""
        manager = self.model._base_manager
        found = (
            manager.filter(**{self.path: tournament})
            if self.path
            else manager.filter(pk=tournament.pk)
        )
        return found.order_by("pk")

    def history_rows(self, plan: Plan, tournament: Tournament) -> QuerySet:
        """The tournament's history rows of this model, oldest first, including the history
        of rows deleted since (a deleted category's stages still name the category)."""
        assert self.history is not None
        return self.history._base_manager.filter(self._history_owned(plan, tournament)).order_by(
            "history_id"
        )

    def _history_owned(self, plan: Plan, tournament: Tournament) -> Q:
        if self.parent is None:
            return Q(**{self.model._meta.pk.attname: tournament.pk})
        parent = plan.by_model[self.parent.related_model]
        attname = self.parent.attname
        if parent.parent is None:
            return Q(**{attname: tournament.pk})
        owned = Q(**{f"{attname}__in": parent.rows(tournament).order_by().values("pk")})
        if parent.history is not None:
            ids = (
                parent.history_rows(plan, tournament)
                .order_by()
                .values(parent.model._meta.pk.attname)
            )
            owned |= Q(**{f"{attname}__in": ids})
        return owned


@dataclass(frozen=True)
class Plan:
    """Every model of a tournament, in an order that inserts a row after those it refers to."""

    models: tuple[ModelPlan, ...]
    by_model: dict[type[models.Model], ModelPlan]
    by_label: dict[str, ModelPlan]
    #: History tables by label, with the plan of the model they keep the history of.
    by_history_label: dict[str, ModelPlan]


def _is_history(model: type[models.Model]) -> bool:
    return issubclass(model, HistoricalChanges) and hasattr(model, "instance_type")


def _relations(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.get_fields() if f.concrete and f.is_relation]


def _walk(candidates: list[type[models.Model]]) -> dict[type[models.Model], tuple]:
    """Breadth first from the tournament: each model by its shortest chain of required foreign
    keys (a nullable one, like a match's board, would lose the rows where it is empty)."""
    found: dict[type[models.Model], tuple] = {Tournament: (None, "")}
    while True:
        level: dict[type[models.Model], tuple] = {}
        for model in candidates:
            if model in found:
                continue
            for f in _relations(model):
                required = (f.many_to_one or f.one_to_one) and not f.null
                if required and f.related_model in found:
                    above = found[f.related_model][1]
                    level[model] = (f, f"{f.name}__{above}" if above else f.name)
                    break
        if not level:
            return found
        found.update(level)


def _references(
    model: type[models.Model], owned: set[type[models.Model]], *, history: bool
) -> tuple[dict, frozenset[str], dict]:
    user_model = get_user_model()
    references, users, many = {}, set(), {}
    for f in _relations(model):
        target = f.related_model
        if target._meta.label in SITE_WIDE:
            continue  # not carried (scoring.exports.services.NOT_CARRIED)
        if f.many_to_many:
            if not f.remote_field.through._meta.auto_created:
                continue  # the through model is a model of its own, planned like the others
            if target not in owned:
                raise PlanError(
                    f"{model._meta.label}.{f.name} refers to {target._meta.label}, which is "
                    "not part of a tournament: export it too or list it in EXCLUDED."
                )
            many[f.name] = target
        elif target is user_model:
            users.add(f.name)
        elif target in owned:
            references[f.name] = target
        else:
            raise PlanError(
                f"{model._meta.label}.{f.name} refers to {target._meta.label}, which is neither "
                "a user nor part of a tournament: the export cannot carry it. Give "
                f"{target._meta.label} a foreign key leading to its tournament, or list "
                f"{model._meta.label} in EXCLUDED with the reason."
            )
    return references, frozenset(users), many


def _insertion_order(
    found: dict[type[models.Model], tuple], order: list[type[models.Model]]
) -> list[type[models.Model]]:
    """Models sorted so that each comes after the models its foreign keys point to."""
    done: list[type[models.Model]] = []
    waiting = [m for m in order if m in found]
    while waiting:
        ready = [
            m
            for m in waiting
            if all(
                f.related_model in done or f.related_model is m or f.related_model not in found
                for f in _relations(m)
                if f.many_to_one or f.one_to_one or f.many_to_many
            )
        ]
        if not ready:
            names = ", ".join(m._meta.label for m in waiting)
            raise PlanError(
                f"the foreign keys of {names} form a cycle; "  # untranslated: developer error
                "no insertion order."
            )
        done.extend(ready)
        waiting = [m for m in waiting if m not in ready]
    return done


@cache
def export_plan() -> Plan:
    """The plan of every tournament's export (computed once; models do not change at run time)."""
    candidates = [m for app in APPS for m in apps.get_app_config(app).get_models()]
    histories = {m.instance_type: m for m in candidates if _is_history(m)}
    plain = [
        m
        for m in candidates
        if not _is_history(m) and m._meta.label not in EXCLUDED and m is not Tournament
    ]
    for label in EXCLUDED:
        apps.get_model(label)  # a stale entry (a model renamed or removed) fails here
    found = _walk([Tournament, *plain])
    missing = [m._meta.label for m in plain if m not in found]
    if missing:
        raise PlanError(
            f"{', '.join(missing)}: no required foreign key leads to a tournament, so an export "
            "cannot "
            "tell which rows belong to which tournament. Give each such a key, or list it in "
            "scoring.exports.plan.EXCLUDED with the reason it is not carried."
        )
    owned = set(found)
    keyed = [m._meta.label for m in owned if m._meta.auto_field is not m._meta.pk]
    if keyed:
        raise PlanError(
            f"{', '.join(keyed)}: an export gives objects new primary keys on import, which "
            "needs a primary key the database numbers (an AutoField)."
        )
    for instance_type in histories:
        if instance_type not in owned and instance_type._meta.label not in EXCLUDED:
            label = instance_type._meta.label
            raise PlanError(
                f"the history of {label} has no model to follow."  # untranslated: developer error
            )
    plans = []
    for model in _insertion_order(found, [Tournament, *plain]):
        parent, path = found[model]
        references, users, many = _references(model, owned, history=False)
        history = histories.get(model)
        plan_kwargs = {}
        if history is not None:
            if parent is not None and parent.name not in {f.name for f in _relations(history)}:
                raise PlanError(
                    f"the history of {model._meta.label} "  # untranslated: developer error
                    f"does not keep {parent.name}, so the export cannot tell which tournament "
                    "its rows belong to."
                )
            h_references, h_users, _ = _references(history, owned, history=True)
            plan_kwargs = {"history_references": h_references, "history_user_fields": h_users}
        plans.append(
            ModelPlan(
                model=model,
                parent=parent,
                path=path,
                history=history,
                references=references,
                user_fields=users,
                many=many,
                **plan_kwargs,
            )
        )
    return Plan(
        models=tuple(plans),
        by_model={p.model: p for p in plans},
        by_label={p.label: p for p in plans},
        by_history_label={p.history_label: p for p in plans if p.history is not None},
    )
