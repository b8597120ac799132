"""Printable PDFs: scorecards for a round, blank and filled cards, standings, brackets.

Mounted at ``/t/<slug>/print/`` inside the ``scoring`` namespace; every view receives ``slug``.
"""

from django.urls import path

from scoring import views_pdf

ROUND = "stages/<int:stage_id>/rounds/<int:round_of_play>/"
BATCH = ROUND + "batches/<uuid:batch_id>/"

urlpatterns = [
    path("", views_pdf.print_index, name="print-index"),
    path("blank.pdf", views_pdf.blank_cards_pdf, name="print-blank"),
    path("cards/<int:card_id>.pdf", views_pdf.card_pdf, name="print-card"),
    path("stages/<int:stage_id>/cards.pdf", views_pdf.stage_cards_pdf, name="print-stage-cards"),
    path("stages/<int:stage_id>/standings.pdf", views_pdf.standings_pdf, name="print-standings"),
    path("stages/<int:stage_id>/bracket.pdf", views_pdf.bracket_pdf, name="print-bracket"),
    path(ROUND + "cards.pdf", views_pdf.round_cards_pdf, name="print-round-cards"),
    path(ROUND + "batches/", views_pdf.batch_start, name="print-batch-start"),
    path(BATCH, views_pdf.batch_page, name="print-batch"),
    path(BATCH + "status/", views_pdf.batch_status, name="print-batch-status"),
    path(BATCH + "download/", views_pdf.batch_download, name="print-batch-download"),
]
