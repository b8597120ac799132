"""The public entry form of a tournament (mounted at /t/, namespace ``registration``): the form,
the applicant's page of their request and the partner's invitation (each reached with its
secret link), and the organizer's list of requests, beside the other organizer pages
(``<slug>/manage/``)."""

from django.urls import path

from tournaments.views import registration

app_name = "registration"

MANAGE = "<slug:slug>/manage/registrations"

urlpatterns = [
    path("<slug:slug>/register/", registration.register, name="register"),
    path(
        "<slug:slug>/register/partner/<str:token>/",
        registration.registration_partner,
        name="registration-partner",
    ),
    path(
        "<slug:slug>/register/<str:token>/",
        registration.registration_status,
        name="registration-status",
    ),
    path(f"{MANAGE}/", registration.registrations, name="registrations"),
    path(
        f"{MANAGE}/<int:request_id>/accept/",
        registration.registration_accept,
        name="registration-accept",
    ),
    path(
        f"{MANAGE}/<int:request_id>/refuse/",
        registration.registration_refuse,
        name="registration-refuse",
    ),
    path(
        f"{MANAGE}/<int:request_id>/withdraw/",
        registration.registration_withdraw,
        name="registration-withdraw",
    ),
    path(
        f"{MANAGE}/categories/<int:category_id>/",
        registration.registration_settings,
        name="registration-settings",
    ),
]
