"""The seeds-from-ratings page of a category: the entries ranked by rating and what the draw
would make of those seeds (each pool with its average rating, or the first round's pairings);
"Use these seeds" takes the step (``scoring.seeds.actions``) and lands on the seed editor, where
any seed can still be changed by hand."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from scoring.seeds import services
from scoring.seeds.actions import apply_seeds_from_ratings
from scoring.seeds.picture import pools_picture
from tournaments.actions import Refused, refusal_text
from tournaments.models import Category, Stage, Tournament
from tournaments.views.access import MANAGE, tournament_page

#: Only the organizers open it, refused in the words of the step it offers (the API's too).
seeds_page = tournament_page(MANAGE, apply_seeds_from_ratings.who)


def pool_count_of(text: str | None) -> tuple[int | None, str]:
    """The pool count asked for (None: the draw's default), or the words of what is wrong."""
    text = (text or "").strip()
    if not text:
        return None, ""
    if text.isdigit() and 1 <= int(text) <= services.MAX_POOLS:
        return int(text), ""
    return None, gettext("Pools: “%(text)s” is not a whole number from 1 to %(most)s.") % {
        "text": text,
        "most": services.MAX_POOLS,
    }


def stage_of(category: Category, text: str | None) -> Stage | None:
    """The category's stage named by id in the address or the form (its first by default)."""
    text = (text or "").strip()
    if text.isdigit():
        found = category.stages.filter(pk=int(text)).first()
        if found is not None:
            return found
    return services.first_stage(category)


@seeds_page
def seeds_from_ratings(
    request: HttpRequest, tournament: Tournament, category_id: int
) -> HttpResponse:
    """GET: the proposal (``?stage=`` a stage of the category, ``?pools=`` the round robin's
    number of pools). POST: use these seeds, then the seed editor of the stage."""
    category = get_object_or_404(
        Category.objects.select_related("tournament"), pk=category_id, tournament=tournament
    )
    data = request.POST if request.method == "POST" else request.GET
    stage = stage_of(category, data.get("stage"))
    pool_count, pool_error = pool_count_of(data.get("pools"))
    error = ""
    status = 200
    if request.method == "POST":
        try:
            changed = services.apply(category, request.user)
        except ValidationError as exc:
            error = refusal_text(exc)
            status = exc.status if isinstance(exc, Refused) else 400
        else:
            messages.success(
                request,
                gettext("%(category)s: seeds from ratings saved (%(count)d changed).")
                % {"category": category.name, "count": len(changed)},
            )
            if stage is None:
                return redirect("tournaments:manage-category", tournament.slug, category.pk)
            return redirect("tournaments:manage-stage-seeding", tournament.slug, stage.pk)
    proposal = services.proposal(category, stage, pool_count=pool_count)
    return render(
        request,
        "scoring/seeds/proposal.html",
        {
            "tournament": tournament,
            "category": category,
            "proposal": proposal,
            "picture": pools_picture(proposal.pools),
            "pool_error": pool_error,
            "error": error,
            "refusal": apply_seeds_from_ratings.refusal(request.user, category),
            "stages": list(category.stages.order_by("order", "id")),
        },
        status=status,
    )
