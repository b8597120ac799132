"""The shoot-out page and the closed-stage pages of a stage (mounted inside the ``scoring``
namespace)."""

from django.urls import path

from scoring.progression import closed_views, views

urlpatterns = [
    path("stages/<int:stage_id>/shootout/", views.shootout, name="shootout"),
    path("stages/<int:stage_id>/closed/", closed_views.closed_stage, name="closed_stage"),
    path(
        "stages/<int:stage_id>/closed/games/<int:game_id>/",
        closed_views.closed_change,
        name="closed_change",
    ),
    path(
        "stages/<int:stage_id>/undo-advance/",
        closed_views.undo_advance_page,
        name="undo_advance",
    ),
]
