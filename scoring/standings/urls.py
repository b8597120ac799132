"""The public standings page of a stage and its embed (mounted inside the ``scoring``
namespace)."""

from django.urls import path

from scoring.standings import views

urlpatterns = [
    path("stages/<int:stage_id>/standings/", views.stage_standings, name="standings"),
    path(
        "embed/stages/<int:stage_id>/standings/",
        views.embed_standings,
        name="embed-standings",
    ),
]
