"""The phone's side of the calls: "Notify me on this phone" posts the browser's push subscription
here (``static/js/push.js``), and "Stop notifications" takes it back.

Both take the declared steps (``tournaments.call_actions``) as the user the private-link
middleware made of this browser, so only the entry's own private link or its player's login is
let through; anyone else is answered 403 with the step's words, in JSON for the script (which
shows them) and without a login page in between (a private link is no login).
"""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.actions import Action, Refused
from tournaments.call_actions import follow_calls, stop_calls
from tournaments.models import Entry


def _body(request: HttpRequest) -> dict:
    """The subscription as ``PushSubscription.toJSON()`` gives it, or as form fields."""
    if request.content_type == "application/json":
        try:
            found = json.loads(request.body or b"{}")
        except ValueError:
            return {}
        return found if isinstance(found, dict) else {}
    return request.POST.dict()


def _entry(slug: str, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("category__tournament"),
        pk=entry_id,
        category__tournament__slug=slug,
    )


def _take(request: HttpRequest, step: Action, entry: Entry, **inputs) -> JsonResponse | None:
    try:
        step(request.user, entry, **inputs)
    except Refused as refused:
        return JsonResponse({"detail": refused.text}, status=refused.status)
    return None


@require_POST
def follow(request: HttpRequest, slug: str, entry_id: int) -> JsonResponse:
    entry = _entry(slug, entry_id)
    body = _body(request)
    keys = body.get("keys") if isinstance(body.get("keys"), dict) else body
    refused = _take(
        request,
        follow_calls,
        entry,
        endpoint=str(body.get("endpoint") or ""),
        p256dh=str(keys.get("p256dh") or ""),
        auth=str(keys.get("auth") or ""),
        language=get_language() or "",
        user_agent=request.headers.get("User-Agent", ""),
    )
    if refused is not None:
        return refused
    return JsonResponse(
        {"detail": _("This phone now receives the calls of %(entry)s.") % {"entry": entry.name}}
    )


@require_POST
def stop(request: HttpRequest, slug: str, entry_id: int) -> JsonResponse:
    entry = _entry(slug, entry_id)
    body = _body(request)
    refused = _take(request, stop_calls, entry, endpoint=str(body.get("endpoint") or ""))
    if refused is not None:
        return refused
    return JsonResponse(
        {
            "detail": _("This phone no longer receives the calls of %(entry)s.")
            % {"entry": entry.name}
        }
    )
