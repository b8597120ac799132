"""Numbers of the record as its pages print them: shares as percentages, 20s per round with
two decimals, and a pair of numbers joined by an en dash, as every score on the pages."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

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


# A game's people and rounds are drawn here rather than by included templates: a profile can
# list hundreds of games, and an include per name and per round made its page slow to render.


@register.simple_tag
def person_link(ref) -> str:
    """A name as results show it (``PersonRef``): linked to the profile when it is public."""
    if ref.public:
        return format_html(
            '<a href="{}">{}</a>', reverse("person-profile", args=[ref.id]), ref.name
        )
    return conditional_escape(ref.name)


@register.simple_tag
def people_links(refs) -> str:
    """A side of a game: one person, or two partners joined by "and"."""
    joiner = str(format_html(" {} ", gettext("and")))
    # Each part is safe: a link or a name escaped by person_link.
    return mark_safe(joiner.join(str(person_link(ref)) for ref in refs))


@register.simple_tag
def event_link(name: str, tournament) -> str:
    """An event's name, linked to its tournament's page when the game was played in this app."""
    if tournament is None:
        return conditional_escape(name)
    url = reverse("tournaments:detail", args=[tournament.slug])
    return format_html('<a href="{}">{}</a>', url, name)


@register.simple_tag
def rounds_list(rounds) -> str:
    """A game's rounds from one side: a box per round with its points over its 20s; the round
    played with the hammer is framed, one time ran out on (0-0) is greyed."""
    if not rounds:
        return format_html('<span class="muted">{}</span>', gettext("totals only"))
    items = []
    for number, r in enumerate(rounds, start=1):
        if not r.contested:
            title = gettext("Time ran out before a disc was shot")
            items.append(format_html('<li class="void" title="{}">0{}0</li>', title, DASH))
            continue
        if r.hammer is None:
            title = gettext("Round %(number)s") % {"number": number}
        elif r.hammer:
            title = gettext("Round %(number)s, with the hammer") % {"number": number}
        else:
            title = gettext("Round %(number)s, without the hammer") % {"number": number}
        css = r.outcome + (" hammer" if r.hammer else "")
        items.append(
            format_html(
                '<li class="{}" title="{}">{}{}{}<small>{}{}{}</small></li>',
                css,
                title,
                r.points_for,
                DASH,
                r.points_against,
                r.twenties_for,
                DASH,
                r.twenties_against,
            )
        )
    # Each item was built by format_html, which escaped what it holds.
    return format_html('<ol class="rounds">{}</ol>', mark_safe("".join(items)))
