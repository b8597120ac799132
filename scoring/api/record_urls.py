"""The API's routes for imports of past results and an event's results file (inside the
``api`` namespace)."""

from django.urls import path

from scoring.api import record

urlpatterns = [
    path("record/imports/", record.RecordImportsView.as_view(), name="record-imports"),
    path("record/imports/<int:pk>/", record.RecordImportView.as_view(), name="record-import"),
    path(
        "record/imports/<int:pk>/confirm/",
        record.RecordImportConfirmView.as_view(),
        name="record-import-confirm",
    ),
    path(
        "tournaments/<slug:slug>/results.csv",
        record.TournamentRecordCsvView.as_view(),
        name="tournament-record-csv",
    ),
]
