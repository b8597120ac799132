"""A small event with its first match featured, for the broadcast kit's tests."""

from __future__ import annotations

from simulation.broadcast import services
from simulation.models import FeaturedMatch
from tests.events import SmallEvent, build_small_event


def featured_event() -> tuple[SmallEvent, FeaturedMatch]:
    """The small event (its organizer, referees, the player and opponent of its first match)
    with that match featured, on air."""
    event = build_small_event()
    featured = services.add_to_queue(event.tournament, event.match, event.users["organizer"])
    return event, featured


def play(featured: FeaturedMatch, user, *rounds: tuple[int, int]) -> None:
    """Enter rounds by their points (20s 0)."""
    for a, b in rounds:
        services.enter_round(featured, user, points_a=a, points_b=b)
