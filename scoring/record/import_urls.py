"""The record keepers' import pages, mounted at ``/record/import/``."""

from django.urls import path

from scoring.record import import_views

urlpatterns = [
    path("", import_views.record_import, name="record-import"),
    path("<int:pk>/", import_views.record_import_detail, name="record-import-detail"),
]
