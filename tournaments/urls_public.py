"""Public pages: schedule by board, who plays where now, brackets, player pages."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
