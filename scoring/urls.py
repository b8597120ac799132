"""The scoring pages, one package per feature: standings, scorecards, printing.

Everything is mounted at ``/t/<slug>/`` inside the ``scoring`` namespace.
"""

from django.urls import include, path

app_name = "scoring"

urlpatterns = [
    path("<slug:slug>/", include("scoring.standings.urls")),
    path("<slug:slug>/cards/", include("scoring.scorecards.urls")),
    path("<slug:slug>/print/", include("scoring.printing.urls")),
]
