"""Pages of the simulation's odds under /t/<slug>/."""

from django.urls import path

from simulation.odds import views

app_name = "odds"

urlpatterns: list = [
    path("<slug:slug>/odds/stages/<int:stage_id>/", views.stage_page, name="stage"),
    path("<slug:slug>/odds/stages/<int:stage_id>/block/", views.stage_block, name="block"),
    path(
        "<slug:slug>/odds/stages/<int:stage_id>/entries/<int:entry_id>/",
        views.entry_line,
        name="entry",
    ),
    path("<slug:slug>/odds/stages/<int:stage_id>/hall/", views.hall_panel, name="hall"),
]
