"""Registering players from a CSV file: upload, preview every row with its errors, confirm."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tournaments import csv_import
from tournaments.actions import refusal_text
from tournaments.forms import CsvConfirmForm, CsvUploadForm
from tournaments.models import Category, Tournament
from tournaments.services import registration
from tournaments.views.organizer.common import TEMPLATES, organizer_page


@organizer_page
def import_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a CSV file and see every row with its errors; nothing is written yet."""
    form = CsvUploadForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"tournament": tournament, "form": form, **_format_help(tournament)}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        try:
            preview = registration.import_preview(tournament=tournament, data=data)
        except csv_import.CsvFileError as exc:
            form.add_error("file", str(exc))
        else:
            return _preview_page(request, tournament, preview, data)
    return render(request, f"{TEMPLATES}/import.html", context, status=400 if form.errors else 200)


def _format_help(tournament: Tournament) -> dict[str, Any]:
    return {
        "columns": [
            (c, gettext(csv_import.COLUMN_HELP[c]), c in csv_import.REQUIRED)
            for c in csv_import.COLUMNS
        ],
        "example": _example_csv(tournament),
        "separator": csv_import.CATEGORY_SEPARATOR,
        "max_rows": csv_import.MAX_ROWS,
    }


def _preview_page(
    request: HttpRequest, tournament: Tournament, preview: csv_import.ImportPreview, data: bytes
) -> HttpResponse:
    confirm = CsvConfirmForm(
        initial={"data": registration.encode_upload(data), "fingerprint": preview.fingerprint}
    )
    plans = registration.registry_plan(tournament=tournament, preview=preview)
    rows = [(row, plans.get(row.line)) for row in preview.rows]
    return render(
        request,
        f"{TEMPLATES}/import_preview.html",
        {"tournament": tournament, "preview": preview, "confirm": confirm, "rows": rows},
    )


@require_POST
@organizer_page
def import_confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Import the valid rows of the previewed file (rows with errors are skipped)."""
    form = CsvConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, gettext("The confirmation lost the previewed file; upload it again.")
        )
        return redirect("tournaments:manage-import", tournament.slug)
    try:
        data = registration.decode_upload(form.cleaned_data["data"])
        result = registration.import_players(
            tournament=tournament, data=data, fingerprint=form.cleaned_data["fingerprint"]
        )
    except csv_import.CsvFileError as exc:
        messages.error(request, str(exc))
        return redirect("tournaments:manage-import", tournament.slug)
    except registration.ImportChangedError as exc:
        messages.error(request, refusal_text(exc))
        return _preview_page(request, tournament, exc.preview, data)
    except ValidationError as exc:
        messages.error(request, refusal_text(exc))
        return redirect("tournaments:manage-import", tournament.slug)
    skipped = len(result.preview.invalid_rows)
    messages.success(
        request,
        (
            gettext(
                "Imported %(players)d players and %(entries)d entries; "
                "skipped %(skipped)d rows with errors."
            )
            if skipped
            else gettext("Imported %(players)d players and %(entries)d entries.")
        )
        % {"players": len(result.players), "entries": result.entries, "skipped": skipped},
    )
    messages.info(
        request,
        gettext(
            "In the registry of people: %(linked)d linked to a person it knew, %(new)d new people."
        )
        % {"linked": result.linked, "new": result.new_people},
    )
    return redirect("tournaments:manage-players", tournament.slug)


def _example_csv(tournament: Tournament) -> str:
    names = list(
        tournament.categories.filter(kind=Category.Kind.SINGLES)
        .order_by("name")
        .values_list("name", flat=True)
    )
    return csv_import.example_csv(names)


@organizer_page
def import_example(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """An example file with the right header, naming this tournament's categories."""
    response = HttpResponse(
        _example_csv(tournament),
        content_type="text/csv; charset=utf-8",  # untranslated: a MIME type
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{tournament.slug}-players.csv"'  # untranslated: an HTTP header
    )
    return response
