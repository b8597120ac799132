"""Organizer pages: registration, CSV import, teams, check-in, stages and draws.

Mounted at /t/<slug>/manage/ inside the ``tournaments`` namespace; every name starts with
``manage``. Creating a tournament has no slug yet, so it lives in config/urls.py (``/new/``).
"""

from django.urls import path

from tournaments.views import organizer

urlpatterns = [
    path("", organizer.dashboard, name="manage"),
    path("categories/new/", organizer.category_create, name="manage-category-create"),
    path("categories/<int:category_id>/", organizer.category_detail, name="manage-category"),
    path(
        "categories/<int:category_id>/entries/",
        organizer.category_enter_player,
        name="manage-category-enter",
    ),
    path(
        "categories/<int:category_id>/stages/", organizer.stage_create, name="manage-stage-create"
    ),
    path("stages/<int:stage_id>/draw/", organizer.stage_draw, name="manage-stage-draw"),
    path("stages/<int:stage_id>/advance/", organizer.stage_advance, name="manage-stage-advance"),
    path("players/", organizer.players, name="manage-players"),
    path("players/import/", organizer.import_upload, name="manage-import"),
    path("players/import/confirm/", organizer.import_confirm, name="manage-import-confirm"),
    path("players/import/example.csv", organizer.import_example, name="manage-import-example"),
    path("teams/", organizer.teams, name="manage-teams"),
    path("check-in/", organizer.checkin, name="manage-checkin"),
    path("entries/<int:entry_id>/check-in/", organizer.entry_checkin, name="manage-entry-checkin"),
    path(
        "entries/<int:entry_id>/withdraw/", organizer.entry_withdraw, name="manage-entry-withdraw"
    ),
    path("boards/", organizer.boards, name="manage-boards"),
    path("boards/<int:board_id>/service/", organizer.board_service, name="manage-board-service"),
]
