from django.urls import include, path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("<slug:slug>/stages/<int:stage_id>/standings/", views.stage_standings, name="standings"),
    path("<slug:slug>/cards/", include("scoring.urls_cards")),
    path("<slug:slug>/print/", include("scoring.urls_pdf")),
]
