"""The shoot-out page of a stage (mounted inside the ``scoring`` namespace)."""

from django.urls import path

from scoring.progression import views

urlpatterns = [
    path("stages/<int:stage_id>/shootout/", views.shootout, name="shootout"),
]
