"""Shoot-outs on the organizer's audit page.

The audit page (``tournaments.views.organizer.audit``) reads the history tables of the tournament
app and knows nothing of scoring; it shows who recorded each shoot-out, when, and what each entry
made with ``{% load shootout_history %}{% shootout_changes tournament %}``.
"""

from __future__ import annotations

from typing import Any

from django import template

from scoring.progression.shootout_history import shootout_changes as changes_of
from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("scoring/progression/_shootout_changes.html")
def shootout_changes(tournament: Tournament) -> dict[str, Any]:
    """Every shoot-out of the tournament recorded, changed or deleted, newest first."""
    return {"changes": changes_of(tournament)}
