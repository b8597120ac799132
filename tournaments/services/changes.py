"""Applying a correction to a row once it has been checked, the same way for every model.

The new values are tried on a copy first (``full_clean`` words what is wrong, field by field);
then, when the row is already in use (a drawn stage, a category with drawn stages), a change to
the fields that made it is refused with the first such field named; only then is the row saved.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Mapping
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db.models import Model

M = TypeVar("M", bound=Model)


def apply_change(
    obj: M,
    fields: Mapping[str, Any],
    *,
    locked: Collection[str],
    in_use: Callable[[], bool],
    refusal: Callable[[str], str],
) -> M:
    """Set ``fields`` on ``obj`` and save it, unless the values are invalid or a ``locked``
    field would change while ``in_use()``; ``refusal(label)`` words that refusal."""
    candidate = copy.copy(obj)
    for name, value in fields.items():
        setattr(candidate, name, value)
    candidate.full_clean()
    changed = [f for f in locked if f in fields and fields[f] != getattr(obj, f)]
    if changed and in_use():
        label = type(obj)._meta.get_field(changed[0]).verbose_name
        raise ValidationError({changed[0]: refusal(label)})
    for name, value in fields.items():
        setattr(obj, name, value)
    obj.save()
    return obj
