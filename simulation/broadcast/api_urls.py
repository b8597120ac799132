"""REST API routes of the simulation's broadcast, mounted at /api/."""

from django.urls import path

from simulation.broadcast.api import OverlayFeedView

urlpatterns: list = [
    path("tournaments/<slug:slug>/overlay/", OverlayFeedView.as_view(), name="overlay-feed"),
]
