"""The cut odds in words, the same on the page, the player's line, the hall screen and the API.

Chances are said as whole percents, except where rounding would claim a certainty the finishes
do not show: a chance above 0 and below 1% is "<1", one above 99% and below 100% is ">99".
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from simulation.odds.services import FAILED, NO_CUT, NO_TABLE, NOT_DRAWN, NOT_NCA, NOT_PRELIMINARY
from tournaments.models import Stage


def percent(chance: float) -> str:
    """``0.64`` -> ``"64"``; never "0" or "100" for what is merely unlikely or likely."""
    value = 100 * chance
    if 0 < value < 1:
        return "<1"
    if 99 < value < 100:
        return ">99"
    return str(round(value))


def place_label(place: int) -> str:
    """The heading of a place's column: "1st", "2nd", "3rd"."""
    labels = {
        1: pgettext("place", "1st"),
        2: pgettext("place", "2nd"),
        3: pgettext("place", "3rd"),
    }
    return labels.get(place, pgettext("place", "%(place)sth") % {"place": place})


def freshness(results_seen: int) -> str:
    """How fresh the odds are: how many official results they stand on."""
    return ngettext("after %(count)s result", "after %(count)s results", results_seen) % {
        "count": results_seen
    }


def needs_sentence(cut: int, chance: float, needs: dict | None) -> str:
    """'Makes the top 16 in 64% of finishes; needs 5 of its last 8 points or 4 and 6 more 20s.'"""
    head = _("Makes the top %(cut)s in %(percent)s%% of finishes") % {
        "cut": cut,
        "percent": percent(chance),
    }
    if not needs:
        return head + "."
    values = {
        "points": needs["points"],
        "of": needs["of_points"],
        "twenties": needs.get("twenties"),
    }
    if needs.get("twenties") is None or not needs["points"]:
        tail = ngettext(
            "needs %(points)s of its last %(of)s points",
            "needs %(points)s of its last %(of)s points",
            needs["points"],
        )
    else:
        # The core's 20s are with one point fewer: "5 of its last 8 points or 4 and 6 more 20s".
        values["fewer"] = needs["points"] - 1
        tail = ngettext(
            "needs %(points)s of its last %(of)s points or %(fewer)s and %(twenties)s more 20s",
            "needs %(points)s of its last %(of)s points or %(fewer)s and %(twenties)s more 20s",
            needs["points"],
        )
    return _("%(head)s; %(tail)s.") % {"head": head, "tail": tail % values}


def reason(stage: Stage, status: str, error: str = "") -> str:
    """Why a stage shows no odds, in words ("" when it has them)."""
    if status == NOT_PRELIMINARY:
        return _(
            "No cut odds: they are worked out for preliminary stages, and %(stage)s is a stage "
            "of another kind (%(kind)s)."
        ) % {"stage": stage.name, "kind": stage.get_kind_display()}
    if status == NOT_NCA:
        return _(
            "No cut odds: the outcome model knows 2-1-0 games of 4 rounds (NCA), one game a "
            "match, and %(category)s plays %(system)s."
        ) % {"category": stage.category.name, "system": stage.category.get_scoring_system_display()}
    if status == NO_CUT:
        return _(
            "No cut odds: no later stage takes entries from %(stage)s, so there is no cut to make."
        ) % {"stage": stage.name}
    if status == NO_TABLE:
        return _("No cut odds yet: the outcome model has no table for these games (%(why)s).") % {
            "why": error
        }
    if status == FAILED:
        return _("No cut odds: %(why)s") % {"why": error}
    if status == NOT_DRAWN:
        return _("No cut odds yet: the stage is not drawn.")
    if status in ("", "missing"):
        return _("No cut odds yet: they are worked out after each verified result.")
    return ""
