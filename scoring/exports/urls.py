"""The export download and the tables' downloads, mounted at /t/<slug>/ inside the ``scoring``
namespace. The import page has no tournament yet, so it lives in config/urls.py
(``/new/import/``)."""

from django.urls import path

from scoring.exports import views
from scoring.record import export_views as record_exports

urlpatterns = [
    path("export/", views.export_download, name="export"),
    path("exports/tournament.xlsx", views.tables_download, name="export-tables"),
    path("exports/<slug:table>.csv", views.table_download, name="export-table"),
    # The event's results in the Crokinole Reference layout, for the record keepers (public
    # once the tournament is published).
    path(
        "exports/crokinole-reference/results.csv",
        record_exports.tournament_record_csv,
        name="tournament-record-csv",
    ),
]
