"""Simulation pages: previews, auto-play, dry runs and replays, under /t/<slug>/sim/."""

from django.urls import path

from simulation import views

app_name = "simulation"

SIM = "<slug:slug>/sim"

urlpatterns = [
    path(f"{SIM}/", views.hub, name="hub"),
    path(f"{SIM}/dry-runs/", views.dry_run_start, name="dry_run_start"),
    path(f"{SIM}/dry-runs/<int:dry_run_id>/", views.dry_run_detail, name="dry_run"),
    path(f"{SIM}/dry-runs/<int:dry_run_id>/status/", views.dry_run_status, name="dry_run_status"),
    path(f"{SIM}/dry-runs/<int:dry_run_id>/retry/", views.dry_run_retry, name="dry_run_retry"),
    path(f"{SIM}/dry-runs/<int:dry_run_id>/stop/", views.dry_run_stop, name="dry_run_stop"),
    path(f"{SIM}/autoplay/", views.autoplay_start, name="autoplay_start"),
    path(f"{SIM}/autoplay/<int:run_id>/", views.autoplay_detail, name="autoplay"),
    path(f"{SIM}/autoplay/<int:run_id>/status/", views.autoplay_status, name="autoplay_status"),
    path(f"{SIM}/autoplay/<int:run_id>/retry/", views.autoplay_retry, name="autoplay_retry"),
    path(f"{SIM}/autoplay/<int:run_id>/stop/", views.autoplay_stop, name="autoplay_stop"),
    path(f"{SIM}/stages/<int:stage_id>/", views.stage_page, name="stage"),
    path(f"{SIM}/matches/<int:match_id>/", views.match_page, name="match"),
    path(f"{SIM}/matches/<int:match_id>/preview/", views.preview_start, name="preview_start"),
    path(f"{SIM}/previews/<int:preview_id>/status/", views.preview_status, name="preview_status"),
    path(f"{SIM}/previews/<int:preview_id>/stop/", views.preview_stop, name="preview_stop"),
    path(f"{SIM}/games/<int:game_id>/record.json", views.game_record, name="game_record"),
    path(f"{SIM}/games/<int:game_id>/replay/", views.game_replay, name="replay"),
]
