"""The ranking's and the ratings' API routes (inside the ``api`` namespace)."""

from django.urls import path

from scoring.api import ratings

urlpatterns = [
    path(
        "tournaments/<slug:slug>/counts-for-ranking/",
        ratings.TournamentRatedView.as_view(),
        name="tournament-rated",
    ),
    path("ranking/recompute/", ratings.RecomputeView.as_view(), name="ranking-recompute"),
    path("ranking/<slug:discipline>/", ratings.RankingView.as_view(), name="ranking"),
    path("people/<int:pk>/ratings/", ratings.PersonRatingsView.as_view(), name="person-ratings"),
]
