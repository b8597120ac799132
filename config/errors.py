"""Error pages that answer in the client's language: JSON under /api/, HTML elsewhere.

An API client that asks for ``/api/games/abc/`` (an id that is not a number, so no route matches)
would otherwise get Django's HTML page; it gets ``{"detail": …}`` like every other API refusal.

A database that does not answer (a PostgreSQL restarting, a lost connection) is not a bug of the
app: the answer is a 503 with ``Retry-After`` saying to try again in a moment, not the generic
500 (``server_error``).
"""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            {"detail": _("No API resource at %(path)s.") % {"path": request.path}}, status=404
        )
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": _("The request is malformed.")}, status=400)
    return defaults.bad_request(request, exception)


#: Seconds a client is asked to wait before trying again while the database does not answer: a
#: restarted PostgreSQL takes connections again within seconds.
DATABASE_RETRY_AFTER_S = 10

#: Words of a database error that is a bug of the app (a missing migration, a query that names
#: what does not exist), not a database that is unavailable for a moment.
_NOT_AN_OUTAGE = (
    "no such table",  # untranslated: the database's own words
    "no such column",  # untranslated: the database's own words
    "has no column named",  # untranslated: the database's own words
    "syntax error",  # untranslated: the database's own words
)


def is_database_outage(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached or cannot answer now (connection
    refused or lost, a server restarting, a lock not granted in time), so that trying again in a
    moment is the right advice. SQLite's "database is locked", after its 20 s wait, is one too."""
    if isinstance(exc, InterfaceError):
        return True
    if isinstance(exc, OperationalError):
        text = str(exc).lower()
        return not any(words in text for words in _NOT_AN_OUTAGE)
    return False


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: JSON under /api/, else a page drawn without the database (a
    template of its own, rendered with no request: no context processor, no session, no user)."""
    headers = {"Retry-After": str(DATABASE_RETRY_AFTER_S)}
    message = _("The database is not answering at the moment: try again in a moment.")
    if _is_api(request) or not request.accepts("text/html"):
        return JsonResponse({"detail": message}, status=503, headers=headers)
    page = loader.render_to_string("503.html", {"message": message})
    return HttpResponse(page, status=503, headers=headers)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a database outage gets :func:`database_unavailable`'s 503; anything else
    the plain 500 (JSON under /api/). Django calls it while handling the exception, which
    ``sys.exc_info()`` names, wherever it was raised (a view, a middleware, a template), and has
    logged it already."""
    if is_database_outage(sys.exc_info()[1]):
        return database_unavailable(request)
    if _is_api(request):
        return JsonResponse(
            {"detail": _("Something went wrong on the server; it has been logged.")}, status=500
        )
    return defaults.server_error(request)
