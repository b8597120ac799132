"""The ranking's and the ratings' API routes (inside the ``api`` namespace)."""

from django.urls import path

from scoring.api import ratings

urlpatterns = [
    path("ranking/recompute/", ratings.RecomputeView.as_view(), name="ranking-recompute"),
    path("ranking/<slug:discipline>/", ratings.RankingView.as_view(), name="ranking"),
    path("people/<int:pk>/ratings/", ratings.PersonRatingsView.as_view(), name="person-ratings"),
]
