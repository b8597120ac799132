from django.urls import include, path

from tournaments.views import live, pages

app_name = "tournaments"

urlpatterns = [
    path("", pages.home, name="index"),
    path("<slug:slug>/", pages.tournament_detail, name="detail"),
    path("<slug:slug>/live/", live.tournament_version, name="live"),
    path("<slug:slug>/", include("tournaments.urls_public")),
    path("<slug:slug>/manage/", include("tournaments.urls_organizer")),
    path("<slug:slug>/clock/", include("tournaments.urls_clock")),
    path("<slug:slug>/calls/", include("tournaments.urls_calls")),
]
