"""Simulation pages: previews, auto-play, dry runs and replays, under /t/<slug>/sim/.

The long work's start, status, Retry and Stop are one set of views (``views.work_*``); each
address names its kind (``work``: ``dry_run``, ``autoplay``, ``preview``), as declared in
``simulation.actions.LONG_WORK``.
"""

from django.urls import path

from simulation import views

app_name = "simulation"

SIM = "<slug:slug>/sim"
DRY_RUN = {"work": "dry_run"}
AUTOPLAY = {"work": "autoplay"}
PREVIEW = {"work": "preview"}

urlpatterns = [
    path(f"{SIM}/", views.hub, name="hub"),
    path(f"{SIM}/dry-runs/", views.work_start, DRY_RUN, name="dry_run_start"),
    path(f"{SIM}/dry-runs/<int:dry_run_id>/", views.dry_run_detail, name="dry_run"),
    path(
        f"{SIM}/dry-runs/<int:work_id>/status/",
        views.work_status,
        DRY_RUN,
        name="dry_run_status",
    ),
    path(f"{SIM}/dry-runs/<int:work_id>/retry/", views.work_retry, DRY_RUN, name="dry_run_retry"),
    path(f"{SIM}/dry-runs/<int:work_id>/stop/", views.work_stop, DRY_RUN, name="dry_run_stop"),
    path(f"{SIM}/autoplay/", views.work_start, AUTOPLAY, name="autoplay_start"),
    path(f"{SIM}/autoplay/<int:run_id>/", views.autoplay_detail, name="autoplay"),
    path(
        f"{SIM}/autoplay/<int:work_id>/status/",
        views.work_status,
        AUTOPLAY,
        name="autoplay_status",
    ),
    path(f"{SIM}/autoplay/<int:work_id>/retry/", views.work_retry, AUTOPLAY, name="autoplay_retry"),
    path(f"{SIM}/autoplay/<int:work_id>/stop/", views.work_stop, AUTOPLAY, name="autoplay_stop"),
    path(f"{SIM}/stages/<int:stage_id>/", views.stage_page, name="stage"),
    path(f"{SIM}/matches/<int:match_id>/", views.match_page, name="match"),
    path(
        f"{SIM}/matches/<int:match_id>/preview/",
        views.work_start,
        PREVIEW,
        name="preview_start",
    ),
    path(
        f"{SIM}/previews/<int:work_id>/status/",
        views.work_status,
        PREVIEW,
        name="preview_status",
    ),
    path(f"{SIM}/previews/<int:work_id>/stop/", views.work_stop, PREVIEW, name="preview_stop"),
    path(f"{SIM}/games/<int:game_id>/record.json", views.game_record, name="game_record"),
    path(f"{SIM}/games/<int:game_id>/replay/", views.game_replay, name="replay"),
]
