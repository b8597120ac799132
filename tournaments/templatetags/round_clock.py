"""``{% round_clock tournament %}``: the round clock on any page, in one line of its template.

The hall screen and the players' card pages include it without their views knowing of the
clock; it reads the clock once (one query) as the page is rendered.
"""

from typing import Any

from django import template
from django.utils import timezone

from tournaments.models import RoundClock, Tournament
from tournaments.views.clock_display import clock_context

register = template.Library()


@register.inclusion_tag("tournaments/clock/_include.html")
def round_clock(tournament: Tournament) -> dict[str, Any]:
    clock = RoundClock.objects.filter(tournament=tournament).first()
    return clock_context(tournament, clock, timezone.now())
