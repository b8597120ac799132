"""A step of the event, declared once: who may take it, what state it needs, what it takes in,
the service that does it and what follows its commit.

Every path that takes the step (a page, the API, a task, the simulation, a command) calls the
same declaration, and a page asks it whether a button applies and, if not, why
(:meth:`Action.refusal`): nothing else decides a step's precondition. This is django-fsm's
``@transition(conditions=..., permission=...)`` with two differences the event needs: a
refusal is words, never a bare no (pages show why a button is missing, the API answers the same
words), and the state a step needs need not be one status field.

A refusal is one type, :class:`Refused`, with its *kind*, which decides the answer an API client
gets (:data:`STATUS`): ``forbidden`` (403, the role or a conflict of interest), ``invalid``
(400, the input), ``conflict`` (409, the stored state does not allow it now), ``stale`` (409,
someone changed it since it was read) and ``not-found`` (404).

Actions are declared in the app whose services they call; one that crosses apps lives in the
higher app, so the import contracts stay as they are. :data:`REGISTRY` lists them all, so that
the role matrix fails when a step is declared without its rows.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction


class Kind(StrEnum):
    """Why a step is refused, as a client can act on it."""

    FORBIDDEN = "forbidden"
    INVALID = "invalid"
    CONFLICT = "conflict"
    STALE = "stale"
    NOT_FOUND = "not-found"


#: The HTTP status of each kind of refusal (the API's one handler reads it).
STATUS = {
    Kind.FORBIDDEN: 403,
    Kind.INVALID: 400,
    Kind.CONFLICT: 409,
    Kind.STALE: 409,
    Kind.NOT_FOUND: 404,
}


class Refused(ValidationError):
    """A step refused, in words: the one refusal of the services and of :class:`Action`.

    A ``ValidationError``, so that forms and pages that show a service's refusal show this one
    the same way; with, as data, its ``kind``, the ``field`` at fault and the ``round`` at fault
    (1-based), so that a page can mark that box without reading words.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: Kind = Kind.INVALID,
        field: str | None = None,
        round: int | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = Kind(kind)
        self.field = field
        self.round = round

    @property
    def text(self) -> str:
        """The words alone, as pages print them (no list brackets)."""
        return " ".join(self.messages)

    @property
    def status(self) -> int:
        return STATUS[self.kind]


class Forbidden(Refused, PermissionDenied):
    """A refusal of the role (or of a conflict of interest): a ``PermissionDenied`` too, so the
    pages' 403 handling and DRF's both know it."""

    def __init__(self, message: str, **kw: Any) -> None:
        super().__init__(message, kind=Kind.FORBIDDEN, **kw)


def refusal_text(exc: Exception) -> str:
    """The words of any refusal a service raises, as the pages print them."""
    if isinstance(exc, Refused):
        return exc.text
    found = getattr(exc, "messages", None)
    return " ".join(found) if found else str(exc)


#: A step's precondition on the state: the words of its refusal (or a :class:`Refused`, to choose
#: its kind), or None when it may go on.
Precondition = Callable[[Any], Any]
#: Words said to whoever lacks the permission: ``(user, permission, obj) -> words or None``
#: (the app's conflict-of-interest words; None falls back to :attr:`Action.who`).
DeniedWords = Callable[[Any, str, Any], Any]

#: Every declared step, by name.
REGISTRY: dict[str, Action] = {}


@dataclass(frozen=True, eq=False)
class Action:
    """One step of the event. Call it to take the step; ask :meth:`refusal` to show it.

    - ``name``: unique, dotted like a permission (``"scoring.fill_row"``).
    - ``permission``: the ``rules`` permission, asked on the step's object.
    - ``who``: what the refusal says to someone without the permission (who may instead).
    - ``when``: the preconditions on the object's state, in order; each returns the words of
      its refusal (a :class:`Refused` to choose its kind), or None.
    - ``fields``: the names of the step's inputs, once: the form and the serializer that take
      them are checked against these (``tests/test_actions.py``).
    - ``run``: the service, called as ``run(user, obj, **inputs)`` in one transaction (the
      service records the history reason).
    - ``after``: what runs once that transaction commits, each called with the result (tasks,
      live-page bumps).
    - ``denied``: the app's words for a refusal of the permission that is not about the role
      (a conflict of interest: "You play in this game ...").
    - ``fresh``: called as ``fresh(obj, inputs)`` when the step is taken, after the permission
      (nobody else learns that the object moved on) and before the preconditions: raises the
      app's stale refusal when the object changed since the caller read it (its ``version``),
      so that the caller is told to reload rather than that the step no longer applies.
    """

    name: str
    permission: str
    who: Any
    run: Callable[..., Any] | None = None
    when: tuple[Precondition, ...] = ()
    fields: tuple[str, ...] = ()
    after: tuple[Callable[[Any], None], ...] = ()
    denied: DeniedWords | None = None
    fresh: Callable[[Any, dict[str, Any]], None] | None = None
    #: The service asks the permission and these preconditions itself, in its own transaction
    #: (``@transaction.atomic``), under its locks, on the objects as it reads them there:
    #: taking the step then only calls it, so that a write at the end of a round, when every
    #: phone writes at once, reads each row once and opens one transaction.
    service_checks: bool = False
    #: The kind of a failed precondition that says no kind of its own.
    state_kind: Kind = Kind.CONFLICT
    #: The page's form and the API's serializer that take ``fields``, as dotted paths
    #: (``"tournaments.forms.EntryForm"``), read only by the test of the declarations, which
    #: checks that each takes exactly these fields (so that a field added to one is added to
    #: all); None for a step whose inputs are not one flat form (the card's round boxes).
    form: str | None = None
    serializer: str | None = None

    def __post_init__(self) -> None:
        if self.name in REGISTRY:
            twice = f"The step {self.name!r} is declared twice."  # untranslated: a bug
            raise ValueError(twice)
        REGISTRY[self.name] = self

    def __repr__(self) -> str:
        return f"<Action {self.name}>"

    # Asking --------------------------------------------------------------------------------

    def forbidden(self, user, obj) -> Forbidden | None:
        """The refusal of the permission alone (not of the state), or None when ``user`` holds
        it on ``obj``."""
        if user.has_perm(self.permission, obj):
            return None
        words = self.denied(user, self.permission, obj) if self.denied else None
        return Forbidden(str(words or self.who))

    def unmet(self, obj) -> Refused | None:
        """The first precondition ``obj``'s state does not meet, as a refusal; or None."""
        return first_unmet(obj, self.when, self.state_kind)

    def refusal(self, user, obj) -> Refused | None:
        """Why ``user`` may not take this step on ``obj`` now (the role first, then the state),
        or None when they may: what a page shows beside a button it does not offer."""
        return self.forbidden(user, obj) or self.unmet(obj)

    def allows(self, user, obj) -> bool:
        return self.refusal(user, obj) is None

    # Taking --------------------------------------------------------------------------------

    def __call__(self, user, obj, **inputs: Any) -> Any:
        """Take the step: refused (raising :class:`Refused`) unless ``user`` may on ``obj`` as
        it stands; then the service in one transaction, and the ``after`` hooks on commit.

        The service checks again under its locks what may have changed since (the state read
        here is the one the page was drawn from)."""
        unknown = set(inputs) - set(self.fields)
        if unknown:
            names = ", ".join(sorted(unknown))
            raise TypeError(f"{self.name} takes no input named {names}.")  # untranslated: a bug
        if self.run is None:
            raise TypeError(f"{self.name} declares no service to run.")  # untranslated: a bug
        if self.service_checks:
            result = self.run(user, obj, **inputs)
            self._after_commit(result)
            return result
        refused = self.forbidden(user, obj)
        if refused is None and self.fresh is not None:
            self.fresh(obj, inputs)
        refused = refused or self.unmet(obj)
        if refused is not None:
            raise refused
        with transaction.atomic():
            result = self.run(user, obj, **inputs)
            self._after_commit(result)
        return result

    def _after_commit(self, result: Any) -> None:
        for hook in self.after:
            transaction.on_commit(partial(hook, result))


def input_names(dotted: str) -> set[str]:
    """The field names of the form or serializer class at ``dotted`` (``module.Class``)."""
    module, _, name = dotted.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    if hasattr(cls, "base_fields"):  # a Django form
        return set(cls.base_fields)
    return {
        field
        for field, declared in cls().fields.items()
        if not declared.read_only  # what the API shows back is not an input
    }


def first_unmet(
    obj: Any, preconditions: Iterable[Precondition], kind: Kind = Kind.CONFLICT
) -> Refused | None:
    """The first of ``preconditions`` that ``obj`` does not meet, as a refusal (of ``kind`` when
    it says words alone); or None."""
    for precondition in preconditions:
        found = precondition(obj)
        if found is None or found == "":
            continue
        return found if isinstance(found, Refused) else Refused(str(found), kind=kind)
    return None


def ensure(obj: Any, *preconditions: Precondition, kind: Kind = Kind.CONFLICT) -> None:
    """Raise the first refusal of ``preconditions`` on ``obj``: how a service asks again, in its
    transaction and under its locks, what its step declares."""
    refused = first_unmet(obj, preconditions, kind)
    if refused is not None:
        raise refused


def declared(prefix: str = "") -> list[Action]:
    """The steps declared so far whose name starts with ``prefix``, by name."""
    return [REGISTRY[name] for name in sorted(REGISTRY) if name.startswith(prefix)]


def refusals(user, obj, actions: Iterable[Action]) -> dict[str, Refused | None]:
    """Each action's refusal for ``user`` on ``obj``, keyed by the part of its name after the
    last dot (``"fill_row"``): what a template reads to show or explain its buttons."""
    return {action.name.rsplit(".", 1)[-1]: action.refusal(user, obj) for action in actions}
