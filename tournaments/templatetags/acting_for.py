"""``{% acting_for %}``: the bar that says whom this browser acts for through private links.

A phone may hold more than one entry's link (a parent with two junior players, a doubles
partner's phone): every page says which, and each can be dropped there, so nobody signs for an
entry they did not mean to. Browsers holding no link get nothing, at no cost.
"""

from __future__ import annotations

from django import template

from tournaments.models import ENTRY_PEOPLE, Entry
from tournaments.private_links import SESSION_KEY, linked_entry_ids

register = template.Library()


@register.inclusion_tag("tournaments/_acting_for.html", takes_context=True)
def acting_for(context: template.Context) -> dict:
    request = context.get("request")
    session = getattr(request, "session", None)
    if session is None or not session.get(SESSION_KEY):
        return {"entries": []}
    ids = linked_entry_ids(request.user)
    entries = (
        Entry.objects.filter(pk__in=ids)
        .select_related("category__tournament", *ENTRY_PEOPLE)
        .order_by("category__tournament__name", "id")
    )
    return {"entries": list(entries), "request": request, "csrf_token": context.get("csrf_token")}
