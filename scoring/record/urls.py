"""Public pages of the record, mounted at /record/: profiles, head-to-heads, leaderboards."""

from django.urls import path

from scoring.record import views

urlpatterns = [
    path("people/<int:pk>/", views.person_profile, name="person-profile"),
    path(
        "people/<int:pk>/head-to-head/",
        views.head_to_head_pick,
        name="head-to-head-pick",
    ),
    path(
        "people/<int:pk>/head-to-head/<int:other_pk>/",
        views.head_to_head,
        name="head-to-head",
    ),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
]
