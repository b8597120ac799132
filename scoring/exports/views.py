"""The export download on a tournament's organizer pages, the tables' downloads (CSV and XLSX)
and the import page.

The downloads are the organizers' (the export holds the private links' tokens and the
usernames its records name, never a name or an e-mail address; the tables list the players'
clubs and countries): each is let in by the same check,
``organizer_page``. Importing creates a tournament, so it needs what creating one needs, the site
permission ``tournaments.add_tournament``. Each calls one service, as the management commands do.
"""

from __future__ import annotations

import io

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring.exports.files import table_csv, tables_xlsx
from scoring.exports.forms import ImportForm
from scoring.exports.services import (
    ImportFileError,
    SlugTakenError,
    export_filename,
    export_tournament,
    import_tournament,
)
from scoring.exports.tables import TABLES, tournament_tables
from tournaments.models import Tournament
from tournaments.permissions import ADD_TOURNAMENT, ADD_TOURNAMENT_REFUSAL
from tournaments.views.access import missing, refuse
from tournaments.views.organizer.common import organizer_page


@transaction.non_atomic_requests  # the export reads in one snapshot of its own
@organizer_page
def export_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The whole tournament as one file, to keep as a backup or import elsewhere."""
    out = io.StringIO()
    export_tournament(tournament, out)
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="application/jsonl")
    filename = export_filename(tournament)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'  # untranslated: HTTP
    return response


def _attachment(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'  # untranslated: HTTP
    return response


@organizer_page
def table_download(request: HttpRequest, tournament: Tournament, table: str) -> HttpResponse:
    """One table as CSV, for a spreadsheet or a federation's results file; a name that is not a
    table is the site's 404 page."""
    build = TABLES.get(table)
    if build is None:
        names = ", ".join(TABLES)
        return missing(
            request,
            _("There is no table “{table}”; the tables are {names}.").format(
                table=table, names=names
            ),
            tournament,
        )
    return _attachment(
        table_csv(build(tournament)),
        "text/csv; charset=utf-8",  # untranslated: a media type
        f"{tournament.slug}-{table}.csv",
    )


@organizer_page
def tables_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every table in one workbook, a sheet each."""
    return _attachment(
        tables_xlsx(tournament_tables(tournament)),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        f"{tournament.slug}.xlsx",
    )


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
                _(
                    "A tournament with the web address “{slug}” exists already: import this "
                    "one under another, for example “{suggestion}”."
                ).format(slug=exc.slug, suggestion=exc.suggestion),
            )
        except ImportFileError as exc:
            form.add_error(
                "file", _("Nothing was imported. {problem}").format(problem=exc.messages[0])
            )
        else:
            messages.success(request, result.summary())
            return redirect("tournaments:manage", result.tournament.slug)
    return render(
        request, "scoring/exports/import.html", {"form": form}, status=400 if form.errors else 200
    )
