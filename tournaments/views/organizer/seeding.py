"""The seed and pool editor of a stage: every active entry's seed in one table saved at once,
and, for a round robin played in pools, moving an entry to another pool while nothing of the
stage is played. Both are steps (``tournaments.draw_actions``: ``set_seeds``, ``move_to_pool``);
the page asks the pool move whether its forms apply and, if not, shows why."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from tournaments.actions import refusal_text
from tournaments.draw_actions import move_to_pool, set_seeds
from tournaments.models import Entry, Stage, Tournament
from tournaments.services import seeding
from tournaments.services.registration import is_drawn
from tournaments.views.organizer.common import TEMPLATES, organizer_page


def _stage_of(tournament: Tournament, stage_id: int) -> Stage:
    return get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament=tournament,
    )


@organizer_page
def stage_seeding(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """GET: the seeds table and the pools. POST ``action=seeds``: save every seed typed (an
    empty box clears a seed); ``action=move``: move ``entry`` to ``pool``."""
    stage = _stage_of(tournament, stage_id)
    if request.method == "POST" and request.POST.get("action") == "move":
        return _move(request, tournament, stage)
    rows = seeding.seed_table(stage.category)
    typed: dict[int, str] = {}
    error = ""
    if request.method == "POST":
        typed = {e.pk: request.POST.get(f"seed-{e.pk}", "").strip() for e in rows}
        seeds, problems = _parse_seeds(rows, typed)
        if problems:
            error = " ".join(problems)
        else:
            try:
                changed = set_seeds(request.user, stage.category, seeds=seeds)
            except ValidationError as exc:
                error = refusal_text(exc)
            else:
                messages.success(
                    request,
                    gettext("%(category)s: seeds saved (%(count)d changed).")
                    % {"category": stage.category.name, "count": len(changed)},
                )
                return redirect("tournaments:manage-stage-seeding", tournament.slug, stage.pk)
    lines = seeding.stage_pools(stage) if stage.kind == Stage.Kind.ROUND_ROBIN else []
    return render(
        request,
        f"{TEMPLATES}/stage_seeding.html",
        {
            "tournament": tournament,
            "stage": stage,
            "rows": [(e, typed.get(e.pk, "" if e.seed is None else str(e.seed))) for e in rows],
            "seed_error": error,
            "drawn": is_drawn(stage),
            "pools": lines,
            "filled": any(line.entries for line in lines),
            "pool_refusal": move_to_pool.refusal(request.user, stage),
        },
        status=400 if error else 200,
    )


def _parse_seeds(
    rows: list[Entry], typed: dict[int, str]
) -> tuple[dict[int, int | None], list[str]]:
    """The seeds typed, by entry; a box that is not a whole number from 1 is named."""
    seeds: dict[int, int | None] = {}
    problems = []
    for entry in rows:
        text = typed[entry.pk]
        if not text:
            seeds[entry.pk] = None
        elif text.isdigit() and int(text) >= 1:
            seeds[entry.pk] = int(text)
        else:
            problems.append(
                gettext("Seed of %(name)s (%(number)s): “%(text)s” is not a whole number from 1.")
                % {"name": entry.name, "number": entry.number, "text": text}
            )
    return seeds, problems


def _move(request: HttpRequest, tournament: Tournament, stage: Stage) -> HttpResponse:
    entry_id = request.POST.get("entry", "")
    entry = (
        Entry.objects.filter(pk=int(entry_id), category_id=stage.category_id).first()
        if entry_id.isdigit()
        else None
    )
    if entry is None:
        messages.error(
            request,
            gettext("Choose an entry of %(category)s to move.") % {"category": stage.category.name},
        )
    else:
        try:
            done = move_to_pool(request.user, stage, entry=entry, pool=request.POST.get("pool", ""))
        except ValidationError as exc:
            messages.error(request, f"{stage.name}: {refusal_text(exc)}")
        else:
            messages.success(request, done.describe())
    return redirect("tournaments:manage-stage-seeding", tournament.slug, stage.pk)
