"""Public standings pages; they reload themselves when a result changes (``tournaments.live``)."""

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.standings.selectors import StageStandings
from scoring.standings.selectors import stage_standings as select_stage_standings
from tournaments.models import Stage

#: How long a stage's standings stay cached for one live version (a new result makes a new key;
#: this only bounds the memory of versions gone by).
STANDINGS_CACHE_SECONDS = 600


def live_standings(stage: Stage, version: int | None) -> StageStandings:
    """The stage's standings, computed once per live version of the tournament.

    Every open standings page reloads itself after each result (``tournaments.live``): with a
    hall of phones on a 400-player stage, each result would otherwise cost each of them the
    whole ranking (half a second of a core). The version changes with every result, so a
    cached ranking is never one result behind.
    """
    if version is None:
        return select_stage_standings(stage)
    key = f"standings:{stage.pk}:{version}"
    return cache.get_or_set(key, lambda: select_stage_standings(stage), STANDINGS_CACHE_SECONDS)


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
