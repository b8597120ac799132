"""Public standings pages; they reload themselves when a result changes (``tournaments.live``)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.standings.selectors import live_standings
from tournaments.models import Stage


def stage_standings(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    stage = get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament__slug=slug,
    )
    standings = live_standings(stage, getattr(request, "live_version", None))
    template = "scoring/_standings_table.html" if request.htmx else "scoring/stage_standings.html"
    context = {"standings": standings, "tournament": stage.category.tournament}
    if standings.shootouts_required:
        # Those who record shoot-outs get the way to the shoot-out page where one is required.
        context["may_record_shootout"] = request.user.has_perm("scoring.record_shootout", stage)
    return render(request, template, context)
