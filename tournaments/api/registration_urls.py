"""The public entry form's API routes (inside the ``api`` namespace): see
``tournaments.api.registration``."""

from django.urls import path

from tournaments.api import registration

urlpatterns = [
    path(
        "tournaments/<slug:slug>/entry-requests/",
        registration.TournamentEntryRequestsView.as_view(),
        name="entry-requests",
    ),
    path(
        "entry-requests/<int:pk>/accept/",
        registration.EntryRequestAcceptView.as_view(),
        name="entry-request-accept",
    ),
    path(
        "entry-requests/<int:pk>/refuse/",
        registration.EntryRequestRefuseView.as_view(),
        name="entry-request-refuse",
    ),
    path(
        "entry-requests/<int:pk>/withdraw/",
        registration.EntryRequestWithdrawView.as_view(),
        name="entry-request-withdraw",
    ),
    path(
        "categories/<int:pk>/registration/",
        registration.CategoryRegistrationView.as_view(),
        name="category-registration",
    ),
    path(
        "entry-requests/mine/<str:token>/",
        registration.OwnRequestView.as_view(),
        name="entry-request-mine",
    ),
    path(
        "entry-requests/mine/<str:token>/withdraw/",
        registration.OwnRequestWithdrawView.as_view(),
        name="entry-request-mine-withdraw",
    ),
    path(
        "entry-requests/partner/<str:token>/accept/",
        registration.PartnerAcceptView.as_view(),
        name="entry-request-partner-accept",
    ),
]
