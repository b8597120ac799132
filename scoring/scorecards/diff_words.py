"""The rounds that cards of one game tell differently, in words (``diffs`` finds them): one
wording for the dispute queue, the warning before a contradicting save and the paper entry's
question, "Round 3: Anna's card 2-0, 20s 3-1; Ben's card 0-2, 20s 1-3"."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scoring.scorecards.diffs import RoundDiff
from scoring.templatetags.scoring_labels import round_text


def card_of(name: str) -> str:
    """A card named after its owner: "Anna's card"."""
    return pgettext("within a sentence", "%(name)s's card") % {"name": name}


def diff_line(diff: RoundDiff, labels: Sequence[str]) -> str:
    """One differing round: what each card (``labels``, in the order of the diff's versions)
    says of it; "not played" where a card stops before it."""
    told = "; ".join(
        _("%(card)s %(round)s") % {"card": label, "round": round_text(version)}
        for label, version in zip(labels, diff.versions, strict=True)
    )
    return pgettext("round of a game", "Round %(number)s: %(told)s") % {
        "number": diff.number,
        "told": told,
    }


def diff_lines(diffs: Sequence[RoundDiff], labels: Sequence[str]) -> list[str]:
    """Every differing round, in the order of play (see :func:`diff_line`)."""
    return [diff_line(diff, labels) for diff in diffs]


def rounds_named(diffs: Sequence[RoundDiff]) -> str:
    """The differing rounds' numbers, for a heading: "rounds 2 and 3", "round 4"."""
    numbers = [str(diff.number) for diff in diffs]
    if len(numbers) == 1:
        return pgettext("round of a game", "round %(number)s") % {"number": numbers[0]}
    return _("rounds %(first)s and %(last)s") % {
        "first": ", ".join(numbers[:-1]),
        "last": numbers[-1],
    }
