"""``{% step_refusal "tournaments.check_in_entry" entry as refused %}``: why the signed-in user
may not take a declared step on an object now (``Action.refusal``), or None when they may.

For the rows a page repeats (a check-in toggle on every entry of a list), so that the template
shows the button or, in its place, the step's own words, and decides nothing itself.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.contrib.auth.models import AnonymousUser

# The tournament's steps the organizer rows ask, imported so that they are declared.
from tournaments import entry_actions, role_actions, setup_actions  # noqa: F401
from tournaments.actions import REGISTRY, Refused

register = template.Library()


@register.simple_tag(takes_context=True)
def step_refusal(context: template.Context, name: str, obj: Any) -> Refused | None:
    request = context.get("request")
    user = getattr(request, "user", None) or AnonymousUser()
    return REGISTRY[name].refusal(user, obj)
