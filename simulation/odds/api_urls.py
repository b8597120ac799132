"""REST API routes of the simulation's odds, mounted at /api/."""

from django.urls import path

from simulation.odds.api import StageCutOddsView

urlpatterns: list = [
    path("stages/<int:pk>/cut-odds/", StageCutOddsView.as_view(), name="stage-cut-odds"),
]
