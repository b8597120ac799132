"""Numbers of the record as its pages print them: shares as percentages, 20s per round with
two decimals, and a pair of numbers joined by an en dash, as every score on the pages."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format

register = template.Library()

DASH = "\u2013"


@register.filter
def percent(share: float | None) -> str:
    """0.625 as "63 %" (in the visitor's number format); a dash when there is nothing to share."""
    if share is None:
        return DASH
    return f"{number_format(round(share * 100))}\u00a0%"


@register.filter
def rate(value: float | None) -> str:
    """A rate such as 20s per round with two decimals; a dash when nothing was counted."""
    if value is None:
        return DASH
    return number_format(value, decimal_pos=2)


@register.simple_tag
def pair(first: object, second: object) -> str:
    """Two sides' numbers joined by an en dash ("6" DASH "2")."""
    return f"{first}{DASH}{second}"
