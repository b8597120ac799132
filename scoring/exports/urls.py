"""The export download and the tables' downloads, mounted at /t/<slug>/ inside the ``scoring``
namespace. The import page has no tournament yet, so it lives in config/urls.py
(``/new/import/``)."""

from django.urls import path

from scoring.exports import views

urlpatterns = [
    path("export/", views.export_download, name="export"),
    path("exports/tournament.xlsx", views.tables_download, name="export-tables"),
    path("exports/<slug:table>.csv", views.table_download, name="export-table"),
]
