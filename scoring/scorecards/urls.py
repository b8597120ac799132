"""Scorecard pages: filling at the board, validation, the scoring table, disputes.

Mounted at ``/t/<slug>/cards/`` inside the ``scoring`` namespace, so names read
``scoring:cards:<name>``.
"""

from django.urls import path

from scoring.scorecards import paper, views

app_name = "cards"

ROW = "<int:stage_id>/<int:entry_id>/<int:game_id>"

urlpatterns = [
    path("", views.index, name="index"),
    path("table/", views.table, name="table"),
    path("table/<int:card_id>/verify/", views.verify, name="verify_card"),
    path("table/<int:card_id>/void/", views.void, name="void_card"),
    path("table/paper/", paper.paper_entry, name="paper"),
    path(f"table/paper/{ROW}/", paper.paper_row, name="paper_row"),
    path("table/rows/<int:row_id>/confirm/", paper.confirm, name="confirm_paper_row"),
    path("rows/<int:row_id>/reopen/", views.reopen, name="reopen_row"),
    path("disputes/", views.disputes, name="disputes"),
    path("disputes/<int:game_id>/resolve/", views.resolve, name="resolve_dispute"),
    path("<int:stage_id>/<int:entry_id>/", views.card, name="card"),
    path(f"{ROW}/fill/", views.fill, name="fill_row"),
    path(f"{ROW}/total/", views.total, name="row_total"),
    path(f"{ROW}/validate/", views.validate, name="validate_row"),
    path(f"{ROW}/correct/", views.correct, name="correct_row"),
    path(f"{ROW}/history/", views.history, name="row_history"),
]
