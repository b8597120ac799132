"""The shoot-out page: where a referee or the scoring table records a tie's shoot-out.

Reached from the organizer's cut-line message and from the standings wherever a shoot-out is
required. It lists the groups still tied, takes each entry's 20s, records them through the
step ``scoring.progression.actions.record_shootout`` (the same step as the API) and shows the
result; a group still tied after it is listed again for the next shoot-out ("If still tied,
repeat Shoot-out from the beginning"). Once nothing is waiting, advancing the stage works.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from scoring.progression.actions import record_shootout
from scoring.progression.forms import ShootoutForm
from scoring.progression.selectors import shootout_sheet
from tournaments.actions import Forbidden, Refused
from tournaments.models import Stage, Tournament
from tournaments.views.access import refuse, tournament_page


@tournament_page(record_shootout.permission, record_shootout.who)
def shootout(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament=tournament,
    )
    try:
        sheet = shootout_sheet(stage)
    except Refused as exc:  # a shoot-out stage with no stage before it
        messages.error(request, exc.text)
        return redirect("scoring:standings", tournament.slug, stage.id)
    forms = [ShootoutForm(sheet=sheet, tie=tie) for tie in sheet.waiting]
    status = 200
    if request.method == "POST":
        # Each group's form is prefixed with its key: the one posted names its tie.
        tie = next((t for t in sheet.waiting if f"g{t.key}-group" in request.POST), None)
        if tie is None:
            messages.error(
                request,
                _(
                    "That tie is no longer waiting for a shoot-out (it was settled or the results "
                    "changed); nothing was recorded."
                ),
            )
            return redirect("scoring:shootout", tournament.slug, stage.id)
        form = ShootoutForm(request.POST, sheet=sheet, tie=tie)
        if form.is_valid():
            try:
                record_shootout(request.user, sheet.source, twenties=form.twenties())
            except Forbidden as exc:  # one who shoots in it records none of it
                return refuse(request, exc.text, tournament)
            except ValidationError as exc:
                form.add_error(None, " ".join(exc.messages))
            else:
                messages.success(request, _result_text(form))
                return redirect("scoring:shootout", tournament.slug, stage.id)
        forms = [form if t.key == tie.key else f for t, f in zip(sheet.waiting, forms, strict=True)]
        status = 400
    return render(
        request,
        "scoring/progression/shootout.html",
        {"tournament": tournament, "stage": stage, "sheet": sheet, "forms": forms},
        status=status,
    )


def _result_text(form: ShootoutForm) -> str:
    made = form.twenties()
    ranked = sorted(form.tie.entries, key=lambda e: -made[e.id])
    scores = ", ".join(f"{e.name} {made[e.id]}" for e in ranked)
    return _("Shoot-out recorded: {scores}.").format(scores=scores)
