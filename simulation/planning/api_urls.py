"""REST API routes of the simulation's planning, mounted at /api/."""

from django.urls import path

from simulation.planning import api

urlpatterns: list = [
    path("tournaments/<slug:slug>/plans/", api.PlansView.as_view(), name="planning-runs"),
    path("tournaments/<slug:slug>/plans/<int:pk>/", api.PlanView.as_view(), name="planning-run"),
]
