"""Pages of the simulation's broadcast under /t/<slug>/."""

from django.urls import path  # noqa: F401 (the pages are added here)

app_name = "broadcast"

urlpatterns: list = []
