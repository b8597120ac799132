"""The calls' pages. The phone's side: "Notify me on this phone" posts the browser's push
subscription here (``static/js/push.js``), and "Stop notifications" takes it back.

Both take the declared steps (``tournaments.call_actions``) as the user the private-link
middleware made of this browser, so only the entry's own private link or its player's login is
let through; anyone else is answered 403 with the step's words, in JSON for the script (which
shows them) and without a login page in between (a private link is no login).

And the officials' "Call this round's boards", a button on a round's board list.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.actions import Action, Forbidden, Refused
from tournaments.call_actions import call_round, follow_calls, stop_calls
from tournaments.models import Entry, Stage
from tournaments.views.access import refuse


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


@require_POST
def call_round_view(
    request: HttpRequest, slug: str, stage_id: int, round_of_play: int
) -> HttpResponse:
    stage = get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament__slug=slug,
    )
    try:
        made = call_round(request.user, stage, round_of_play=round_of_play)
    except Forbidden as refused:
        return refuse(request, refused.text, stage.category.tournament)
    except Refused as refused:
        messages.error(request, refused.text)
    else:
        boards = len({call.board_number for call in made})
        messages.success(
            request,
            _("Called: %(calls)s calls to the players of %(boards)s boards.")
            % {"calls": len(made), "boards": boards},
        )
    return redirect(reverse("tournaments:round", args=[slug, stage_id, round_of_play]))
