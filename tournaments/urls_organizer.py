"""Organizer pages: registration, CSV import, teams, check-in, stages and draws, boards.

Mounted at /t/<slug>/manage/ inside the ``tournaments`` namespace; every name starts with
``manage``. Creating a tournament has no slug yet, so it lives in config/urls.py (``/new/``).
"""

from django.urls import path

from tournaments.views.organizer import (
    audit,
    boards,
    categories,
    checkin,
    deletion,
    imports,
    links,
    players,
    seeding,
    setup,
    staff,
    stages,
)

urlpatterns = [
    path("", setup.dashboard, name="manage"),
    path("edit/", setup.tournament_edit, name="manage-edit"),
    path("delete/", deletion.tournament_delete, name="manage-delete"),
    path("categories/new/", categories.category_create, name="manage-category-create"),
    path("categories/<int:category_id>/", categories.category_detail, name="manage-category"),
    path(
        "categories/<int:category_id>/edit/",
        categories.category_edit,
        name="manage-category-edit",
    ),
    path(
        "categories/<int:category_id>/delete/",
        categories.category_delete,
        name="manage-category-delete",
    ),
    path(
        "categories/<int:category_id>/entries/",
        categories.category_enter_player,
        name="manage-category-enter",
    ),
    path("categories/<int:category_id>/stages/", stages.stage_create, name="manage-stage-create"),
    path("stages/<int:stage_id>/draw/", stages.stage_draw, name="manage-stage-draw"),
    path("stages/<int:stage_id>/undo/", stages.stage_undo_draw, name="manage-stage-undo"),
    path("stages/<int:stage_id>/swap/", stages.stage_swap, name="manage-stage-swap"),
    path("stages/<int:stage_id>/edit/", stages.stage_edit, name="manage-stage-edit"),
    path("stages/<int:stage_id>/delete/", stages.stage_delete, name="manage-stage-delete"),
    path("stages/<int:stage_id>/advance/", stages.stage_advance, name="manage-stage-advance"),
    path(
        "stages/<int:stage_id>/next-round/",
        stages.stage_next_round,
        name="manage-stage-next-round",
    ),
    path("stages/<int:stage_id>/schedule/", stages.stage_schedule, name="manage-stage-schedule"),
    path("stages/<int:stage_id>/seeds/", seeding.stage_seeding, name="manage-stage-seeding"),
    path("players/", players.players, name="manage-players"),
    path("players/<int:player_id>/edit/", players.player_edit, name="manage-player-edit"),
    path("players/<int:player_id>/delete/", players.player_delete, name="manage-player-delete"),
    path("players/import/", imports.import_upload, name="manage-import"),
    path("players/import/confirm/", imports.import_confirm, name="manage-import-confirm"),
    path("players/import/example.csv", imports.import_example, name="manage-import-example"),
    path("teams/", players.teams, name="manage-teams"),
    path("teams/<int:team_id>/edit/", players.team_edit, name="manage-team-edit"),
    path("teams/<int:team_id>/delete/", players.team_delete, name="manage-team-delete"),
    path("check-in/", checkin.checkin, name="manage-checkin"),
    path("check-in/bulk/", checkin.bulk_checkin, name="manage-checkin-bulk"),
    path("audit/", audit.audit, name="manage-audit"),
    path("entries/<int:entry_id>/check-in/", checkin.entry_checkin, name="manage-entry-checkin"),
    path("entries/<int:entry_id>/withdraw/", checkin.entry_withdraw, name="manage-entry-withdraw"),
    path("entries/<int:entry_id>/link/", links.entry_link, name="manage-entry-link"),
    path(
        "entries/<int:entry_id>/link/renew/",
        links.entry_link_renew,
        name="manage-entry-link-renew",
    ),
    path("boards/", boards.boards, name="manage-boards"),
    path("staff/", staff.staff_view, name="manage-staff"),
    path("boards/<int:board_id>/service/", boards.board_service, name="manage-board-service"),
]
