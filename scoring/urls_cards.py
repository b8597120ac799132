"""Scorecard pages: filling at the board, validation, the scoring table, disputes."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
