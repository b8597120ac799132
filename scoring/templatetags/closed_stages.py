"""Closed stages on pages: the notice above a card of a closed stage."""

from __future__ import annotations

from typing import Any

from django import template

from scoring.progression.locks import closure
from tournaments.models import Stage

register = template.Library()


@register.inclusion_tag("scoring/progression/_closed_notice.html")
def closed_notice(stage: Stage) -> dict[str, Any]:
    """Above a card of a closed stage: why its rows can no longer be written."""
    return {"closure": closure(stage)}
