"""Pages of the simulation's planning under /t/<slug>/."""

from django.urls import path

from simulation.planning import views

app_name = "planning"

urlpatterns: list = [
    path("<slug:slug>/plan/", views.plan, name="plan"),
    path("<slug:slug>/plan/<int:run_id>/", views.run_page, name="run"),
    path("<slug:slug>/plan/<int:run_id>/status/", views.run_status, name="run_status"),
]
