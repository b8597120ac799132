"""The registry's pages (/people/): the public list and search, one person's page (their details
for whoever may correct them, their players and events, their history), merging two people,
claiming one's own person ("This is me") and linking a tournament's player to their person.

Thin views: each write is a declared step (``tournaments.registry_actions``), whose refusal is
shown in its own words; the reads are ``tournaments.registry_selectors``.
"""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from tournaments import registry_actions as steps
from tournaments import registry_selectors as selectors
from tournaments.actions import Refused, refusal_text
from tournaments.models import Player
from tournaments.models.registry import Person
from tournaments.registry_forms import LinkForm, MergeForm, PersonForm, VisibilityForm
from tournaments.services import registry
from tournaments.views.access import refuse

TEMPLATES = "tournaments/registry"


def profile_url(person: Person) -> str:
    """The person's public profile page (the record's), or "" while that page is not there."""
    try:
        return reverse("person-profile", args=[person.pk])
    except NoReverseMatch:
        return ""


def _show_errors(form, exc: ValidationError) -> None:
    field = getattr(exc, "field", None)
    if field in form.fields:
        form.add_error(field, exc)
    elif hasattr(exc, "error_dict"):
        for name, errors in exc.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def registry_list(request: HttpRequest) -> HttpResponse:
    """Everyone in the registry, or those matching the search (accents and case ignored); the
    record keepers add a person here too."""
    form = None
    may_add = steps.add_person.allows(request.user, None)
    if may_add:
        form = PersonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                person = steps.add_person(request.user, None, **form.cleaned_data)
            except ValidationError as exc:
                _show_errors(form, exc)
            else:
                messages.success(
                    request, gettext("%(person)s added to the registry.") % {"person": person}
                )
                return redirect("registry-person", person.pk)
    elif request.method == "POST":
        return refuse(request, str(steps.add_person.who))
    q = request.GET.get("q", "").strip()
    found = list(selectors.search(q)[: selectors.PAGE_SIZE + 1])
    rows = [
        dataclasses.replace(row, profile_url=profile_url(row.person) if row.details else "")
        for row in selectors.public_rows(request.user, found[: selectors.PAGE_SIZE])
    ]
    return render(
        request,
        f"{TEMPLATES}/list.html",
        {
            "rows": rows,
            "q": q,
            "more": len(found) > selectors.PAGE_SIZE,
            "form": form,
            "may_merge": request.user.has_perm(steps.MANAGE_RECORD),
        },
        status=400 if form is not None and form.errors else 200,
    )


@never_cache
def person_page(request: HttpRequest, pk: int) -> HttpResponse:
    """One person: what the public may see of them, their players and events; their details to
    correct and what the public sees, for whoever may; "This is me" for their own player."""
    person = get_object_or_404(Person.objects.select_related("user", "merged_into"), pk=pk)
    if person.merged_into_id is not None:
        return redirect("registry-person", registry.kept(person).pk)
    user = request.user
    may_edit = steps.edit_person.allows(user, person)
    may_choose = steps.set_person_visibility.allows(user, person)
    form = PersonForm.of(person) if may_edit else None
    visibility = VisibilityForm(initial={"visibility": person.visibility}) if may_choose else None
    status = 200
    if request.method == "POST":
        what = request.POST.get("what", "")
        if what == "details":
            form = PersonForm(request.POST)
            refused = steps.edit_person.refusal(user, person)
            if refused is not None:
                return refuse(request, refused.text)
            if form.is_valid():
                try:
                    steps.edit_person(user, person, **form.cleaned_data)
                except ValidationError as exc:
                    _show_errors(form, exc)
                else:
                    messages.success(request, gettext("Saved."))
                    return redirect("registry-person", person.pk)
            status = 400
        elif what == "visibility":
            visibility = VisibilityForm(request.POST)
            refused = steps.set_person_visibility.refusal(user, person)
            if refused is not None:
                return refuse(request, refused.text)
            if visibility.is_valid():
                steps.set_person_visibility(user, person, **visibility.cleaned_data)
                messages.success(request, gettext("Saved: the public sees what you chose."))
                return redirect("registry-person", person.pk)
            status = 400
        elif what == "unlink":
            player = get_object_or_404(Player, pk=request.POST.get("player"), person=person)
            try:
                steps.unlink_person(user, player)
            except Refused as exc:
                return refuse(request, exc.text)
            messages.success(
                request,
                gettext("%(player)s of %(tournament)s is no longer linked to this person.")
                % {"player": player, "tournament": player.tournament.name},
            )
            return redirect("registry-person", person.pk)
        else:
            messages.error(request, gettext("Unknown request; nothing was done."))
            return redirect("registry-person", person.pk)
    players = selectors.players_of(person)
    details = selectors.shows_details(user, person)
    return render(
        request,
        f"{TEMPLATES}/person.html",
        {
            "person": person,
            "details": details,
            "profile_url": profile_url(person) if details else "",
            "players": players,
            "unlinkable": {p.pk for p in players if steps.unlink_person.allows(user, p)},
            "form": form,
            "visibility": visibility,
            "claim_refusal": steps.claim_person.refusal(user, person),
            "may_claim_someday": person.pk in selectors.own_person_ids(user),
            "may_merge": user.has_perm(steps.MANAGE_RECORD),
            "history": selectors.history_of(person) if (may_edit or may_choose) else [],
        },
        status=status,
    )


@never_cache
def merge_page(request: HttpRequest) -> HttpResponse:
    """Record keepers only: two people side by side (their players and events), then the merge
    once confirmed. The kept person's number stays; the duplicate's page leads to it."""
    if not request.user.has_perm(steps.MANAGE_RECORD):
        return refuse(request, str(steps.merge_people.who))
    data = request.POST if request.method == "POST" else (request.GET or None)
    form = MergeForm(data)
    sides = None
    problem = ""
    if form.is_bound and form.is_valid():
        keep, duplicate = form.cleaned_data["keep"], form.cleaned_data["duplicate"]
        problem = registry.merge_refusal(keep, duplicate) or ""
        if request.method == "POST" and request.POST.get("confirm") and not problem:
            try:
                kept = steps.merge_people(request.user, keep, duplicate=duplicate)
            except ValidationError as exc:
                problem = refusal_text(exc)
            else:
                messages.success(
                    request,
                    gettext("%(duplicate)s merged into %(keep)s.")
                    % {"duplicate": duplicate, "keep": kept},
                )
                return redirect("registry-person", kept.pk)
        sides = (selectors.merge_side(keep), selectors.merge_side(duplicate))
    return render(
        request,
        f"{TEMPLATES}/merge.html",
        {"form": form, "sides": sides, "problem": problem},
        status=400 if (form.is_bound and form.errors) else 200,
    )


@never_cache
def claim_page(request: HttpRequest, pk: int) -> HttpResponse:
    """ "This is me": the player (on their login, or their private link while logged in) claims
    their person; then chooses what the public sees."""
    person = get_object_or_404(Person, pk=pk)
    person = registry.kept(person)
    refused = steps.claim_person.refusal(request.user, person)
    if request.method == "POST" and refused is None:
        try:
            steps.claim_person(request.user, person)
        except ValidationError as exc:
            messages.error(request, refusal_text(exc))
        else:
            messages.success(
                request,
                gettext("Done: %(person)s is yours. Choose below what the public sees of you.")
                % {"person": person},
            )
            return redirect("registry-person", person.pk)
    return render(
        request,
        f"{TEMPLATES}/claim.html",
        {
            "person": person,
            "refused": refused,
            "players": selectors.players_of(person) if refused is None else [],
            "login_url": f"{reverse('login')}?next={request.path}",
        },
        status=403 if (refused is not None and request.method == "POST") else 200,
    )


@never_cache
def link_player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A tournament's organizers link one of its players to their person: the people the
    registry finds for the player, or a new person."""
    player = get_object_or_404(Player.objects.select_related("tournament", "person"), pk=pk)
    refused = steps.link_person.forbidden(request.user, player)
    if refused is not None:
        return refuse(request, refused.text)
    matches = registry.find_matches(
        first_name=player.first_name, last_name=player.last_name, club=player.club
    )
    form = LinkForm(request.POST or None, matches=matches)
    if request.method == "POST" and form.is_valid():
        try:
            steps.link_person(request.user, player, person=form.chosen())
        except ValidationError as exc:
            _show_errors(form, exc)
        else:
            messages.success(
                request,
                gettext("%(player)s is linked to %(person)s in the registry.")
                % {"player": player, "person": registry.describe(player.person)},
            )
            return redirect("tournaments:manage-players", player.tournament.slug)
    return render(
        request,
        f"{TEMPLATES}/link.html",
        {"player": player, "form": form, "matches": matches},
        status=400 if form.errors else 200,
    )
