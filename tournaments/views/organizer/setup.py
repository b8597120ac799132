"""Creating a tournament and its dashboard."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext

from scoring.progression.selectors import next_stage_drifts
from tournaments.forms import TournamentForm
from tournaments.models import Category, Stage, Tournament
from tournaments.setup_actions import NOTHING_YET, create_tournament, edit_tournament
from tournaments.staff_actions import delete_tournament
from tournaments.views.access import refuse
from tournaments.views.organizer.common import (
    TEMPLATES,
    checkin_summary,
    form_errors_from,
    organizer_page,
)
from tournaments.views.organizer.corrections import edit_page


@login_required
def create_tournament_view(request: HttpRequest) -> HttpResponse:
    """Whoever creates a tournament becomes its organizer (the step
    ``setup_actions.create_tournament``, which needs the site permission "may create
    tournaments", which a player does not have: the page says whom to ask)."""
    forbidden = create_tournament.forbidden(request.user, NOTHING_YET)
    if forbidden is not None:
        return refuse(request, forbidden.text)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = create_tournament(request.user, NOTHING_YET, **form.cleaned_data)
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            messages.success(
                request,
                gettext("%(name)s is created; add its categories next.")
                % {"name": tournament.name},
            )
            return redirect("tournaments:manage", tournament.slug)
    return render(request, f"{TEMPLATES}/tournament_create.html", {"form": form})


@organizer_page
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Categories with their entries and stages, links to every organizer page, and a warning
    where a next stage no longer matches the standings it was seeded from (a closed result
    changed since)."""
    boards = tournament.boards.aggregate(
        total=Count("id"), in_service=Count("id", filter=Q(in_service=True))
    )
    return render(
        request,
        f"{TEMPLATES}/dashboard.html",
        {
            "tournament": tournament,
            "categories": _categories_with_counts(tournament),
            "player_count": tournament.players.count(),
            "boards": boards,
            "checkin": checkin_summary(tournament),
            "drifts": next_stage_drifts(stage__category__tournament=tournament),
        },
    )


def _categories_with_counts(tournament: Tournament) -> QuerySet[Category]:
    """Categories with their entry counts and their stages with match counts (two queries)."""
    stages = Stage.objects.annotate(match_count=Count("matches")).order_by("order")
    return (
        tournament.categories.annotate(
            entry_count=Count("entries", filter=Q(entries__withdrawn=False)),
            checked_in_count=Count(
                "entries", filter=Q(entries__checked_in=True, entries__withdrawn=False)
            ),
            withdrawn_count=Count("entries", filter=Q(entries__withdrawn=True)),
        )
        .prefetch_related(Prefetch("stages", queryset=stages))
        .order_by("name")
    )


@organizer_page
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Change the tournament's details; its web address stays (it is printed on cards). The page
    leads to deleting the tournament for its organizer, and says who may to a co-organizer."""
    form = TournamentForm(
        request.POST or None,
        initial={name: getattr(tournament, name) for name in TournamentForm.model_fields},
    )
    form.fields["slug"].disabled = True
    form.fields["slug"].help_text = gettext(
        "Printed on scorecards and shared links: it cannot change."
    )
    forbidden = delete_tournament.forbidden(request.user, tournament)
    delete_url = reverse("tournaments:manage-delete", args=[tournament.slug])
    return edit_page(
        request,
        tournament,
        form=form,
        title=tournament.name,
        save=lambda data: edit_tournament(request.user, tournament, **data),
        named=lambda saved: saved.name,
        done=reverse("tournaments:manage", args=[tournament.slug]),
        delete_url="" if forbidden else delete_url,
        delete_refused=forbidden.text if forbidden else "",
    )
