"""Public standings pages; they reload themselves when a result changes (``tournaments.live``)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.standings.selectors import live_standings
from tournaments.embedding import embed_snippet, embeddable
from tournaments.models import Stage
from tournaments.selectors import stage_for_page


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
    if not request.htmx:
        names = {"category": stage.category.name, "stage": stage.name}
        context["embed_what"] = _("the standings of %(category)s, %(stage)s") % names
        context["embed_snippet"] = embed_snippet(
            request,
            reverse("scoring:embed-standings", args=[slug, stage.id]),
            title=_("Standings: %(category)s, %(stage)s") % names,
            kind="standings",
        )
    return render(request, template, context)


@embeddable
def embed_standings(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    """The standings chart and table alone, for a club's site to frame; follows the results
    like the page it copies (``tournaments.live_pages``)."""
    stage = stage_for_page(slug, stage_id)
    if stage is None:
        message = _("There is no stage %(stage)s at this tournament.") % {"stage": stage_id}
        return render(request, "embed/missing.html", {"message": message}, status=404)
    standings = live_standings(stage, getattr(request, "live_version", None))
    context = {"standings": standings, "tournament": stage.category.tournament}
    return render(request, "scoring/embed_standings.html", context)
