"""REST API routes of the simulation's odds, mounted at /api/."""

from django.urls import path  # noqa: F401 (the routes are added here)

urlpatterns: list = []
