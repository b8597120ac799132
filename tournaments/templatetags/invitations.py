"""``{% pending_invitations as count %}``: how many invitations wait for the signed-in account,
for the link in the site's bar (shown only when there are some)."""

from __future__ import annotations

from django import template

from tournaments.services.invitations import pending_for

register = template.Library()


@register.simple_tag(takes_context=True)
def pending_invitations(context: template.Context) -> int:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return pending_for(user).count()
