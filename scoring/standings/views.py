"""Public standings pages; the table refreshes itself with htmx while games are played."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.standings.selectors import stage_standings as select_stage_standings
from tournaments.models import Stage


def stage_standings(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    stage = get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament__slug=slug,
    )
    standings = select_stage_standings(stage)
    template = "scoring/_standings_table.html" if request.htmx else "scoring/stage_standings.html"
    return render(
        request, template, {"standings": standings, "tournament": stage.category.tournament}
    )
