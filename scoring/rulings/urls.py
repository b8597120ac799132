"""The ruling pages, mounted at ``/t/<slug>/rulings/`` inside the ``scoring`` namespace, so
names read ``scoring:rulings:<name>``."""

from django.urls import path

from scoring.rulings import views

app_name = "rulings"

urlpatterns = [
    path("", views.index, name="index"),
    path("entries/<int:entry_id>/", views.entry, name="entry"),
    path("entries/<int:entry_id>/withdraw/", views.withdraw, name="withdraw"),
    path("entries/<int:entry_id>/reinstate/", views.reinstate, name="reinstate"),
    path("games/<int:game_id>/", views.game, name="game"),
    path("games/<int:game_id>/forfeit/", views.forfeit_game, name="forfeit_game"),
    path("games/<int:game_id>/forfeit-round/", views.forfeit_round, name="forfeit_round"),
]
