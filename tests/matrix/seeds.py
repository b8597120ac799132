"""Seeds from ratings (``scoring.seeds.actions``): the organizers and co-organizers, whether they
play or not (seeds rule on no game), as for the seed editor whose write it calls."""

from __future__ import annotations

from . import Row
from .draws import ORGANIZERS


def undrawn_category(world):
    """A category of its own with four entries, no stage drawn yet."""
    from tests.test_role_matrix import _event_day_category

    category, _ = _event_day_category(world, "Ratings singles", 4)
    return category


ROWS = {
    "scoring.apply_seeds_from_ratings": Row(ORGANIZERS, undrawn_category),
}
