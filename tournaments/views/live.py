"""The poll behind self-updating public pages (see ``tournaments.live``).

A public page carries the version it was drawn with; every few seconds htmx asks here whether
it is still current. The answer is tiny and costs one indexed read; when the version moved on,
it carries ``HX-Refresh: true`` and the browser reloads the page, which keeps its scroll
position. Pages opened with JavaScript off never poll and work as before.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments import live
from tournaments.selectors import tournament_index

#: Seconds between two polls of an open page.
POLL_SECONDS = 5


def _answer(request: HttpRequest, current: str) -> JsonResponse:
    response = JsonResponse({"version": current})
    if request.GET.get("seen", current) != current:
        response["HX-Refresh"] = "true"
    return response


@require_GET
@never_cache
def tournament_version(request: HttpRequest, slug: str) -> JsonResponse:
    """``?seen=N``: the version the page was drawn with; answered with the current one."""
    current = live.version(slug)
    if current is None:
        raise Http404(gettext("No such tournament."))
    return _answer(request, str(current))


@require_GET
@never_cache
def index_version(request: HttpRequest) -> JsonResponse:
    """The front page's version, for the same list (``?q=``) as the page that asks."""
    index = tournament_index(request.user, query=request.GET.get("q", "")[:100])
    return _answer(request, live.index_signature(index))
