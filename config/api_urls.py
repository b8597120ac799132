"""REST API routes (Django REST framework), mounted at /api/.

Reading is open to anyone except scorecards; writing needs a signed-in user (a session, or a
token from ``POST /api/auth/token/`` sent as ``Authorization: Token <key>``) with the right role.
The OpenAPI schema is at /api/schema/ and its browsable documentation at /api/docs/.
"""

from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from scoring.api import shootouts as scoring_shootouts
from scoring.api import views as scoring_views
from tournaments.api import staff as staff_api
from tournaments.api import views as tournament_views

app_name = "api"

router = DefaultRouter()
router.register("tournaments", tournament_views.TournamentViewSet, basename="tournament")
router.register("categories", tournament_views.CategoryViewSet, basename="category")
router.register("players", tournament_views.PlayerViewSet, basename="player")
router.register("teams", tournament_views.TeamViewSet, basename="team")
router.register("entries", tournament_views.EntryViewSet, basename="entry")
router.register("stages", tournament_views.StageViewSet, basename="stage")
router.register("matches", tournament_views.MatchViewSet, basename="match")
router.register("games", scoring_views.GameViewSet, basename="game")
router.register("scorecards", scoring_views.ScoreCardViewSet, basename="scorecard")
router.register("card-rows", scoring_views.CardRowViewSet, basename="cardrow")
router.register("roles", staff_api.RoleViewSet, basename="role")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="token"),
    path(
        "stages/<int:pk>/standings/",
        scoring_views.StageStandingsView.as_view(),
        name="stage-standings",
    ),
    path(
        "stages/<int:pk>/shootouts/",
        scoring_shootouts.StageShootoutsView.as_view(),
        name="stage-shootouts",
    ),
    *router.urls,
]
