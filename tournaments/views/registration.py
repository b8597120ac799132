"""The public entry form's pages: the form, the applicant's page of their request (its secret
link), the partner's invitation, and the organizer's list of requests with the registry's
candidates, the decisions and each category's form settings.

The applicant's and the partner's pages are reached with the token they were sent, never with
a role, and show that one request only. The organizer's steps are the declared actions
(``tournaments.registration_actions``), as the API's are.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournaments.actions import Refused, refusal_text
from tournaments.models import Category, EntryRequest, Person, Tournament
from tournaments.registration_actions import (
    WHO,
    accept_request,
    refuse_request,
    set_registration,
    withdraw_request,
)
from tournaments.services import entry_requests
from tournaments.views.access import MANAGE, missing, refuse, tournament_page
from tournaments.views.organizer.common import form_errors_from
from tournaments.views.registration_forms import (
    EntryRequestForm,
    PartnerForm,
    RegistrationSettingsForm,
)

TEMPLATES = "tournaments/registration"
Status = EntryRequest.Status

#: The organizer's list: the same words as the API's refusal of its steps.
organizer_page = tournament_page(MANAGE, str(WHO))
public_page = tournament_page()


def site_of(request: HttpRequest) -> str:
    """The site's address, for the links of the e-mails a step sends."""
    return request.build_absolute_uri("/").rstrip("/")


# The public form --------------------------------------------------------------------------------


@public_page
def register(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The public form; a request taken leads to its own page (the thanks, and the link)."""
    open_categories = entry_requests.open_categories(tournament)
    form = EntryRequestForm(
        request.POST or None, tournament=tournament, open_categories=open_categories
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            fields = dict(form.cleaned_data)
            try:
                made = entry_requests.submit(user=request.user, site=site_of(request), **fields)
            except ValidationError as exc:
                form_errors_from(form, exc)
            else:
                messages.success(
                    request,
                    gettext(
                        "Thank you: your request is recorded. Keep this page's address: it is "
                        "your request's own page (it was sent to you by e-mail too)."
                    ),
                )
                return redirect(_status_path(made))
        status = 400
    closed = [
        (category, entry_requests.form_refusal(category))
        for category in tournament.categories.order_by("name")
        if category not in open_categories
    ]
    return render(
        request,
        f"{TEMPLATES}/form.html",
        {
            "tournament": tournament,
            "form": form,
            "open_categories": open_categories,
            "closed": closed,
            "doubles": any(c.kind == Category.Kind.DOUBLES for c in open_categories),
        },
        status=status,
    )


def _status_path(made: EntryRequest) -> str:
    return reverse(
        "registration:registration-status", args=[made.category.tournament.slug, made.token]
    )


def _request_by(lookup, tournament: Tournament, token: str) -> EntryRequest | None:
    found = lookup(token)
    if found is None or found.category.tournament_id != tournament.pk:
        return None
    return found


@public_page
def registration_status(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """The applicant's page of their request: its state, its place on the waitlist, the
    organizer's reason, and withdrawing (POST)."""
    found = _request_by(entry_requests.by_token, tournament, token)
    if found is None:
        return missing(
            request, gettext("This link opens no request: check the address."), tournament
        )
    error = ""
    if request.method == "POST":
        try:
            entry_requests.withdraw(request=found, site=site_of(request))
        except Refused as exc:
            error = exc.text
        else:
            messages.success(request, gettext("Your request is withdrawn."))
            return redirect(_status_path(found))
    found.refresh_from_db()
    return render(
        request,
        f"{TEMPLATES}/status.html",
        {
            "tournament": tournament,
            "entry_request": found,
            "position": entry_requests.waitlist_position(found),
            "may_withdraw": entry_requests.is_live(found) is None
            and entry_requests.not_drawn(found) is None,
            "drawn": entry_requests.not_drawn(found),
            "error": error,
        },
        status=409 if error else 200,
    )


@public_page
def registration_partner(request: HttpRequest, tournament: Tournament, token: str) -> HttpResponse:
    """The partner's invitation: confirm their details and accept, or decline."""
    found = _request_by(entry_requests.by_partner_token, tournament, token)
    if found is None:
        return missing(
            request, gettext("This link opens no invitation: check the address."), tournament
        )
    initial = {
        "first_name": found.partner_first_name,
        "last_name": found.partner_last_name,
        "id_number": found.partner_id_number,
    }
    form = PartnerForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        try:
            if request.POST.get("answer") == "decline":
                entry_requests.partner_decline(request=found, site=site_of(request))
                messages.success(request, gettext("You declined the invitation."))
                return redirect(request.path)
            if form.is_valid():
                entry_requests.partner_accept(
                    request=found, site=site_of(request), **form.cleaned_data
                )
                messages.success(
                    request,
                    gettext("Thank you: the request now goes to the organizer."),
                )
                return redirect(request.path)
        except ValidationError as exc:
            form_errors_from(form, exc)
        status = 400
    found.refresh_from_db()
    return render(
        request,
        f"{TEMPLATES}/partner.html",
        {"tournament": tournament, "entry_request": found, "form": form},
        status=status,
    )


# The organizer's list ---------------------------------------------------------------------------


def _rows(tournament: Tournament, user) -> list[dict]:
    rows = []
    for item in entry_requests.requests_of(tournament):
        found = entry_requests.candidates(item) if item.status in entry_requests.UNDECIDED else None
        rows.append(
            {
                "request": item,
                "candidates": found,
                "position": entry_requests.waitlist_position(item),
                "accept": accept_request.refusal(user, item),
                "refuse": refuse_request.refusal(user, item),
                "withdraw": withdraw_request.refusal(user, item),
            }
        )
    return rows


@organizer_page
def registrations(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every request, by category in order of arrival, with each category's form settings."""
    return _registrations_page(request, tournament)


def _registrations_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    settings_forms: dict[int, RegistrationSettingsForm] | None = None,
    status: int = 200,
) -> HttpResponse:
    rows = _rows(tournament, request.user)
    categories = []
    for category in tournament.categories.order_by("name"):
        form = (settings_forms or {}).get(category.pk) or RegistrationSettingsForm(
            initial={
                "registration_open": category.registration_open,
                "registration_deadline": category.registration_deadline,
                "capacity": category.capacity,
            },
            prefix=f"c{category.pk}",
        )
        categories.append(
            {
                "category": category,
                "settings": form,
                "refusal": entry_requests.form_refusal(category),
                "taken": entry_requests.places_taken(category),
                "rows": [r for r in rows if r["request"].category_id == category.pk],
            }
        )
    return render(
        request,
        f"{TEMPLATES}/organizer.html",
        {
            "tournament": tournament,
            "categories": categories,
            "waiting": entry_requests.waiting_for_organizer(tournament),
            "form_url": request.build_absolute_uri(
                reverse("registration:register", args=[tournament.slug])
            ),
        },
        status=status,
    )


def _back(tournament: Tournament) -> HttpResponse:
    return redirect(reverse("registration:registrations", args=[tournament.slug]))


def _take(request: HttpRequest, tournament: Tournament, step, obj, done: str, **inputs):
    """Take an organizer's step and come back to the list, saying what happened or why not."""
    try:
        step(request.user, obj, site=site_of(request), **inputs)
    except PermissionDenied as exc:
        return refuse(request, refusal_text(exc), tournament)
    except ValidationError as exc:
        messages.error(request, f"{obj}: {refusal_text(exc)}")
    else:
        messages.success(request, done)
    return _back(tournament)


def _person_choice(value: str) -> Person | object | None:
    """The radio's value: a person's id, ``new`` (a new person), or nothing (keep the match)."""
    if value == "new":
        return None
    if value.isdigit():
        found = Person.objects.filter(pk=int(value)).first()
        if found is not None:
            return found
    return entry_requests.KEEP


def _own_request(tournament: Tournament, request_id: int) -> EntryRequest:
    return get_object_or_404(
        EntryRequest.objects.select_related("category__tournament", "entry"),
        pk=request_id,
        category__tournament=tournament,
    )


@require_POST
@organizer_page
def registration_accept(request: HttpRequest, tournament: Tournament, request_id: int):
    found = _own_request(tournament, request_id)
    return _take(
        request,
        tournament,
        accept_request,
        found,
        gettext("%(request)s accepted and entered.") % {"request": found},
        person=_person_choice(request.POST.get("person", "")),
        partner_person=_person_choice(request.POST.get("partner_person", "")),
    )


@require_POST
@organizer_page
def registration_refuse(request: HttpRequest, tournament: Tournament, request_id: int):
    found = _own_request(tournament, request_id)
    reason = request.POST.get("reason", "")
    return _take(
        request,
        tournament,
        refuse_request,
        found,
        gettext("%(request)s refused.") % {"request": found},
        reason=reason,
    )


@require_POST
@organizer_page
def registration_withdraw(request: HttpRequest, tournament: Tournament, request_id: int):
    found = _own_request(tournament, request_id)
    return _take(
        request,
        tournament,
        withdraw_request,
        found,
        gettext("%(request)s withdrawn.") % {"request": found},
    )


@require_POST
@organizer_page
def registration_settings(request: HttpRequest, tournament: Tournament, category_id: int):
    category = get_object_or_404(tournament.categories, pk=category_id)
    form = RegistrationSettingsForm(request.POST, prefix=f"c{category.pk}")
    if form.is_valid():
        try:
            set_registration(request.user, category, site=site_of(request), **form.cleaned_data)
        except PermissionDenied as exc:
            return refuse(request, refusal_text(exc), tournament)
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            messages.success(
                request,
                gettext("The entry form of %(category)s is saved.") % {"category": category.name},
            )
            return _back(tournament)
    return _registrations_page(request, tournament, settings_forms={category.pk: form}, status=400)
