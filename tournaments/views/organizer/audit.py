"""The audit page: who changed what in the tournament, when, and the values before and after."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.progression.selectors import closed_changes
from scoring.progression.shootout_history import shootout_changes
from tournaments.history import tournament_changes
from tournaments.models import Tournament
from tournaments.views.organizer.common import TEMPLATES, organizer_page


@organizer_page
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's changes, newest first, from the history tables; the changes of closed
    results and the shoot-outs recorded, read here (a page composes the apps' reads), not by
    template tags querying while the page renders."""
    context = {
        "tournament": tournament,
        "changes": tournament_changes(tournament),
        "closed_changes": closed_changes(stage__category__tournament=tournament),
        "shootout_changes": shootout_changes(tournament),
    }
    return render(request, f"{TEMPLATES}/audit.html", context)
