"""The record keepers' import pages: upload a file and see its preview, then confirm it.

``/record/import/`` takes the file and lists the recent imports; ``/record/import/<id>/`` shows
one import's preview (new and matched people, games new and recorded already, bad and skipped
lines by number) with the button that writes it. Both ask the declared steps
(``scoring.record.import_actions``), as the API and ``manage.py import_record`` do.
"""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from scoring.engine.reference_csv import ReferenceGame, write
from scoring.models.record import RecordImport
from scoring.record import importing
from scoring.record.import_actions import confirm_record_import, preview_record_import
from scoring.record.import_forms import RecordConfirmForm, RecordUploadForm
from tournaments.actions import Refused
from tournaments.views.access import refuse

#: Imports listed under the form.
RECENT = 20
#: The layout's header and a line of the WCC's 2009 final, shown beside the form.
EXAMPLE = write(
    [
        ReferenceGame(
            played_on=date(2009, 6, 6),
            event="WCC",
            stage="Final G1",
            pool="1v2",
            number=1,
            side_a=("Nathan Walsh",),  # untranslated: a name
            side_b=("Brian Cook",),  # untranslated: a name
            rounds=((0, 2, 3, 4), (2, 0, 2, 2), (2, 0, 6, 4), (0, 2, 0, 1), (0, 2, 2, 3)),
            first=0,
        )
    ]
)


def record_import(request: HttpRequest) -> HttpResponse:
    """The upload form; a readable file is kept with its preview, and the page goes to it."""
    refused = preview_record_import.forbidden(request.user, None)
    if refused is not None:
        return refuse(request, refused.text)
    form = RecordUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            record_import_ = preview_record_import(
                request.user,
                None,
                content=upload.read(),
                filename=upload.name or "",
                layout=form.cleaned_data["layout"],
                discipline=form.cleaned_data["discipline"],
            )
        except Refused as exc:
            form.add_error(exc.field if exc.field in form.fields else "file", exc.text)
        else:
            return redirect("record-import-detail", record_import_.pk)
    recent = RecordImport.objects.select_related("created_by").defer("content")[:RECENT]
    return render(
        request,
        "scoring/record/import.html",
        {"form": form, "recent": recent, "example": EXAMPLE},
        status=400 if form.errors else 200,
    )


def record_import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One import's preview, and its confirmation."""
    refused = preview_record_import.forbidden(request.user, None)
    if refused is not None:
        return refuse(request, refused.text)
    record_import_ = get_object_or_404(RecordImport.objects.select_related("created_by"), pk=pk)
    form = RecordConfirmForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            done = confirm_record_import(
                request.user,
                record_import_,
                skip_bad_lines=form.cleaned_data["skip_bad_lines"],
            )
        except Refused as exc:
            form.add_error(None, exc.text)
            status = exc.status
        else:
            messages.success(request, importing.written_message(done))
            return redirect("record-import-detail", done.pk)
    summary = record_import_.summary
    return render(
        request,
        "scoring/record/import_detail.html",
        {
            "record_import": record_import_,
            "summary": summary,
            "form": form,
            "refusal": confirm_record_import.refusal(request.user, record_import_),
            "more_errors": summary.get("error_count", 0) - len(summary.get("errors", [])),
            "more_skipped": summary.get("skipped_count", 0) - len(summary.get("skipped", [])),
        },
        status=status,
    )
