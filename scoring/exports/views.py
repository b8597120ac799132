"""The export download on a tournament's organizer pages and the import page.

The download is the organizers' (it holds the private links' tokens and the staff's emails);
importing creates a tournament, so it needs what creating one needs, the site permission
``tournaments.add_tournament``. Both call the one service, as the management commands do.
"""

from __future__ import annotations

import io

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from scoring.exports.forms import ImportForm
from scoring.exports.services import (
    ImportFileError,
    SlugTakenError,
    export_filename,
    export_tournament,
    import_tournament,
)
from tournaments.models import Tournament
from tournaments.permissions import ADD_TOURNAMENT, ADD_TOURNAMENT_REFUSAL
from tournaments.views.access import refuse
from tournaments.views.organizer.common import organizer_page


@transaction.non_atomic_requests  # the export reads in one snapshot of its own
@organizer_page
def export_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The whole tournament as one file, to keep as a backup or import elsewhere."""
    out = io.StringIO()
    export_tournament(tournament, out)
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="application/jsonl")
    response["Content-Disposition"] = f'attachment; filename="{export_filename(tournament)}"'
    return response


@login_required
def import_upload(request: HttpRequest) -> HttpResponse:
    """Upload an export file; the tournament is created from it, or the page says what in the
    file is wrong (and where) and nothing is created."""
    if not request.user.has_perm(ADD_TOURNAMENT):
        return refuse(request, ADD_TOURNAMENT_REFUSAL)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            result = import_tournament(
                form.cleaned_data["file"].read(),
                slug=form.cleaned_data["slug"] or None,
                user=request.user,
            )
        except PermissionDenied as exc:
            return refuse(request, str(exc))
        except SlugTakenError as exc:
            form.add_error(
                "slug",
                f"A tournament with the web address “{exc.slug}” exists already: import this "
                f"one under another, for example “{exc.suggestion}”.",
            )
        except ImportFileError as exc:
            form.add_error("file", f"Nothing was imported. {exc.messages[0]}")
        else:
            messages.success(request, result.summary())
            return redirect("tournaments:manage", result.tournament.slug)
    return render(
        request, "scoring/exports/import.html", {"form": form}, status=400 if form.errors else 200
    )
