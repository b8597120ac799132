"""The download of an event's results in the Crokinole Reference layout: one click on the
organizer's page, and on the public page once the tournament is published (results are
public). The API serves the same file (``scoring.api.record``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

from scoring.record.exporting import event_csv, export_filename, export_refusal
from tournaments.models import Tournament
from tournaments.views.access import refuse, tournament_page

#: The media type of the download.
CSV_TYPE = "text/csv; charset=utf-8"  # untranslated: a media type


def csv_response(tournament: Tournament) -> HttpResponse:
    """The event's file as a download."""
    response = HttpResponse(event_csv(tournament).encode("utf-8"), content_type=CSV_TYPE)
    filename = export_filename(tournament)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'  # untranslated: HTTP
    return response


@tournament_page()
def tournament_record_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    refusal = export_refusal(request.user, tournament)
    if refusal is not None:
        return refuse(request, refusal, tournament)
    return csv_response(tournament)
