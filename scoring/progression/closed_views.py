"""The closed-stage pages: a stage that has advanced, its results locked.

The closed-stage page tells the officials when the stage advanced and into which stage, lists
its games with their official results and the head referee's changes since; from it the head
referee opens a game to change its result (the change page shows first what the change would
mean for the next stage, then writes it on confirmation) and the organizers undo the advance
(a confirmation page first). Every write goes through ``scoring.progression.closed``, the same
services, words and permissions as the API.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.progression.actions import undo_advance as undo_step
from scoring.progression.closed import (
    CHANGE_WHO,
    UNDO_ROLES,
    closed_game,
    official_rounds,
    stage_closure,
)
from scoring.progression.closed_actions import change_closed_result_step as change_step
from scoring.progression.forms import ClosedChangeForm
from scoring.progression.selectors import closed_changes, stage_games
from tournaments.actions import refusal_text
from tournaments.models import Game, Stage, Tournament
from tournaments.selectors import next_stage
from tournaments.views.access import refuse, tournament_page

OFFICIALS = "tournaments.view_official_pages"


def _stage(tournament: Tournament, stage_id: int) -> Stage:
    return get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament=tournament,
    )


@tournament_page(
    OFFICIALS, gettext_lazy("The closed-stage page is for the tournament's officials.")
)
def closed_stage(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Whether the stage is closed, its games and results, the changes made since. Each game's
    link to change its result is the step's to offer (``closed_actions``): where the step
    refuses a user whose role allows it (they play in the game), its words stand instead."""
    stage = _stage(tournament, stage_id)
    games = stage_games(stage)
    user = request.user
    for played in games:
        played.game.match.stage = stage  # one stage object: its closure is read once
        played.game.change_refused = change_step.refusal(user, played.game)
    return render(
        request,
        "scoring/progression/closed_stage.html",
        {
            "tournament": tournament,
            "stage": stage,
            "closure": stage_closure(stage),
            "next": next_stage(stage),
            "games": games,
            # Whether the role may change a closed result here (each game says why not).
            "change_role": change_step.forbidden(user, tournament),
            "changes": closed_changes(stage=stage),
            # The undo step's refusal (None: its button is offered), in its own words.
            "undo_refused": undo_step.refusal(user, stage),
        },
    )


def _change_form(game: Game, data=None) -> ClosedChangeForm:
    return ClosedChangeForm(
        data,
        game=game,
        sides=tuple(e.name for e in game.match.entries),
        rounds=official_rounds(game),
        prefix="change",
    )


@tournament_page("scoring.change_closed_result", CHANGE_WHO)
def closed_change(
    request: HttpRequest, tournament: Tournament, stage_id: int, game_id: int
) -> HttpResponse:
    """GET: the game's rounds to change. POST ``action=preview``: what the change would mean
    for the next stage, with the button that confirms it; ``action=confirm``: write it."""
    stage = _stage(tournament, stage_id)
    try:
        game = closed_game(game_id, tournament_id=tournament.pk)
    except Game.DoesNotExist:
        raise Http404(_("No such game in this tournament.")) from None
    if game.match.stage_id != stage.pk:
        raise Http404(_("That game is not played in this stage."))
    forbidden = change_step.forbidden(request.user, game)
    if forbidden is not None:
        return refuse(request, forbidden.text, tournament)
    form = _change_form(game, request.POST if request.method == "POST" else None)
    context = {"tournament": tournament, "stage": stage, "game": game, "form": form}
    context |= {"closure": stage_closure(game.match.stage), "before": official_rounds(game)}
    if request.method != "POST":
        unmet = change_step.unmet(game)
        if unmet is not None:
            context["problems"] = [unmet.text]
        return render(request, "scoring/progression/closed_change.html", context)
    confirm = request.POST.get("action") == "confirm"
    if not form.is_valid():
        context["problems"] = form.messages()
        return render(request, "scoring/progression/closed_change.html", context, status=400)
    try:
        change = change_step(
            request.user,
            game,
            rounds=form.rounds(),
            reason=form.cleaned_data["reason"],
            initials=form.cleaned_data["initials"],
            preview=not confirm,
        )
    except PermissionDenied as exc:
        return refuse(request, refusal_text(exc), tournament)
    except ValidationError as exc:
        context["problems"] = [refusal_text(exc)]
        round_at_fault = getattr(exc, "round", None)
        if round_at_fault:
            form.bad_rounds.add(round_at_fault)
        return render(request, "scoring/progression/closed_change.html", context, status=400)
    if confirm:
        messages.success(
            request,
            _("Result changed: {match}, game {number}, and recorded. {impact}").format(
                match=game.match, number=game.number, impact=change.impact.text
            ),
        )
        return redirect("scoring:closed_stage", tournament.slug, stage.pk)
    context["preview"] = change
    return render(request, "scoring/progression/closed_change.html", context)


@tournament_page(
    "scoring.undo_advance",
    format_lazy(gettext_lazy("Only {roles} undo an advance."), roles=UNDO_ROLES),
)
def undo_advance_page(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """GET: what undoing the advance removes, with the button; POST: undo it."""
    stage = _stage(tournament, stage_id)
    found = stage_closure(stage)
    if request.method != "POST":
        return render(
            request,
            "scoring/progression/undo_advance.html",
            {"tournament": tournament, "stage": stage, "closure": found},
        )
    try:
        undone = undo_step(request.user, stage)
    except PermissionDenied as exc:
        return refuse(request, str(exc), tournament)
    except ValidationError as exc:
        messages.error(request, refusal_text(exc))
        return redirect("scoring:closed_stage", tournament.slug, stage.pk)
    messages.success(request, undone.message())
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)
