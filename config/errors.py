"""Error pages that answer in the client's language: JSON under /api/, HTML elsewhere.

An API client that asks for ``/api/games/abc/`` (an id that is not a number, so no route matches)
would otherwise get Django's HTML page; it gets ``{"detail": …}`` like every other API refusal.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
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
