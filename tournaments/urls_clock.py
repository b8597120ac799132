"""The round clock: the staff's controls, and what every screen and phone polls.

Mounted at /t/<slug>/clock/ inside the ``tournaments`` namespace; every name starts with
``clock``.
"""

from django.urls import path

from tournaments.views import clock

urlpatterns = [
    path("", clock.control, name="clock"),
    path("set/", clock.set_up, name="clock-set"),
    path("state.json", clock.state_json, name="clock-state"),
    path("now/", clock.partial, name="clock-partial"),
    path("<str:action>/", clock.act, name="clock-act"),
]
