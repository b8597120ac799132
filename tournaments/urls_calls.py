"""A phone follows an entry's calls: ``/t/<slug>/calls/<entry>/follow/`` and ``.../stop/``."""

from django.urls import path

from tournaments.views import calls

urlpatterns = [
    path("<int:entry_id>/follow/", calls.follow, name="follow_calls"),
    path("<int:entry_id>/stop/", calls.stop, name="stop_calls"),
]
