"""Stages: adding one to a category, drawing it, advancing its top entries to the next.

Drawing, undoing a draw, swapping two entries, start times, advancing and the next Swiss round
are steps declared once (``tournaments.draw_actions``, ``scoring.progression.actions``): these
views take them and show their refusals as messages; the draw page asks them which of its forms
apply and, for the others, shows why not.
"""

from __future__ import annotations

import logging

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.progression.actions import advance, draw_next_round
from scoring.progression.locks import ShootoutPendingError
from scoring.progression.services import CutLineTieError
from scoring.results.rules import unplayed_rule
from tournaments.actions import Action, refusal_text, refusals
from tournaments.draw_actions import draw_stage, schedule_stage, swap_entries, undo_draw
from tournaments.forms import (
    NAMED_CHAINS,
    STAGE_FIELDS,
    StageForm,
    StageRunForm,
    StageScheduleForm,
)
from tournaments.models import Category, Stage, Tournament
from tournaments.names import by_name
from tournaments.services import registration
from tournaments.services.draws import NotCheckedInError, not_checked_in
from tournaments.views.organizer.categories import category_page
from tournaments.views.organizer.common import (
    TEMPLATES,
    form_errors_from,
    organizer_page,
    tournament_entries,
)
from tournaments.views.organizer.corrections import delete_page, edit_page

logger = logging.getLogger(__name__)


@require_POST
@organizer_page
def stage_create(request: HttpRequest, tournament: Tournament, category_id: int) -> HttpResponse:
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    form = StageForm(
        request.POST,
        next_order=registration.next_stage_order(category),
        bye=unplayed_rule(category),
    )
    if form.is_valid():
        try:
            stage = registration.add_stage(category=category, **form.stage_fields())
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            messages.success(request, gettext("Added the stage %(stage)s.") % {"stage": stage.name})
            return redirect("tournaments:manage-category", tournament.slug, category.pk)
    return category_page(request, tournament, category, stage_form=form, status=400)


#: The options of ``StageRunForm`` a draw takes (kept in the address when a draw waits for
#: check-in).
DRAW_OPTIONS = draw_stage.fields


def _take(request: HttpRequest, stage: Stage, step: Action, done: str) -> ValidationError | None:
    """Take a draw or an advance with the options the organizer gave (those the step takes);
    its refusal becomes a message, which is returned.

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
        return None
    options = {k: v for k, v in form.options().items() if k in step.fields}
    refused: ValidationError | None = None
    try:
        with transaction.atomic():
            try:
                result = step(request.user, stage, **options)
            except ValidationError as exc:  # the step's refusal (or a closed stage's lock)
                refused = exc
    except DatabaseError:
        logger.exception("stage step failed on stage %s", stage.pk)
        messages.error(
            request,
            gettext("%(stage)s: the database refused the change; nothing was saved.")
            % {"stage": stage.name},
        )
        return None
    if refused is not None:
        messages.error(request, f"{stage.name}: {refusal_text(refused)}")
    elif isinstance(result, Stage):
        messages.success(
            request,
            gettext("%(stage)s: %(done)s; next: %(next)s.")
            % {"stage": stage.name, "done": done, "next": result.name},
        )
    else:
        messages.success(
            request,
            gettext("%(stage)s: %(done)s (%(count)d matches).")
            % {"stage": stage.name, "done": done, "count": len(result)},
        )
    return refused


def _stage_of(tournament: Tournament, stage_id: int) -> Stage:
    return get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament=tournament,
    )


@organizer_page
def stage_draw(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """GET: the stage's draw page (before the draw: who is not checked in yet, with buttons to
    check them in or withdraw them; after it: swap two entries, undo). POST: draw; a draw
    refused because entries are not checked in comes back to that page with the options."""
    stage = _stage_of(tournament, stage_id)
    if request.method != "POST":
        return _draw_page(request, tournament, stage)
    refused = _take(request, stage, draw_stage, gettext("drawn"))
    if isinstance(refused, NotCheckedInError):
        options = {k: request.POST[k] for k in DRAW_OPTIONS if request.POST.get(k)}
        page = reverse("tournaments:manage-stage-draw", args=[tournament.slug, stage.pk])
        return redirect(f"{page}?{urlencode(options)}" if options else page)
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


def _draw_page(request: HttpRequest, tournament: Tournament, stage: Stage) -> HttpResponse:
    steps = refusals(request.user, stage, (draw_stage, swap_entries, undo_draw))
    # Drawn: the corrections (swap, undo); else the draw, or why not (a later stage takes its
    # entries from the Advance of the stage before, not from check-in).
    drawn = steps["swap_entries"] is None
    return render(
        request,
        f"{TEMPLATES}/stage_draw.html",
        {
            "tournament": tournament,
            "stage": stage,
            "drawn": drawn,
            "steps": steps,
            "missing": [] if steps["draw_stage"] else not_checked_in(stage.category),
            "options": {k: request.GET[k] for k in DRAW_OPTIONS if request.GET.get(k)},
            "entries": by_name(tournament_entries(tournament).filter(category_id=stage.category_id))
            if drawn
            else [],
            "back": request.get_full_path(),
        },
    )


@require_POST
@organizer_page
def stage_undo_draw(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Take back a draw with nothing played (an advance, when it is the next stage's draw)."""
    stage = _stage_of(tournament, stage_id)
    try:
        count = undo_draw(request.user, stage)
    except ValidationError as exc:
        messages.error(request, f"{stage.name}: {refusal_text(exc)}")
        return redirect("tournaments:manage-stage-draw", tournament.slug, stage.pk)
    messages.success(
        request,
        gettext("%(stage)s: draw undone (%(count)d matches removed).")
        % {"stage": stage.name, "count": count},
    )
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


@require_POST
@organizer_page
def stage_swap(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Exchange two entries of a drawn stage (or bring in one not drawn in place of another)."""
    stage = _stage_of(tournament, stage_id)
    entries = tournament_entries(tournament).filter(category_id=stage.category_id)
    ids = [request.POST.get("a", ""), request.POST.get("b", "")]
    if not all(i.isdigit() for i in ids):
        messages.error(request, gettext("Choose the two entries to swap."))
    else:
        found = {e.pk: e for e in entries.filter(pk__in=[int(i) for i in ids])}
        a, b = (found.get(int(i)) for i in ids)
        if a is None or b is None:
            messages.error(
                request,
                gettext("Choose two entries of %(category)s.") % {"category": stage.category.name},
            )
        else:
            try:
                count = swap_entries(request.user, stage, entry_a=a, entry_b=b)
            except ValidationError as exc:
                messages.error(request, f"{stage.name}: {refusal_text(exc)}")
            else:
                messages.success(
                    request,
                    gettext("%(stage)s: %(a)s and %(b)s swapped (%(count)d matches).")
                    % {"stage": stage.name, "a": a.name, "b": b.name, "count": count},
                )
    return redirect("tournaments:manage-stage-draw", tournament.slug, stage.pk)


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
        try:
            timed = schedule_stage(request.user, stage, **form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, f"{stage.name}: {refusal_text(exc)}")
        else:
            messages.success(
                request,
                gettext("%(stage)s: start times set (%(count)d matches).")
                % {"stage": stage.name, "count": len(timed)},
            )
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


@require_POST
@organizer_page
def stage_advance(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage_of(tournament, stage_id)
    refused = _take(request, stage, advance, gettext("entries advanced"))
    if isinstance(refused, CutLineTieError):
        _shootout_link(request, tournament, stage)
    elif isinstance(refused, ShootoutPendingError):
        _shootout_link(request, tournament, refused.source)
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


def _shootout_link(
    request: HttpRequest, tournament: Tournament, source: Stage, *, next_round: bool = False
) -> None:
    """A refusal for want of a shoot-out comes with the way to the page where it is recorded."""
    url = reverse("scoring:shootout", args=[tournament.slug, source.id])
    if next_round:
        words = gettext(
            '<a href="{url}">Record the shoot-out</a> (a referee or the scoring table), '
            "then draw the next round."
        )
    else:
        words = gettext(
            '<a href="{url}">Record the shoot-out</a> (a referee or the scoring table), '
            "then advance again."
        )
    messages.error(request, format_html(words, url=url))


@require_POST
@organizer_page
def stage_next_round(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Pair a Swiss stage's next round from the standings once the current round is played."""
    stage = _stage_of(tournament, stage_id)
    refused = _take(request, stage, draw_next_round, gettext("next round drawn"))
    if isinstance(refused, ShootoutPendingError):
        _shootout_link(request, tournament, refused.source, next_round=True)
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


@organizer_page
def stage_edit(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Correct a stage; once drawn, only its name, tiebreaks and how many advance."""
    stage = _stage_of(tournament, stage_id)
    initial = {name: getattr(stage, name) for name in STAGE_FIELDS}
    chain = list(stage.tiebreak_chain)
    named = next((k for k, v in NAMED_CHAINS.items() if list(v) == chain), None)
    initial["tiebreak"] = "default" if not chain else named or "custom"
    if chain and named is None:
        initial |= {f"step_{n}": step for n, step in enumerate(chain, start=1)}
    form = StageForm(
        request.POST or None,
        next_order=stage.order,
        initial=initial,
        bye=unplayed_rule(stage.category),
    )
    return edit_page(
        request,
        tournament,
        form=form,
        title=stage.name,
        save=lambda _data: registration.update_stage(stage=stage, **form.stage_fields()),
        named=lambda saved: saved.name,
        done=reverse("tournaments:manage-category", args=[tournament.slug, stage.category_id]),
        delete_url=reverse("tournaments:manage-stage-delete", args=[tournament.slug, stage.pk]),
    )


@organizer_page
def stage_delete(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Remove a stage that is not drawn (undo its draw first)."""
    stage = _stage_of(tournament, stage_id)
    category_page_url = reverse(
        "tournaments:manage-category", args=[tournament.slug, stage.category_id]
    )
    return delete_page(
        request,
        tournament,
        title=stage.name,
        goes_with_it=[],
        delete=lambda: registration.delete_stage(stage=stage),
        done=category_page_url,
        back=category_page_url,
    )
