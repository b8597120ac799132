"""Public pages of the record: a person's profile, a head-to-head, the leaderboards.

Thin: they read the choices from the query string (a wrong one is said in words, with a 400,
and the page still offers the right choices), ask ``scoring.record.profiles`` and draw. A merged
duplicate's old address moves on to the person it was merged into.
"""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.models.record import Discipline
from scoring.record import profiles
from tournaments.models import Person
from tournaments.svg.rating_chart import rating_chart_svg

#: The oldest and newest season a leaderboard can be asked for (a guard, not a rule).
FIRST_SEASON, LAST_SEASON = 1900, 2200


class ProfileQuery(forms.Form):
    """What a profile page or its API can be asked: a discipline."""

    discipline = forms.ChoiceField(
        choices=Discipline.choices, required=False, label=gettext_lazy("Discipline")
    )


class BoardQuery(forms.Form):
    """What the leaderboards can be asked: a discipline (singles by default) and a season (a
    year; every season when left out)."""

    discipline = forms.ChoiceField(
        choices=Discipline.choices, required=False, label=gettext_lazy("Discipline")
    )
    season = forms.IntegerField(
        required=False,
        min_value=FIRST_SEASON,
        max_value=LAST_SEASON,
        label=gettext_lazy("Season"),
    )


class SearchQuery(forms.Form):
    q = forms.CharField(max_length=200, required=False, label=gettext_lazy("Name"))


def _errors(form: forms.Form) -> list[str]:
    return [
        f"{form.fields[name].label}: {message}" if name in form.fields else str(message)
        for name, messages in form.errors.items()
        for message in messages
    ]


def _moved(request: HttpRequest, name: str, *args: int) -> HttpResponseRedirect:
    """The address of a merged person's page, on the person they were merged into."""
    url = reverse(name, args=args)
    query = request.GET.urlencode()
    return HttpResponseRedirect(f"{url}?{query}" if query else url, status=301)


def person_profile(request: HttpRequest, pk: int) -> HttpResponse:
    person = get_object_or_404(Person, pk=pk)
    if person.merged_into_id is not None:
        return _moved(request, "person-profile", profiles.surviving(person).pk)
    context: dict = {"person": person}
    if not profiles.may_see_profile(request.user, person):
        context["private"] = True
        return render(request, "scoring/record/profile.html", context)
    query = ProfileQuery(request.GET)
    status = 200
    discipline = None
    if query.is_valid():
        discipline = query.cleaned_data["discipline"] or None
    else:
        context["errors"] = _errors(query)
        status = 400
    data = profiles.profile(person, discipline)
    context.update(
        profile=data,
        own_eyes_only=not profiles.is_public(person),
        search=SearchQuery(),
        chart_wide=_chart(data, "wide"),
        chart_phone=_chart(data, "phone"),
    )
    return render(request, "scoring/record/profile.html", context, status=status)


def _chart(data: profiles.Profile, layout: str) -> str:
    title = _("Rating of %(name)s over time (%(discipline)s), with its ±") % {
        "name": data.person.full_name,
        "discipline": profiles.discipline_label(data.discipline),
    }
    svg = rating_chart_svg(
        data.rating_history, title=title, layout=layout, baseline=profiles.START_RATING
    )
    # Built by ElementTree, which escapes every text in it.
    return mark_safe(svg)


def head_to_head(request: HttpRequest, pk: int, other_pk: int) -> HttpResponse:
    person = get_object_or_404(Person, pk=pk)
    other = get_object_or_404(Person, pk=other_pk)
    if person.merged_into_id is not None or other.merged_into_id is not None:
        return _moved(
            request, "head-to-head", profiles.surviving(person).pk, profiles.surviving(other).pk
        )
    context: dict = {"person": person, "other": other}
    if person.pk == other.pk:
        context["errors"] = [_("A head-to-head needs two different people.")]
        return render(request, "scoring/record/head_to_head.html", context, status=400)
    hidden = [p for p in (person, other) if not profiles.may_see_profile(request.user, p)]
    if hidden:
        context["hidden"] = hidden
        return render(request, "scoring/record/head_to_head.html", context)
    context["h2h"] = profiles.head_to_head(person, other)
    return render(request, "scoring/record/head_to_head.html", context)


def head_to_head_pick(request: HttpRequest, pk: int) -> HttpResponse:
    """The other player of a head-to-head, found by name (accents and case ignored); htmx
    asks for the list alone as the name is typed."""
    person = get_object_or_404(Person, pk=pk)
    if person.merged_into_id is not None:
        return _moved(request, "head-to-head-pick", profiles.surviving(person).pk)
    search = SearchQuery(request.GET)
    found: list[Person] = []
    status = 200
    errors: list[str] = []
    if search.is_valid():
        found = profiles.find_people(search.cleaned_data["q"], exclude=person.pk)
    else:
        errors, status = _errors(search), 400
    context = {
        "person": person,
        "search": search,
        "found": found,
        "asked": bool(search.data.get("q", "").strip()),
        "errors": errors,
        "private": not profiles.may_see_profile(request.user, person),
    }
    template = (
        "scoring/record/_h2h_results.html"
        if getattr(request, "htmx", False)
        else "scoring/record/head_to_head_pick.html"
    )
    return render(request, template, context, status=status)


def leaderboards(request: HttpRequest) -> HttpResponse:
    query = BoardQuery(request.GET)
    context: dict = {"query": query}
    if not query.is_valid():
        context["errors"] = _errors(query)
        context["seasons"] = profiles.seasons(Discipline.SINGLES)
        return render(request, "scoring/record/leaderboards.html", context, status=400)
    discipline = query.cleaned_data["discipline"] or Discipline.SINGLES.value
    boards = profiles.leaderboards(discipline, query.cleaned_data["season"])
    context.update(boards=boards, seasons=boards.seasons, disciplines=Discipline.choices)
    return render(request, "scoring/record/leaderboards.html", context)
