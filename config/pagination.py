"""Pagination of every API list, with bounds on ``limit`` and ``offset``.

DRF's ``LimitOffsetPagination`` takes any ``offset`` and slices the query with it; one past what
the database's integers hold ends as a 500 (``bigint out of range`` on PostgreSQL, an
``OverflowError`` on SQLite). Here both are checked first and a bad one is a 400 naming it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

#: The largest page a client may ask for.
MAX_LIMIT = 1000
#: No list comes near this; past it the database could not even take the number.
MAX_OFFSET = 2**31 - 1


def bounded_int(request: Request, name: str, low: int, high: int) -> int | None:
    """The query parameter ``name`` as an integer in ``[low, high]``, None when absent."""
    raw = request.query_params.get(name)
    if raw in (None, ""):
        return None
    try:
        value = int(raw.strip())
    except ValueError:
        raise ValidationError(
            {name: [_("%(name)s must be a whole number.") % {"name": name}]}
        ) from None
    if not low <= value <= high:
        raise ValidationError(
            {
                name: [
                    _("%(name)s must be between %(low)s and %(high)s.")
                    % {"name": name, "low": low, "high": high}
                ]
            }
        )
    return value


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=`` between 1 and ``MAX_LIMIT``, ``?offset=`` between 0 and ``MAX_OFFSET``."""

    max_limit = MAX_LIMIT

    def get_limit(self, request: Request) -> int | None:
        limit = bounded_int(request, self.limit_query_param, 1, MAX_LIMIT)
        return self.default_limit if limit is None else limit

    def get_offset(self, request: Request) -> int:
        offset = bounded_int(request, self.offset_query_param, 0, MAX_OFFSET)
        return offset or 0
