"""Organizer pages: registration, CSV import, teams, check-in, stages and draws, boards.

Mounted at /t/<slug>/manage/ inside the ``tournaments`` namespace; every name starts with
``manage``. Creating a tournament has no slug yet, so it lives in config/urls.py (``/new/``).
"""

from django.urls import path

from tournaments.views.organizer import boards, categories, checkin, imports, players, setup, stages

urlpatterns = [
    path("", setup.dashboard, name="manage"),
    path("categories/new/", categories.category_create, name="manage-category-create"),
    path("categories/<int:category_id>/", categories.category_detail, name="manage-category"),
    path(
        "categories/<int:category_id>/entries/",
        categories.category_enter_player,
        name="manage-category-enter",
    ),
    path("categories/<int:category_id>/stages/", stages.stage_create, name="manage-stage-create"),
    path("stages/<int:stage_id>/draw/", stages.stage_draw, name="manage-stage-draw"),
    path("stages/<int:stage_id>/advance/", stages.stage_advance, name="manage-stage-advance"),
    path("stages/<int:stage_id>/schedule/", stages.stage_schedule, name="manage-stage-schedule"),
    path("players/", players.players, name="manage-players"),
    path("players/import/", imports.import_upload, name="manage-import"),
    path("players/import/confirm/", imports.import_confirm, name="manage-import-confirm"),
    path("players/import/example.csv", imports.import_example, name="manage-import-example"),
    path("teams/", players.teams, name="manage-teams"),
    path("check-in/", checkin.checkin, name="manage-checkin"),
    path("entries/<int:entry_id>/check-in/", checkin.entry_checkin, name="manage-entry-checkin"),
    path("entries/<int:entry_id>/withdraw/", checkin.entry_withdraw, name="manage-entry-withdraw"),
    path("boards/", boards.boards, name="manage-boards"),
    path("boards/<int:board_id>/service/", boards.board_service, name="manage-board-service"),
]
