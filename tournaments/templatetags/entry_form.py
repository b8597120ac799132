"""The public entry form's small signs on other pages: whether a tournament's form takes
requests now (the public page's "Enter this tournament"), and how many requests wait for the
organizer's decision (the dashboard's count)."""

from __future__ import annotations

from django import template

from tournaments.services import entry_requests

register = template.Library()


@register.simple_tag
def entry_form_open(tournament) -> bool:
    """``{% entry_form_open tournament as open %}``"""
    return tournament is not None and bool(entry_requests.open_categories(tournament))


@register.simple_tag
def requests_waiting(tournament) -> int:
    """``{% requests_waiting tournament as waiting %}``"""
    return entry_requests.waiting_for_organizer(tournament) if tournament is not None else 0
