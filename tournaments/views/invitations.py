"""The invitee's page: the invitations addressed to the signed-in account, to accept or decline.

Accepting is the account owner's own act, signed in: the one way, besides their private link,
that an existing account comes to hold a role or act for a player (``services.invitations``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from tournaments.actions import refusal_text
from tournaments.services import invitations


@never_cache
@login_required
def invitations_view(request: HttpRequest) -> HttpResponse:
    """GET lists the pending invitations; POST accepts or declines one and comes back here."""
    if request.method == "POST":
        action = request.POST.get("action", "")
        chosen = request.POST.get("invitation")
        try:
            if action == "accept":
                invitation = invitations.accept(invitation_id=chosen, user=request.user)
                messages.success(
                    request,
                    gettext("Accepted: %(what)s at %(tournament)s.")
                    % {"what": _what(invitation), "tournament": invitation.tournament.name},
                )
            elif action == "decline":
                invitation = invitations.decline(invitation_id=chosen, user=request.user)
                messages.success(
                    request,
                    gettext("Declined: %(what)s at %(tournament)s.")
                    % {"what": _what(invitation), "tournament": invitation.tournament.name},
                )
            else:
                messages.error(request, gettext("Unknown answer; nothing was done."))
        except ValidationError as exc:
            messages.error(request, refusal_text(exc))
        return redirect("invitations")
    return render(
        request,
        "tournaments/invitations.html",
        {"invitations": invitations.pending_for(request.user)},
    )


def _what(invitation) -> str:
    if invitation.kind == invitation.Kind.ROLE:
        return invitation.get_role_display()
    return gettext("player %(player)s (%(number)s)") % {
        "player": invitation.player,
        "number": invitation.player.number,
    }
