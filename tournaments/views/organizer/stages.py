"""Stages: adding one to a category, drawing it, advancing its top entries to the next."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from scoring.progression.services import advance
from tournaments.forms import StageForm, StageRunForm, StageScheduleForm
from tournaments.models import Category, Stage, Tournament
from tournaments.services import registration
from tournaments.services.draws import draw_stage
from tournaments.services.schedule import schedule_stage
from tournaments.views.organizer.categories import category_page
from tournaments.views.organizer.common import error_text, form_errors_from, organizer_page

logger = logging.getLogger(__name__)


@require_POST
@organizer_page
def stage_create(request: HttpRequest, tournament: Tournament, category_id: int) -> HttpResponse:
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    form = StageForm(request.POST, next_order=registration.next_stage_order(category))
    if form.is_valid():
        try:
            stage = registration.add_stage(category=category, **form.stage_fields())
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            messages.success(request, f"Added the stage {stage.name}.")
            return redirect("tournaments:manage-category", tournament.slug, category.pk)
    return category_page(request, tournament, category, stage_form=form, status=400)


#: The options of ``StageRunForm`` each stage service takes.
DRAW_OPTIONS = ("method", "pool_count", "double", "third_place")


ADVANCE_OPTIONS = ("pool_count", "double", "third_place")


def _run_stage_service(
    request: HttpRequest, stage: Stage, service: Callable, accepted: tuple[str, ...], done: str
) -> None:
    """Run a draw or an advance with the options the organizer gave; a refusal becomes a
    message.

    A refusal keeps what the service saved on purpose before refusing (an advance blocked by a
    tie on the cut line creates the shoot-out stage that settles it); a database error undoes
    everything the call wrote.
    """
    form = StageRunForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[k].label}: {' '.join(v)}" for k, v in form.errors.items()
        )
        messages.error(request, f"{stage.name}: {problems}")
        return
    options = {k: v for k, v in form.options().items() if k in accepted}
    refusal: str | None = None
    try:
        with transaction.atomic():
            try:
                result = service(stage, **options)
            except ValidationError as exc:
                refusal = error_text(exc)
            except (ValueError, NotImplementedError) as exc:
                refusal = str(exc)
    except DatabaseError:
        logger.exception("stage service failed on stage %s", stage.pk)
        messages.error(
            request, f"{stage.name}: the database refused the change; nothing was saved."
        )
        return
    if refusal is not None:
        messages.error(request, f"{stage.name}: {refusal}")
    elif isinstance(result, Stage):
        messages.success(request, f"{stage.name}: {done}; next: {result.name}.")
    elif isinstance(result, list | tuple):
        messages.success(request, f"{stage.name}: {done} ({len(result)} matches).")
    else:
        messages.success(request, f"{stage.name}: {done}.")


def _stage_of(tournament: Tournament, stage_id: int) -> Stage:
    return get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament=tournament,
    )


@require_POST
@organizer_page
def stage_draw(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage_of(tournament, stage_id)
    _run_stage_service(request, stage, draw_stage, DRAW_OPTIONS, "drawn")
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


@require_POST
@organizer_page
def stage_schedule(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Give the drawn matches of the stage their start times, round by round."""
    stage = _stage_of(tournament, stage_id)
    form = StageScheduleForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[k].label}: {' '.join(v)}" for k, v in form.errors.items()
        )
        messages.error(request, f"{stage.name}: {problems}")
    else:
        data = form.cleaned_data
        try:
            timed = schedule_stage(
                stage,
                data["start"],
                data["minutes_per_game"],
                break_minutes=data["break_minutes"] or 0,
            )
        except ValueError as exc:
            messages.error(request, f"{stage.name}: {exc}")
        else:
            messages.success(request, f"{stage.name}: start times set ({len(timed)} matches).")
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


@require_POST
@organizer_page
def stage_advance(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage_of(tournament, stage_id)
    _run_stage_service(request, stage, advance, ADVANCE_OPTIONS, "entries advanced")
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)
