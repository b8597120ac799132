"""Organizer pages: registration, CSV import, teams, check-in, stages and draws."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
