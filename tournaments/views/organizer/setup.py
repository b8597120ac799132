"""Creating a tournament and its dashboard."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from tournaments.forms import TournamentForm
from tournaments.models import Category, Stage, Tournament
from tournaments.services.setup import create_tournament
from tournaments.views.organizer.common import (
    TEMPLATES,
    checkin_summary,
    form_errors_from,
    organizer_page,
)


@login_required
def create_tournament_view(request: HttpRequest) -> HttpResponse:
    """Whoever creates a tournament becomes its organizer (``services.setup``)."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            tournament = create_tournament(
                name=data.pop("name"), slug=data.pop("slug"), user=request.user, **data
            )
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            messages.success(request, f"{tournament.name} is created; add its categories next.")
            return redirect("tournaments:manage", tournament.slug)
    return render(request, f"{TEMPLATES}/tournament_create.html", {"form": form})


@organizer_page
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Categories with their entries and stages, and links to every organizer page."""
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
