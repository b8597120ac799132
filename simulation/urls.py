"""Simulation pages: previews, auto-play, dry runs and replays."""

from django.urls import path  # noqa: F401

app_name = "simulation"

urlpatterns: list = []
