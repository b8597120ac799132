"""The registry's pages, at /people/ (``tournaments.views.registry``)."""

from django.urls import path

from tournaments.views import registry

urlpatterns: list = [
    path("", registry.registry_list, name="registry"),
    path("merge/", registry.merge_page, name="registry-merge"),
    path("<int:pk>/", registry.person_page, name="registry-person"),
    path("<int:pk>/claim/", registry.claim_page, name="registry-claim"),
    path("link/<int:pk>/", registry.link_player_page, name="registry-link-player"),
]
