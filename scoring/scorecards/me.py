"""The private link of an entry: ``/t/<slug>/me/<token>/``.

Opening it needs no account: the browser is remembered as the entry's player (see
``tournaments.private_links``) and lands on the list of the entry's scorecards, where it fills its
own rows and validates its opponents' rows. A logged-in user may link their account to the entry's
player from the same page ("this is me"), after which their login alone is enough.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.results.next_match import next_match
from scoring.scorecards import selectors as select
from scoring.scorecards.services import mark_seen
from scoring.scorecards.to_sign import RowWaiting, rows_waiting
from tournaments.calls_page import calls_panel
from tournaments.models import Entry, Tournament
from tournaments.private_links import forget, remember
from tournaments.services.links import claim_entry, entry_of_token, link_of
from tournaments.views.access import missing, safe_next, tournament_page

INVALID = gettext_lazy(
    "This private link is not valid: it may have been renewed by the organizer, or mistyped. "
    "Ask the organizer or the scoring table for your current link (it is printed on your "
    "player sheet, which is given to you alone)."
)


def _entry(request: HttpRequest, tournament: Tournament, token: str) -> Entry | None:
    return entry_of_token(tournament.id, token)


@require_GET
@tournament_page()
def open_link(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    entry = _entry(request, tournament, token)
    if entry is None:
        return missing(request, INVALID, tournament)
    remember(request, link_of(entry))
    players = list(entry.people)
    user = request.user
    linked_to_me = user.is_authenticated and any(p.user_id == user.pk for p in players)
    context = {
        "tournament": tournament,
        "entry": entry,
        "token": token,
        "cards": select.cards_of_entry(tournament, entry),
        "to_sign": _to_sign(request, tournament, entry),
        # What the entry plays next leads the page; its calls and "Notify me" follow it.
        "next_match": next_match(entry, now=timezone.now()),
        "panel": calls_panel(request.user, entry),
        "linked_to_me": linked_to_me,
        "may_claim": user.is_authenticated
        and not linked_to_me
        and any(p.user_id is None for p in players),
    }
    return render(request, "scoring/cards/me.html", context)


def _to_sign(request: HttpRequest, tournament: Tournament, entry: Entry) -> list[RowWaiting]:
    """The rows waiting for the entry's signature, with their rounds and one "Agree" each: the
    rows are in front of the opponent now, so from now on a change of one is a correction."""
    waiting = rows_waiting(request.user, tournament, [entry.id])
    mark_seen([item.row for item in waiting if item.signing is not None])
    return waiting


@require_POST
@tournament_page()
def claim(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """ "This is me": link the logged-in account to the entry's player."""
    entry = _entry(request, tournament, token)
    if entry is None:
        return missing(request, INVALID, tournament)
    try:
        player = claim_entry(entry=entry, user=request.user, token=token)
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            _("Your account is now linked to %(name)s (ID %(number)s).")
            % {"name": player.full_name, "number": player.number},
        )
    return redirect("scoring:private_link", tournament.slug, token)


@require_POST
@tournament_page()
def drop(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """This browser stops acting for one entry (the bar on every page offers it)."""
    entry = Entry.objects.filter(pk=entry_id, category__tournament=tournament).first()
    if entry is not None and forget(request, entry.pk):
        messages.success(
            request,
            _("This phone no longer acts for %(entry)s; their private link opens it again.")
            % {"entry": entry.name},
        )
    return redirect(safe_next(request, tournament.get_absolute_url()))
