"""Tournament pages. Views stay thin: they read through selectors and render."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from scoring.standings.selectors import standings_blocks
from tournaments.live import index_signature
from tournaments.live_pages import poll
from tournaments.models import Tournament
from tournaments.selectors import landing_url, tournament_categories, tournament_index
from tournaments.services.first_run import needs_first_account


def home(request: HttpRequest) -> HttpResponse:
    """The front page (and ``/t/``): the tournaments live now, upcoming and past, searchable by
    name and place; each links to its own page, which is that tournament's home. On a site
    with no account yet it tells whoever runs the server how to create the first one."""
    query = request.GET.get("q", "")[:100]
    index = tournament_index(request.user, query=query)
    live_poll = poll(reverse("index-live"), index_signature(index), q=query)
    context = {"index": index, "live_poll": live_poll, "first_run": needs_first_account()}
    return render(request, "tournaments/home.html", context)


@login_required
def landing(request: HttpRequest) -> HttpResponse:
    """Where signing in leads: a player to their own page in their latest tournament, staff to
    the dashboard of the latest tournament they work at, anyone else to the front page."""
    return redirect(landing_url(request.user))


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
