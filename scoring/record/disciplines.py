"""Which rating discipline a category's games count in (one home for the mapping)."""

from __future__ import annotations

from scoring.models.record import Discipline

_BY_CATEGORY = {
    ("singles", "fingers"): Discipline.SINGLES,
    ("doubles", "fingers"): Discipline.DOUBLES,
    ("singles", "cue"): Discipline.CUE_SINGLES,
    ("doubles", "cue"): Discipline.CUE_DOUBLES,
}


def discipline_of(kind: str, discipline: str) -> Discipline:
    """The rating discipline of a category by its ``kind`` (singles, doubles) and its
    ``discipline`` (fingers, cue): singles and doubles are rated apart, and so is cue."""
    return _BY_CATEGORY[(kind, discipline)]


def category_discipline(category) -> Discipline:
    return discipline_of(category.kind, category.discipline)
