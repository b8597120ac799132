"""Tournament pages. Views stay thin: they read through selectors and render."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.standings.selectors import standings_blocks
from tournaments.models import Tournament
from tournaments.selectors import featured_tournament, tournament_categories


def home(request: HttpRequest) -> HttpResponse:
    """The front page: the current tournament's standings, stage by stage."""
    tournament = featured_tournament()
    return _tournament_page(request, tournament, template="tournaments/home.html")


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return _tournament_page(request, tournament, template="tournaments/detail.html")


def _tournament_page(
    request: HttpRequest, tournament: Tournament | None, *, template: str
) -> HttpResponse:
    categories = list(tournament_categories(tournament)) if tournament else []
    standings = [
        standings
        for category in categories
        for stage in category.stages.all()
        for standings in standings_blocks(stage)
    ]
    return render(
        request,
        template,
        {"tournament": tournament, "categories": categories, "standings": standings},
    )
