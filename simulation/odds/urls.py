"""Pages of the simulation's odds under /t/<slug>/."""

from django.urls import path  # noqa: F401 (the pages are added here)

app_name = "odds"

urlpatterns: list = []
