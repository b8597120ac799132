"""The audit page: who changed what in the tournament, when, and the values before and after."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.history import tournament_changes
from tournaments.models import Tournament
from tournaments.views.organizer.common import TEMPLATES, organizer_page


@organizer_page
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's changes, newest first, from the history tables."""
    return render(
        request,
        f"{TEMPLATES}/audit.html",
        {"tournament": tournament, "changes": tournament_changes(tournament)},
    )
