"""REST API routes (Django REST framework), mounted at /api/.

Reading is open to anyone except scorecards; writing needs a signed-in user (a session, or a
token from ``POST /api/auth/token/`` sent as ``Authorization: Token <key>``) with the right role.
The OpenAPI schema is at /api/schema/ and its browsable documentation at /api/docs/.
"""

from django.urls import include, path
from rest_framework.routers import DefaultRouter

from config.security import TokenView
from scoring.api import locks as scoring_locks
from scoring.api import progression as scoring_progression
from scoring.api import rulings as scoring_rulings
from scoring.api import shootouts as scoring_shootouts
from scoring.api import views as scoring_views
from tournaments.api import checkin as checkin_api
from tournaments.api import clock as clock_api
from tournaments.api import creators as creators_api
from tournaments.api import draws as draws_api
from tournaments.api import seeding as seeding_api
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
    # DRF's token view, answering a guessed password with the lockout (config/security.py).
    path("auth/token/", TokenView.as_view(), name="token"),
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
    # Event day: draws, check-in, seeds and pools, advancing, the round clock, creators.
    path("stages/<int:pk>/draw/", draws_api.StageDrawView.as_view(), name="stage-draw"),
    path("stages/<int:pk>/undo-draw/", draws_api.StageUndoDrawView.as_view(), name="stage-undo"),
    path("stages/<int:pk>/swap/", draws_api.StageSwapView.as_view(), name="stage-swap"),
    path("stages/<int:pk>/pools/", seeding_api.StagePoolsView.as_view(), name="stage-pools"),
    path(
        "stages/<int:pk>/advance/",
        scoring_progression.StageAdvanceView.as_view(),
        name="stage-advance",
    ),
    path(
        "stages/<int:pk>/next-round/",
        scoring_progression.StageNextRoundView.as_view(),
        name="stage-next-round",
    ),
    # Closed stages: locked once advanced; the head referee's change; undoing an advance.
    path("stages/<int:pk>/closed/", scoring_locks.StageClosureView.as_view(), name="stage-closed"),
    path(
        "stages/<int:pk>/undo-advance/",
        scoring_locks.UndoAdvanceView.as_view(),
        name="stage-undo-advance",
    ),
    path(
        "games/<int:pk>/closed-change/",
        scoring_locks.ClosedChangeView.as_view(),
        name="game-closed-change",
    ),
    path(
        "categories/<int:pk>/check-in/",
        checkin_api.CategoryCheckInView.as_view(),
        name="category-check-in",
    ),
    path(
        "categories/<int:pk>/seeds/",
        seeding_api.CategorySeedsView.as_view(),
        name="category-seeds",
    ),
    path("tournaments/<slug:slug>/clock/", clock_api.ClockView.as_view(), name="clock"),
    *(
        path(f"tournaments/<slug:slug>/clock/{button}/", view.as_view(), name=f"clock-{button}")
        for button, view in clock_api.BUTTON_VIEWS.items()
    ),
    path(
        "tournament-creators/",
        creators_api.TournamentCreatorsView.as_view(),
        name="tournament-creators",
    ),
    path(
        "tournament-creators/<str:username>/",
        creators_api.TournamentCreatorView.as_view(),
        name="tournament-creator",
    ),
    # Walkovers and forfeits: withdrawals and disqualifications, the head referee's forfeits.
    path(
        "entries/<int:pk>/withdraw/",
        scoring_rulings.EntryWithdrawView.as_view(),
        name="entry-withdraw",
    ),
    path(
        "entries/<int:pk>/reinstate/",
        scoring_rulings.EntryReinstateView.as_view(),
        name="entry-reinstate",
    ),
    path("games/<int:pk>/forfeit/", scoring_rulings.GameForfeitView.as_view(), name="game-forfeit"),
    path(
        "games/<int:pk>/forfeit-round/",
        scoring_rulings.GameForfeitRoundView.as_view(),
        name="game-forfeit-round",
    ),
    # Crokinole's record: registry, registration, imports and exports, ratings, profiles, seeds.
    path("", include("tournaments.api.registry_urls")),
    path("", include("tournaments.api.registration_urls")),
    path("", include("scoring.api.record_urls")),
    path("", include("scoring.api.rating_urls")),
    path("", include("scoring.api.profile_urls")),
    path("", include("scoring.api.seeds_urls")),
    path("", include("simulation.odds.api_urls")),
    path("", include("simulation.broadcast.api_urls")),
    path("", include("simulation.planning.api_urls")),
    *router.urls,
]
