"""Printable PDFs: scorecards for a round, blank and filled cards, standings, brackets, the
round's draw for the wall, player sheets and the player list with private-link QR codes.

Mounted at ``/t/<slug>/print/`` inside the ``scoring`` namespace; every view receives ``slug``.
"""

from django.urls import path

from scoring.printing import draw_sheet, player_list, player_sheet, views

ROUND = "stages/<int:stage_id>/rounds/<int:round_of_play>/"
BATCH = ROUND + "batches/<uuid:batch_id>/"

urlpatterns = [
    path("", views.print_index, name="print-index"),
    path("blank.pdf", views.blank_cards_pdf, name="print-blank"),
    path("players.pdf", player_list.player_list_pdf, name="print-player-list"),
    path("cards/<int:card_id>.pdf", views.card_pdf, name="print-card"),
    path(
        "entries/<int:entry_id>/sheet.pdf",
        player_sheet.player_sheet_pdf,
        name="print-player-sheet",
    ),
    path("stages/<int:stage_id>/cards.pdf", views.stage_cards_pdf, name="print-stage-cards"),
    path("stages/<int:stage_id>/standings.pdf", views.standings_pdf, name="print-standings"),
    path("stages/<int:stage_id>/bracket.pdf", views.bracket_pdf, name="print-bracket"),
    path(ROUND + "cards.pdf", views.round_cards_pdf, name="print-round-cards"),
    path(ROUND + "draw.pdf", draw_sheet.round_draw_pdf, name="print-round-draw"),
    path(ROUND + "batches/", views.batch_start, name="print-batch-start"),
    path(BATCH, views.batch_page, name="print-batch"),
    path(BATCH + "status/", views.batch_status, name="print-batch-status"),
    path(BATCH + "again/", views.batch_again, name="print-batch-again"),
    path(BATCH + "download/", views.batch_download, name="print-batch-download"),
]
