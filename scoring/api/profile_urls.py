"""The record's public reads: a person's profile, a head-to-head, the leaderboards (inside the
``api`` namespace)."""

from django.urls import path

from scoring.api import profiles

urlpatterns = [
    path(
        "people/<int:pk>/profile/",
        profiles.PersonProfileView.as_view(),
        name="person-profile",
    ),
    path(
        "people/<int:pk>/head-to-head/<int:other>/",
        profiles.HeadToHeadView.as_view(),
        name="person-head-to-head",
    ),
    path("leaderboards/", profiles.LeaderboardsView.as_view(), name="leaderboards"),
]
