"""Words for what the scoring code keeps as keys and numbers: tiebreak steps, and a round as a
scorecard tells it.

The standings keep the tiebreak step that set an entry apart by its key ("twenties-among-tied");
people read "20s among tied". Both sides' numbers are joined by an en dash (U+2013), as every
other score on the pages.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.scorecards.signatures import signer_words

register = template.Library()

DASH = "\u2013"

#: The tiebreak steps of ``scoring.engine.tiebreaks.STEPS`` as the standings print them.
#: In the visitor's language (translated when shown).
TIEBREAK_LABELS = {
    "twenties": pgettext_lazy("tiebreak", "20s"),
    "head-to-head": _("head-to-head"),
    "twenties-among-tied": _("20s among tied"),
    "twenties-all-games": _("20s in all games"),
    "shoot-out": pgettext_lazy("tiebreak", "shoot-out"),
    "buchholz": _("Buchholz"),
    "game-points": _("game points"),
}


@register.filter
def tiebreak_label(step: str | None) -> str:
    """The readable name of a tiebreak step; an unknown key is shown as it is, never hidden."""
    if not step:
        return ""
    return str(TIEBREAK_LABELS.get(step, step))


@register.filter
def tiebreak_labels(chain: Iterable[str] | None) -> str:
    """A tiebreak chain in words, in order: "20s, shoot-out"."""
    return ", ".join(tiebreak_label(step) for step in chain or ())


@register.filter
def chart_words(text: str | None) -> str:
    """A text the standings chart keeps in English (its legend, laid out once for every
    visitor) in the visitor's language."""
    return gettext(text) if text else ""


@register.filter
def dashed(values: Iterable[Any] | None) -> str:
    """Each side's figure joined by en dashes: "8-4" for two sides, "8-4-3" for the three
    players of a three-player game."""
    return DASH.join(str(v) for v in values or ())


@register.filter
def round_text(r: Mapping[str, Any] | None) -> str:
    """A round in the words of a scorecard: "2-0, 20s 3-1, board 65-40" ("2-1-0, ..." in a
    three-player game), each dash an en dash."""
    if r is None:
        return gettext("not played")
    if r.get("time_expired"):
        zeros = dashed([0] * len(r.get("points") or (0, 0)))
        return gettext("time expired (%(points)s)") % {"points": zeros}
    figures = {"points": dashed(r["points"]), "twenties": dashed(r["twenties"])}
    if r.get("score"):
        figures["board"] = dashed(r["score"])
        return gettext("%(points)s, 20s %(twenties)s, board %(board)s") % figures
    return gettext("%(points)s, 20s %(twenties)s") % figures


@register.filter
def signer(row) -> str:
    """Who signed a row on a phone, and where (``scoring.scorecards.signatures``)."""
    return signer_words(row)
