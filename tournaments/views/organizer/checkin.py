"""Check-in and withdrawals: every entry with a toggle, narrowed as one types."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from scoring.rulings import actions as rulings
from tournaments.actions import Refused, refusal_text
from tournaments.entry_actions import check_in_entry, check_in_many
from tournaments.models import Entry, Tournament
from tournaments.names import by_name
from tournaments.services import forfeits, registration
from tournaments.views.access import safe_next
from tournaments.views.organizer.common import (
    TEMPLATES,
    checkin_summary,
    organizer_page,
    tournament_entries,
)


@organizer_page
def checkin(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every entry with a check-in toggle; the search box narrows the list as one types."""
    return _checkin_page(request, tournament)


def _checkin_page(
    request: HttpRequest, tournament: Tournament, *, numbers: str = "", error: str = ""
) -> HttpResponse:
    q = request.GET.get("q", "").strip()
    category_id = request.GET.get("category", "")
    entries = _search(tournament_entries(tournament), q)
    if category_id.isdigit():
        entries = entries.filter(category_id=int(category_id))
    context = {
        "tournament": tournament,
        "entries": by_name(entries),
        "q": q,
        "category_id": category_id,
        "categories": tournament.categories.order_by("name"),
        "checkin": checkin_summary(tournament),
        "back": request.get_full_path(),
        "with_summary": True,
        "numbers": numbers,
        "bulk_error": error,
    }
    if request.htmx and request.htmx.target == "checkin-rows":
        return render(request, f"{TEMPLATES}/_checkin_rows.html", context)
    return render(request, f"{TEMPLATES}/checkin.html", context, status=400 if error else 200)


@require_POST
@organizer_page
def bulk_checkin(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Check in everyone (``action=everyone``, optionally one ``category``) or the players whose
    ID numbers are typed in ``numbers``; an unknown number checks in nobody and the list comes
    back as typed, with the unknown numbers named."""
    category_id = request.POST.get("category", "")
    category = (
        get_object_or_404(tournament.categories, pk=int(category_id))
        if category_id.isdigit()
        else None
    )
    text = request.POST.get("numbers", "")
    try:
        if request.POST.get("action") == "everyone":
            done = check_in_many(request.user, tournament, category=category, everyone=True)
        else:
            numbers = registration.parse_numbers(text)
            done = check_in_many(request.user, tournament, category=category, numbers=numbers)
    except ValidationError as exc:
        return _checkin_page(request, tournament, numbers=text, error=refusal_text(exc))
    messages.success(request, _bulk_summary(done))
    if done.waiting:
        names = ", ".join(e.name for e in done.waiting)
        messages.warning(
            request, gettext("Waiting for a partner's number: %(names)s.") % {"names": names}
        )
    return redirect(
        safe_next(request, reverse("tournaments:manage-checkin", args=[tournament.slug]))
    )


def _bulk_summary(done: registration.BulkCheckIn) -> str:
    parts = [gettext("Checked in %(count)d") % {"count": len(done.checked_in)}]
    if done.already:
        parts.append(
            ngettext("%(count)d already was", "%(count)d already were", len(done.already))
            % {"count": len(done.already)}
        )
    if done.withdrawn:
        parts.append(gettext("%(count)d withdrawn left out") % {"count": len(done.withdrawn)})
    return "; ".join(parts) + "."


def _search(entries: QuerySet[Entry], q: str) -> QuerySet[Entry]:
    """Every word of ``q`` must match a name, an ID number, a club or the team name."""
    for word in q.split():
        match = (
            Q(player__first_name__icontains=word)
            | Q(player__last_name__icontains=word)
            | Q(player__club__icontains=word)
            | Q(team__name__icontains=word)
            | Q(team__player_one__first_name__icontains=word)
            | Q(team__player_one__last_name__icontains=word)
            | Q(team__player_two__first_name__icontains=word)
            | Q(team__player_two__last_name__icontains=word)
        )
        if word.isdigit():
            number = int(word)
            match |= (
                Q(player__number=number)
                | Q(team__player_one__number=number)
                | Q(team__player_two__number=number)
            )
        entries = entries.filter(match)
    return entries


def _entry_of(tournament: Tournament, entry_id: int) -> Entry:
    return get_object_or_404(tournament_entries(tournament), pk=entry_id)


def _entry_row(
    request: HttpRequest, tournament: Tournament, entry: Entry, error: str = ""
) -> HttpResponse:
    """The entry's table row for htmx; from the check-in page (``summary=1``), with the fresh
    count for the top of the page as an out-of-band swap.

    The count comes in the same response as the row, counted after this toggle was saved:
    a second request to refresh it could be answered before a later click's toggle, or
    after it, and leave the count behind.
    """
    with_summary = request.POST.get("summary") == "1"
    context = {
        "tournament": tournament,
        "entry": entry,
        "row_error": error,
        "back": safe_next(request, ""),
        "with_summary": with_summary,
    }
    if with_summary:
        context["checkin"] = checkin_summary(tournament)
    return render(request, f"{TEMPLATES}/_checkin_row_response.html", context)


@require_POST
@organizer_page
def entry_checkin(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Toggle an entry's check-in (the step ``check_in_entry``, which the row asks whether its
    toggle applies); an htmx request gets its table row back."""
    entry = _entry_of(tournament, entry_id)
    error = ""
    try:
        check_in_entry(request.user, entry, checked_in=request.POST.get("checked_in") == "1")
    except ValidationError as exc:
        error = refusal_text(exc)
    if request.htmx:
        return _entry_row(request, tournament, entry, error)
    if error:
        messages.error(request, error)
    return redirect(
        safe_next(request, reverse("tournaments:manage-checkin", args=[tournament.slug]))
    )


@require_POST
@organizer_page
def entry_withdraw(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Withdraw an entry (``withdrawn=1``) or reinstate it (``withdrawn=0``): the steps
    ``scoring.withdraw_entry`` and ``scoring.reinstate_entry``, which the row asks whether its
    button applies.

    After the draw a withdrawal turns the entry's games without a result into walkovers: it
    goes through the confirm step that lists them and takes the reason (the rulings page)."""
    entry = _entry_of(tournament, entry_id)
    withdrawn = request.POST.get("withdrawn", "1") == "1"
    default = reverse("tournaments:manage-category", args=[tournament.slug, entry.category_id])
    step = rulings.withdraw_entry if withdrawn else rulings.reinstate_entry
    refused = step.refusal(request.user, entry)
    if refused is None and withdrawn and forfeits.withdrawal_plan(entry).walkovers:
        confirm = reverse("scoring:rulings:entry", args=[tournament.slug, entry.id])
        confirm += "?" + urlencode({"next": safe_next(request, default)})
        if request.htmx:
            return HttpResponseClientRedirect(confirm)
        return redirect(confirm)
    error = refused.text if refused is not None else ""
    if refused is None:
        try:
            step(request.user, entry)
        except Refused as exc:
            error = exc.text
    entry.refresh_from_db()
    if request.htmx:
        return _entry_row(request, tournament, entry, error)
    if error:
        messages.error(request, error)
    else:
        text = gettext("%(name)s withdrawn.") if withdrawn else gettext("%(name)s reinstated.")
        messages.success(request, text % {"name": entry.name})
    return redirect(safe_next(request, default))
