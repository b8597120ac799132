"""Pages of the simulation's broadcast under /t/<slug>/."""

from django.urls import path

from simulation.broadcast import events, views

app_name = "broadcast"

urlpatterns: list = [
    path("<slug:slug>/overlay/", views.overlay, name="overlay"),
    path("<slug:slug>/overlay/events/", events.events, name="events"),
    path("<slug:slug>/overlay/panel/", views.overlay_panel, name="overlay_panel"),
    path("<slug:slug>/stream/queue/", views.queue_page, name="queue"),
    path("<slug:slug>/stream/hall/", views.hall_panel, name="hall_panel"),
    path("<slug:slug>/featured/<int:featured_id>/", views.match_page, name="match"),
    path("<slug:slug>/featured/<int:featured_id>/score/", views.score_page, name="score"),
    path("<slug:slug>/featured/<int:featured_id>/live/", views.live_block, name="live"),
]
