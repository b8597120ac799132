"""What a bye or a walkover is worth, for the pages that say it in a sentence (a card's walkover
row, the head referee's rulings): ``{% load walkovers %}{{ stage|walkover_points }}``.

The value is the category's scoring system's (``scoring.results.rules.unplayed_game``), never
the stage's bye points read directly: in a game to 100 a walkover is won 100-0, whatever figure
the stage keeps for an NCA bye.
"""

from __future__ import annotations

from django import template

from scoring.results.rules import unplayed_game
from tournaments.models import Stage

register = template.Library()


@register.filter
def walkover_points(stage: Stage) -> int:
    """The points a bye or a walkover credits its winner in ``stage``."""
    return unplayed_game(stage).winner


@register.filter
def walkover_twenties(stage: Stage) -> int:
    """The 20s a bye or a walkover credits its winner in ``stage``."""
    return unplayed_game(stage).twenties
