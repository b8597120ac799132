"""The player list for check-in: every entry's private link as a QR code, on slips to cut apart.

Printing one player sheet per entry is a page per player; at check-in the desk hands each player
a slip instead, cut from a grid of them. A slip carries the name, ID number and category (a
player in two categories has two entries, hence two links) and the link itself under its QR code,
for a phone that cannot scan. The links are secret, so the list is printed by those who may print
the player sheet, with the same check.

Withdrawn entries get no slip: they no longer play, and their link is better left unprinted.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.printing.lookups import tournament_category
from scoring.printing.options import parse_category_id
from scoring.printing.render import render_pdf
from scoring.printing.views import _for_printers, _pdf, print_options
from tournaments.models import ENTRY_PEOPLE, Category, Entry, Tournament
from tournaments.names import entry_key
from tournaments.services.links import links_of

#: Slips across an A4 or Letter page; five rows of them fit a portrait page.
COLUMNS = 3


@dataclass(frozen=True)
class Slip:
    """One entry's slip: who it is for and the full address of their private link."""

    name: str
    number: str
    category: str
    url: str


@dataclass(frozen=True)
class PlayerList:
    tournament: Tournament
    category: Category | None
    slips: list[Slip]

    @property
    def rows(self) -> list[list[Slip]]:
        """The slips in rows of :data:`COLUMNS`, as the grid lays them out."""
        return [self.slips[i : i + COLUMNS] for i in range(0, len(self.slips), COLUMNS)]


def player_list(tournament: Tournament, category: Category | None, *, site: str) -> PlayerList:
    """The slips of the tournament's (or the category's) entries still playing, by category
    and then by last name, as the check-in desk sorts its pile (four queries: the entries, then
    their links, made here for entries that have none yet)."""
    entries = Entry.objects.filter(category__tournament=tournament, withdrawn=False)
    if category is not None:
        entries = entries.filter(category=category)
    found = list(entries.select_related("category", *ENTRY_PEOPLE).order_by("category__name", "id"))
    found.sort(key=lambda entry: (entry.category.name, entry_key(entry)))
    links = links_of(found)
    slips = [
        Slip(
            name=entry.name,
            number=entry.number,
            category=entry.category.name,
            url=site
            + reverse("scoring:private_link", args=[tournament.slug, links[entry.pk].token]),
        )
        for entry in found
    ]
    return PlayerList(tournament=tournament, category=category, slips=slips)


@require_GET
@_for_printers
def player_list_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every entry's name, ID number and private-link QR code, in a grid to cut apart;
    ``?category=<id>`` limits it to one category."""
    options = print_options(request, request.GET)
    category = tournament_category(tournament, parse_category_id(request.GET))
    listing = player_list(tournament, category, site=options.site)
    what = category.name if category is not None else _("all categories")
    context = {
        "listing": listing,
        "tournament": tournament,
        "title": _("%(tournament)s · %(what)s · player list with private links")
        % {"tournament": tournament.name, "what": what},
    }
    pdf = render_pdf("pdf/player_list.html", context, options)
    suffix = f"-{slugify(category.name)}" if category is not None else ""
    return _pdf(pdf, f"{tournament.slug}-players{suffix}.pdf")
