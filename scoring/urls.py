"""The scoring pages, one package per feature: standings, shoot-outs, scorecards, rulings,
printing.

Everything is mounted at ``/t/<slug>/`` inside the ``scoring`` namespace.
"""

from django.urls import include, path

from scoring.scorecards import me, scan

app_name = "scoring"

urlpatterns = [
    path("<slug:slug>/", include("scoring.standings.urls")),
    path("<slug:slug>/", include("scoring.progression.urls")),
    path("<slug:slug>/cards/", include("scoring.scorecards.urls")),
    path("<slug:slug>/rulings/", include("scoring.rulings.urls")),
    path("<slug:slug>/print/", include("scoring.printing.urls")),
    path("<slug:slug>/", include("scoring.exports.urls")),
    path("<slug:slug>/me/<str:token>/", me.open_link, name="private_link"),
    path("<slug:slug>/me/<str:token>/claim/", me.claim, name="claim_entry"),
    path("<slug:slug>/me/drop/<int:entry_id>/", me.drop, name="drop_link"),
    path("<slug:slug>/scan/<str:code>/", scan.card_scan, name="card_scan"),
    path("<slug:slug>/sign/<str:code>/", scan.sign_scan, name="sign_scan"),
]
