"""Printable PDFs: scorecards for a round, blank and filled cards, standings, brackets."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
