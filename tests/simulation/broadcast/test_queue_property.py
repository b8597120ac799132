"""Whatever the organizer does to the stream queue, in any order, it stays numbered 1, 2, ...
with exactly one match on air, the first not finished, and the version moves at every step."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulation.broadcast import services
from simulation.models import FeaturedMatch
from tests.events import build_small_event
from tournaments.actions import Refused
from tournaments.models import Match

pytestmark = pytest.mark.django_db

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "up", "down", "on_air", "remove", "finish"]),
        st.integers(0, 5),
    ),
    min_size=1,
    max_size=12,
)


@pytest.mark.slow
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=STEPS)
def test_the_queue_keeps_its_order_and_one_match_on_air(django_db_blocker, steps):
    with django_db_blocker.unblock():
        from django.db import transaction

        with transaction.atomic():
            _check(steps)
            transaction.set_rollback(True)


def _check(steps) -> None:
    event = build_small_event(players=8)
    matches = list(Match.objects.filter(stage=event.stage, entry_b__isnull=False).order_by("id"))
    version = 0
    for move, index in steps:
        items = list(FeaturedMatch.objects.filter(tournament=event.tournament))
        changed = True
        if move == "add":
            free = [m for m in matches if m.pk not in {f.match_id for f in items}]
            if not free:
                continue
            services.add_to_queue(event.tournament, free[index % len(free)], None)
        elif not items:
            continue
        else:
            item = items[index % len(items)]
            if move == "remove":
                services.remove_from_queue(item)
                changed = len(items) > 1
            elif move == "finish":
                FeaturedMatch.objects.filter(pk=item.pk).update(state="finished")
                services.move_in_queue(item, "up")  # any change settles the queue again
            else:
                try:
                    services.move_in_queue(item, move)
                except Refused:
                    assert move == "on_air" and item.state == "finished"
                    continue
        items = list(FeaturedMatch.objects.filter(tournament=event.tournament))
        assert [f.position for f in items] == list(range(1, len(items) + 1))
        open_ = [f for f in items if f.state != "finished"]
        assert [f.state for f in open_] == ["live", *["queued"] * (len(open_) - 1)][: len(open_)]
        top = max((f.version for f in items), default=0)
        if changed:
            assert top > version
        version = top
