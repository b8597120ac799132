"""API routes of the seeds from ratings (inside the ``api`` namespace)."""

from django.urls import path

from scoring.api import seeds

urlpatterns = [
    path(
        "categories/<int:pk>/seeds-from-ratings/",
        seeds.CategorySeedsFromRatingsView.as_view(),
        name="seeds-from-ratings",
    ),
]
