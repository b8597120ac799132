"""An entry's private link on the organizer pages: show it (with its QR code), print the player
sheet, renew it (the old link stops working at once)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Entry, Tournament
from tournaments.services.links import link_of, renew_link
from tournaments.views.organizer.common import TEMPLATES, organizer_page, tournament_entries


def _entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = tournament_entries(tournament).filter(pk=entry_id).first()
    if entry is None:
        raise Http404(gettext("No such entry in this tournament."))
    return entry


def private_link_url(request: HttpRequest, tournament: Tournament, token: str) -> str:
    return request.build_absolute_uri(
        reverse("scoring:private_link", args=[tournament.slug, token])
    )


@require_GET
@organizer_page
def entry_link(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    link = link_of(entry)
    context = {
        "tournament": tournament,
        "entry": entry,
        "link": link,
        "url": private_link_url(request, tournament, link.token),
    }
    return render(request, f"{TEMPLATES}/entry_link.html", context)


@require_POST
@organizer_page
def entry_link_renew(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = _entry(tournament, entry_id)
    renew_link(entry)
    messages.success(
        request,
        gettext(
            "New private link for %(name)s: the old one no longer opens anything. Print the "
            "new player sheet (cards printed before show the old QR code)."
        )
        % {"name": entry.name},
    )
    return redirect("tournaments:manage-entry-link", tournament.slug, entry.id)
