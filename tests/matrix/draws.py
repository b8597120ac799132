"""The draw steps of a stage (``tournaments.draw_actions``): the organizers and co-organizers,
whether they play or not (a draw rules on no game)."""

from __future__ import annotations

from tests.factories import StageFactory

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})


def undrawn(world):
    """A first stage of a category of its own, every entry checked in, not drawn yet."""
    from tests.test_role_matrix import _event_day_category

    category, _ = _event_day_category(world, "Draw singles", 4)
    return StageFactory(category=category, name="Prelim", games_per_entry=1, order=1)


def pools(world):
    """A round robin drawn into two pools, nothing of it played."""
    from tests.test_role_matrix import _pools_stage

    return _pools_stage(world)[0]


ROWS = {
    "tournaments.draw_stage": Row(ORGANIZERS, undrawn),
    # the event's preliminary, drawn, nothing of it recorded
    "tournaments.undo_draw": Row(ORGANIZERS, lambda world: world.stage),
    "tournaments.swap_entries": Row(ORGANIZERS, lambda world: world.stage),
    "tournaments.schedule_stage": Row(ORGANIZERS, lambda world: world.stage),
    "tournaments.set_seeds": Row(ORGANIZERS, lambda world: world.stage.category),
    "tournaments.move_to_pool": Row(ORGANIZERS, pools),
}
