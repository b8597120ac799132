"""A phone follows an entry's calls: ``/t/<slug>/calls/<entry>/follow/`` and ``.../stop/``;
an official calls a round's boards: ``/t/<slug>/calls/stages/<stage>/rounds/<n>/``."""

from django.urls import path

from tournaments.views import calls

urlpatterns = [
    path("<int:entry_id>/follow/", calls.follow, name="follow_calls"),
    path("<int:entry_id>/stop/", calls.stop, name="stop_calls"),
    path(
        "stages/<int:stage_id>/rounds/<int:round_of_play>/",
        calls.call_round_view,
        name="call_round",
    ),
]
