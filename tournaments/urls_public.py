"""Public pages: schedule by board, who plays where now, the hall screen, brackets, pools,
player pages."""

from django.urls import path

from tournaments.views import hall, public

urlpatterns = [
    path("now/", public.tournament_now, name="now"),
    path("screen/", hall.hall_screen, name="screen"),
    path("screen/help/", hall.screen_help, name="screen_help"),
    path("players/", public.player_lookup, name="player_lookup"),
    path("players/<int:number>/", public.player_page, name="player"),
    path("stages/<int:stage_id>/schedule/", public.stage_schedule, name="schedule"),
    path("stages/<int:stage_id>/rounds/<int:round_of_play>/", public.round_schedule, name="round"),
    path(
        "stages/<int:stage_id>/rounds/<int:round_of_play>/now/",
        public.round_now,
        name="round_now",
    ),
    path("stages/<int:stage_id>/bracket/", public.stage_bracket, name="bracket"),
    path("stages/<int:stage_id>/bracket.svg", public.stage_bracket_svg, name="bracket_svg"),
    path("stages/<int:stage_id>/pools/", public.stage_pools, name="pools"),
    # Framed on other sites (tournaments.embedding); the standings' embed is scoring's.
    path("embed/stages/<int:stage_id>/bracket/", public.embed_bracket, name="embed-bracket"),
    path("embed/stages/<int:stage_id>/schedule/", public.embed_schedule, name="embed-schedule"),
]
