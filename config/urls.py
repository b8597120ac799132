"""URL map: public pages, the organizer pages, the REST API and its schema, the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import pwa
from scoring.exports.views import import_upload as import_tournament_view
from tournaments.views import first_run as first_run_views
from tournaments.views import invitations as invitation_views
from tournaments.views import live as live_views
from tournaments.views import pages as tournament_pages
from tournaments.views.organizer.setup import create_tournament_view

urlpatterns = [
    path("", tournament_pages.home, name="home"),
    # The installable app: its service worker controls every page from the root (scope "/").
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("live/", live_views.index_version, name="index-live"),
    path("me/", tournament_pages.landing, name="landing"),
    path("invitations/", invitation_views.invitations_view, name="invitations"),
    path("new/", create_tournament_view, name="tournament-create"),
    path("new/import/", import_tournament_view, name="tournament-import"),
    path("t/", include("tournaments.urls")),
    path("t/", include("scoring.urls")),
    path("t/", include("simulation.urls")),
    # Live odds of the cut, the broadcast kit (featured matches, overlay) and event planning.
    path("t/", include("simulation.odds.urls")),
    path("t/", include("simulation.broadcast.urls")),
    path("t/", include("simulation.planning.urls")),
    # Crokinole's record: the registry of people, profiles, the ranking, imports of past results.
    path("people/", include("tournaments.urls_registry")),
    path("record/", include("scoring.record.urls")),
    path("record/import/", include("scoring.record.import_urls")),
    path("ranking/", include("scoring.ratings.urls")),
    # The public entry form of a tournament and the seeds offered from ratings.
    path("t/", include("tournaments.urls_registration")),
    path("t/", include("scoring.seeds.urls")),
    path("api/", include("config.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its script from a URL of its own: the CSP allows no inline script.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    # The one-time link that creates the first account of an empty site (manage.py setup_link).
    path("setup/<str:token>/", first_run_views.setup_view, name="first-run-setup"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Staff accounts created on a tournament's staff page choose their password here, through
    # the one-time link the organizer hands them (Django's password-reset tokens).
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    # The language switcher of the site's bar posts here (Django's set_language view).
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("healthz/", include("config.health")),
]

handler404 = "config.errors.not_found"
handler400 = "config.errors.bad_request"
handler500 = "config.errors.server_error"
