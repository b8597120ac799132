"""The seeds-from-ratings page of a category, among the organizer pages of a tournament
(mounted at ``/t/``, as ``/t/<slug>/manage/...``; the url name is ``seeds-from-ratings``)."""

from django.urls import path

from scoring.seeds import views

urlpatterns = [
    path(
        "<slug:slug>/manage/categories/<int:category_id>/seeds-from-ratings/",
        views.seeds_from_ratings,
        name="seeds-from-ratings",
    ),
]
