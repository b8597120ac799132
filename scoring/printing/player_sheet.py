"""The one-page player sheet: an entry's private link as a QR code, and what to do with it."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.printing.render import render_pdf
from scoring.printing.views import _for_printers, _pdf, print_options
from tournaments.models import ENTRY_PEOPLE, Entry, Tournament
from tournaments.services.links import link_of


@require_GET
@_for_printers
def player_sheet_pdf(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    entry = (
        Entry.objects.filter(pk=entry_id, category__tournament=tournament)
        .select_related("category", *ENTRY_PEOPLE)
        .first()
    )
    if entry is None:
        raise Http404(_("No such entry in this tournament."))
    options = print_options(request, request.GET)
    link = link_of(entry)
    url = options.site + reverse("scoring:private_link", args=[tournament.slug, link.token])
    context = {
        "tournament": tournament,
        "entry": entry,
        "url": url,
        "title": _("%(tournament)s · player sheet of %(entry)s")
        % {"tournament": tournament.name, "entry": entry.name},
    }
    pdf = render_pdf("pdf/player_sheet.html", context, options)
    return _pdf(pdf, f"{tournament.slug}-player-{slugify(entry.name)}.pdf")
