"""Which pages follow the live version, and what they are drawn with.

The middleware reads a public page's version before its view runs (a result that lands while
the page is being drawn then makes it reload once more, never leaves it stale), and the context
processor hands ``live_poll`` (the poll's address and period) to ``base.html``, which adds the
hidden poller. The front page passes its own ``live_poll`` from its view.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.http import urlencode

from tournaments import live
from tournaments.views.live import POLL_SECONDS

#: The public pages of a tournament that reload themselves on a new version. The hall screens
#: (``now``, ``round_now``) refresh their own content on a timer; ``screen`` asks for the
#: version itself and fetches its panels again between two pages (``static/js/screen.js``); pages
#: with a form to fill (the player lookup, a player's cards) are not reloaded under the hand
#: that fills it.
LIVE_VIEWS = frozenset(
    {
        "tournaments:detail",
        "tournaments:player",
        "tournaments:schedule",
        "tournaments:round",
        "tournaments:bracket",
        "tournaments:pools",
        "scoring:standings",
        "odds:stage",
        # The same pages framed on a club's site (tournaments.embedding).
        "tournaments:embed-bracket",
        "tournaments:embed-schedule",
        "scoring:embed-standings",
    }
)


def poll(url: str, seen: str, **params: str) -> dict[str, Any]:
    """What ``base.html`` needs to poll ``url`` for a version other than ``seen``."""
    query = urlencode({**{k: v for k, v in params.items() if v}, "seen": seen})
    return {"url": f"{url}?{query}", "every": POLL_SECONDS}


class LivePagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> None:
        match = request.resolver_match
        if request.method != "GET" or match is None or match.view_name not in LIVE_VIEWS:
            return None
        if getattr(request, "htmx", False):
            return None  # a fragment swapped into a page that polls already
        slug = kwargs.get("slug")
        current = live.version(slug) if slug else None
        if current is not None:
            request.live_version = current
            url = reverse("tournaments:live", args=[slug])
            request.live_poll = poll(url, str(current))
        return None


def live_poll(request: HttpRequest) -> dict[str, Any]:
    return {"live_poll": getattr(request, "live_poll", None)}
