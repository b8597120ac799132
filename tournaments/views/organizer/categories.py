"""A category's page: its entries (withdraw, reinstate, enter more) and its stages with the
draw and advance buttons; creating categories from the WCC presets or by hand.

Each stage's buttons are its steps' (``tournaments.draw_actions``,
``scoring.progression.actions``): the page asks each step whether it applies to the stage and
shows, where it offers no button, the step's own words why."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, Max, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from scoring.progression.actions import advance, draw_next_round, record_shootout
from scoring.progression.locks import closure
from scoring.progression.selectors import next_stage_drifts
from scoring.results.rules import unplayed_rule
from tournaments.actions import refusals
from tournaments.draw_actions import draw_stage, schedule_stage, swap_entries
from tournaments.entry_actions import enter_player
from tournaments.forms import CategoryForm, EnterPlayerForm, PresetCategoriesForm, StageForm
from tournaments.models import Category, Pool, Stage, Tournament
from tournaments.names import by_name
from tournaments.services import registration
from tournaments.services.categories import delete_category, update_category
from tournaments.views.organizer.common import (
    TEMPLATES,
    form_errors_from,
    organizer_page,
    tournament_entries,
)
from tournaments.views.organizer.corrections import delete_page, edit_page


@organizer_page
def category_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Categories from the WCC presets (several at once) or one set up by hand."""
    which = request.POST.get("form")
    preset_form = PresetCategoriesForm(request.POST if which == "presets" else None)
    manual_form = CategoryForm(request.POST if which == "manual" else None)
    if request.method == "POST":
        try:
            if which == "presets" and preset_form.is_valid():
                created = registration.create_categories_from_presets(
                    tournament=tournament, keys=preset_form.cleaned_data["presets"]
                )
                names = ", ".join(c.name for c in created)
                messages.success(request, gettext("Added %(names)s.") % {"names": names})
                return redirect("tournaments:manage", tournament.slug)
            if which == "manual" and manual_form.is_valid():
                category = registration.create_category(
                    tournament=tournament, **manual_form.cleaned_data
                )
                messages.success(request, gettext("Added %(names)s.") % {"names": category.name})
                return redirect("tournaments:manage-category", tournament.slug, category.pk)
        except ValidationError as exc:
            form_errors_from(preset_form if which == "presets" else manual_form, exc)
    return render(
        request,
        f"{TEMPLATES}/category_create.html",
        {"tournament": tournament, "preset_form": preset_form, "manual_form": manual_form},
    )


def category_page(
    request: HttpRequest,
    tournament: Tournament,
    category: Category,
    *,
    stage_form: StageForm | None = None,
    enter_form: EnterPlayerForm | None = None,
    status: int = 200,
) -> HttpResponse:
    stages = _stages_with_state(category)
    played = [s for s in stages if s.kind != Stage.Kind.SHOOTOUT]
    for stage in stages:
        # Each button of the row is a step's; where the step refuses, the row says why.
        stage.steps = refusals(request.user, stage, STAGE_ROW_STEPS)
        # A shoot-out stage offers "Record the shoot-out" (a referee's or the scoring table's
        # step) while a tie waits for it: its state alone, the organizer holding no such role.
        stage.shootout_refusal = (
            record_shootout.unmet(stage) if stage.kind == Stage.Kind.SHOOTOUT else None
        )
        # Which options the Advance takes: those of the kind of the stage it fills.
        following = next((s for s in played if s.order > stage.order), None)
        stage.next_kind = following.kind if following is not None else ""
        # Advanced: its results are closed (``scoring.progression.locks``), the closed-results
        # page undoes the advance.
        stage.closure = closure(stage) if stage.kind != Stage.Kind.SHOOTOUT else None
    return render(
        request,
        f"{TEMPLATES}/category.html",
        {
            "tournament": tournament,
            "category": category,
            "entries": by_name(tournament_entries(tournament).filter(category=category)),
            "stages": stages,
            # A next stage that no longer matches the standings it was seeded from.
            "drifts": next_stage_drifts(stage__category=category),
            "stage_form": stage_form
            or StageForm(
                next_order=registration.next_stage_order(category), bye=unplayed_rule(category)
            ),
            "enter_form": enter_form
            or (
                EnterPlayerForm(category=category)
                if category.kind == Category.Kind.SINGLES
                else None
            ),
        },
        status=status,
    )


#: The steps of a stage's row, by the names the template reads (``stage.steps.advance``).
STAGE_ROW_STEPS = (draw_stage, swap_entries, schedule_stage, advance, draw_next_round)


def _stages_with_state(category: Category) -> list[Stage]:
    """The category's stages in play order, with their match count and whether entries were
    seeded into their pools (by an advance or a draw), in one query."""
    seeded = Pool.entries.through.objects.filter(pool__stage=OuterRef("pk"))
    return list(
        category.stages.annotate(
            match_count=Count("matches"),
            rounds_drawn=Max("matches__round_of_play"),
            has_entries=Exists(seeded),
        ).order_by("order")
    )


@organizer_page
def category_detail(request: HttpRequest, tournament: Tournament, category_id: int) -> HttpResponse:
    """A category's entries (withdraw, reinstate, enter more) and its stages (add, draw)."""
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    return category_page(request, tournament, category)


@require_POST
@organizer_page
def category_enter_player(
    request: HttpRequest, tournament: Tournament, category_id: int
) -> HttpResponse:
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    form = EnterPlayerForm(request.POST, category=category)
    if form.is_valid():
        try:
            entry = enter_player(request.user, category, player=form.cleaned_data["player"])
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            messages.success(
                request,
                gettext("%(entry)s entered in %(category)s.")
                % {"entry": entry.name, "category": category.name},
            )
            return redirect("tournaments:manage-category", tournament.slug, category.pk)
    return category_page(request, tournament, category, enter_form=form, status=400)


@organizer_page
def category_edit(request: HttpRequest, tournament: Tournament, category_id: int) -> HttpResponse:
    """Rename a category or correct its settings (``categories.update_category`` says what can
    no longer change once entries or draws exist)."""
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    form = CategoryForm(
        request.POST or None,
        initial={name: getattr(category, name) for name in CategoryForm.model_fields},
    )
    return edit_page(
        request,
        tournament,
        form=form,
        title=category.name,
        save=lambda data: update_category(category=category, **data),
        named=lambda saved: saved.name,
        done=reverse("tournaments:manage-category", args=[tournament.slug, category.pk]),
        delete_url=reverse(
            "tournaments:manage-category-delete", args=[tournament.slug, category.pk]
        ),
    )


@organizer_page
def category_delete(request: HttpRequest, tournament: Tournament, category_id: int) -> HttpResponse:
    """Remove a category with its entries and stages while nothing in it is drawn."""
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    entries, stages = category.entries.count(), category.stages.count()
    return delete_page(
        request,
        tournament,
        title=category.name,
        goes_with_it=[
            line
            for count, line in (
                (
                    entries,
                    ngettext("its %(count)d entry", "its %(count)d entries", entries)
                    % {"count": entries},
                ),
                (
                    stages,
                    ngettext("its %(count)d stage", "its %(count)d stages", stages)
                    % {"count": stages},
                ),
            )
            if count
        ],
        delete=lambda: delete_category(category=category),
        done=reverse("tournaments:manage", args=[tournament.slug]),
        back=reverse("tournaments:manage-category", args=[tournament.slug, category.pk]),
    )
