"""The overlay's event stream (``/t/<slug>/overlay/events/``): the featured match on air as the
JSON feed says it, at once, then at every change, and again after a silence.

It is the round clock's stream (``tournaments.views.clock_events``) watching another number:
the same watcher thread per process reading, in one query, the versions of the tournaments
somebody follows (here the highest ``FeaturedMatch.version`` of each, which every change of a
queue or a live score moves), the same heartbeat, lifetime and ``retry``, the same counted
streams; its own cap per process (``BROADCAST_STREAMS_PER_PROCESS``), beyond which it answers
503 and the overlay polls the feed (``static/js/overlay.js``), as it does wherever
``EventSource`` fails.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from simulation.broadcast.selectors import live_state, on_air
from simulation.broadcast.services import stream_version
from simulation.models import FeaturedMatch
from tournaments.models import Tournament
from tournaments.views.clock_events import (
    HEARTBEAT_S,
    RETRY_MS,
    ClockWatcher,
    _version,
    busy_response,
    stream_response,
    stream_seconds,
)

#: Overlay streams one process serves at once by default (a few per event: the streaming PCs).
DEFAULT_STREAMS_PER_PROCESS = 8


def streams_per_process() -> int:
    return int(getattr(settings, "BROADCAST_STREAMS_PER_PROCESS", DEFAULT_STREAMS_PER_PROCESS))


@dataclass(frozen=True)
class Mark:
    """What the watcher holds per tournament: the one number that moves with its broadcast."""

    tournament_id: int
    version: int


class BroadcastWatcher(ClockWatcher):
    """The clock's watcher, reading the tournaments' broadcast versions instead of clocks."""

    def watch(self, tournament_id: int, first: Mark | None) -> bool:  # type: ignore[override]
        if self.open_streams >= streams_per_process():
            return False
        return super().watch(tournament_id, first)  # type: ignore[arg-type]

    def _fetch(self, ids: list[int]) -> dict[int, Mark]:  # type: ignore[override]
        with self.around_fetch():
            rows = (
                FeaturedMatch.objects.filter(tournament_id__in=ids)
                .values("tournament_id")
                .annotate(top=Max("version"))
            )
            return {row["tournament_id"]: Mark(row["tournament_id"], row["top"]) for row in rows}


#: The one overlay watcher of this process.
WATCHER = BroadcastWatcher()


def _event(tournament: Tournament) -> str:
    """One event: the feed's body, read now (the stream's own short read of the database)."""
    data = live_state(on_air(tournament), tournament)
    payload = json.dumps(data, ensure_ascii=False)
    return f"id: {data['version']}\ndata: {payload}\n\n"  # untranslated: the stream's format


def overlay_stream(
    tournament: Tournament, first: Mark, lifetime: float, watcher: BroadcastWatcher
) -> Iterator[str]:
    """How soon to reconnect, the state now, each change, heartbeats; ends after ``lifetime``."""
    begun = last_sent = time.monotonic()
    generation = watcher.generation
    yield f"retry: {RETRY_MS}\n\n"
    with watcher.around_fetch():
        text = _event(tournament)
    yield text
    seen = _version(first)  # type: ignore[arg-type]
    while True:
        now = time.monotonic()
        left = lifetime - (now - begun)
        if left <= 0 or watcher.generation != generation:
            return
        mark = watcher.wait(
            tournament.pk, seen, timeout=min(left, max(0.0, HEARTBEAT_S - (now - last_sent)))
        )
        if watcher.generation != generation:
            return
        if _version(mark) != seen or time.monotonic() - last_sent >= HEARTBEAT_S:
            seen = _version(mark)
            with watcher.around_fetch():
                text = _event(tournament)
            yield text
            last_sent = time.monotonic()


@never_cache
@require_GET
@transaction.non_atomic_requests
def events(request: HttpRequest, slug: str) -> HttpResponse:
    """The overlay's event stream (``text/event-stream``): public, like the overlay."""
    tournament = get_object_or_404(Tournament, slug=slug)
    first = Mark(tournament.pk, stream_version(tournament.pk))
    if not WATCHER.watch(tournament.pk, first):
        return busy_response(
            gettext("Too many screens follow the overlay here: it asks again by itself.")
        )
    return stream_response(
        WATCHER,  # type: ignore[arg-type]
        tournament.pk,
        overlay_stream(tournament, first, stream_seconds(), WATCHER),  # type: ignore[arg-type]
    )
