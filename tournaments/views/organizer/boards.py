"""The hall's boards: how many, and which are out of service."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.forms import BoardCountForm
from tournaments.models import Board, Tournament
from tournaments.services import registration
from tournaments.views.organizer.common import TEMPLATES, form_errors_from, organizer_page


@organizer_page
def boards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """How many boards the hall has, and which are out of service."""
    form = BoardCountForm(request.POST or None, initial={"count": tournament.boards.count()})
    if request.method == "POST" and form.is_valid():
        try:
            registration.set_board_count(tournament=tournament, count=form.cleaned_data["count"])
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            count = form.cleaned_data["count"]
            messages.success(
                request,
                ngettext("The hall has %(count)d board.", "The hall has %(count)d boards.", count)
                % {"count": count},
            )
            return redirect("tournaments:manage-boards", tournament.slug)
    return render(
        request,
        f"{TEMPLATES}/boards.html",
        {"tournament": tournament, "form": form, "boards": tournament.boards.order_by("number")},
        status=400 if form.errors else 200,
    )


@require_POST
@organizer_page
def board_service(request: HttpRequest, tournament: Tournament, board_id: int) -> HttpResponse:
    """Take a board out of service or back (with an optional note why)."""
    board = get_object_or_404(Board, pk=board_id, tournament=tournament)
    registration.set_board_in_service(
        board=board,
        in_service=request.POST.get("in_service") == "1",
        note=request.POST.get("note"),
    )
    if request.htmx:
        return render(
            request, f"{TEMPLATES}/_board_row.html", {"tournament": tournament, "board": board}
        )
    return redirect("tournaments:manage-boards", tournament.slug)
