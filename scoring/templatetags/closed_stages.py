"""Closed stages on pages: the head referee's changes of closed results, and the notice above a
card of a closed stage.

The organizer's audit page (``tournaments.views.organizer.audit``) reads the history tables of
the tournament app and knows nothing of scoring; it shows these changes with
``{% load closed_stages %}{% closed_stage_changes tournament %}``.
"""

from __future__ import annotations

from typing import Any

from django import template

from scoring.progression.locks import closure
from scoring.progression.selectors import closed_changes
from tournaments.models import Stage, Tournament

register = template.Library()


@register.inclusion_tag("scoring/progression/_closed_changes.html")
def closed_stage_changes(tournament: Tournament) -> dict[str, Any]:
    """Every change of a closed result of the tournament, newest first."""
    return {"changes": closed_changes(stage__category__tournament=tournament)}


@register.inclusion_tag("scoring/progression/_closed_notice.html")
def closed_notice(stage: Stage) -> dict[str, Any]:
    """Above a card of a closed stage: why its rows can no longer be written."""
    return {"closure": closure(stage)}
