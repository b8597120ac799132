"""The ranking's pages, mounted at /ranking/."""

from django.urls import path

from scoring.ratings import views

urlpatterns = [
    path("", views.ranking_page, name="ranking"),
    path("recompute/", views.recompute_view, name="ranking-recompute"),
    path("recompute/<str:task_id>/", views.recompute_progress, name="ranking-recompute-progress"),
    path(
        "recompute/<str:task_id>/status/",
        views.recompute_status,
        name="ranking-recompute-status",
    ),
    path("publish/<slug:slug>/", views.publish_view, name="ranking-publish"),
    path("publish/<slug:slug>/counts/", views.rated_view, name="ranking-rated"),
    path(
        "publish/<slug:slug>/status/<str:task_id>/",
        views.publish_status,
        name="ranking-publish-status",
    ),
    path("<slug:discipline>/", views.ranking_page, name="ranking-discipline"),
]
