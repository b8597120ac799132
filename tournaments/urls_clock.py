"""The round clock: the staff's controls, the stream every screen and phone follows, and what
they poll when the stream fails.

Mounted at /t/<slug>/clock/ inside the ``tournaments`` namespace; every name starts with
``clock``.
"""

from django.urls import path

from tournaments.views import clock, clock_events

urlpatterns = [
    path("", clock.control, name="clock"),
    path("set/", clock.set_up, name="clock-set"),
    path("state.json", clock.state_json, name="clock-state"),
    path("now/", clock.partial, name="clock-partial"),
    path("events/", clock_events.events, name="clock-events"),
    path("<str:action>/", clock.act, name="clock-act"),
]
