"""The options of a hall screen, read from its address.

Each projector or TV in the hall is set up once, by typing an address such as
``/t/<slug>/screen/?show=now,clock&stage=12&seconds=15``, and then left alone for the day: the
address is its whole configuration. A mistyped option must therefore say at once which
parameter is wrong and what it takes (a 400 page on the screen itself), never fall back to
something else silently, and never be a server error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

#: The panels a screen can show, in the order of the help page. ``clock`` is a band along the
#: top; the others take the screen in turn.
PANELS: dict[str, str | Promise] = {
    "now": _("who plays where now: board, both sides with their ID numbers, the game's state"),
    "clock": _("the round clock, along the top"),
    "results": _("the latest official results, newest first"),
    "standings": _("the standings of the stage given by stage="),
    "calls": _(
        "the latest calls to players (“your match is on board 7”), for phones without notifications"
    ),
    "odds": _("each entry's chance of making the cut, of the stage given by stage="),
    "featured": _("the match featured on the stream"),
}
#: What a screen shows when its address says nothing: the calls too, since the players whose
#: phones take no notifications (an iPhone's browser, a phone without the app) read them here.
DEFAULT_SHOW = ("clock", "now", "results", "calls")
#: Seconds each page stays up: long enough to find one's name, short enough to see it all.
DEFAULT_SECONDS = 12
MIN_SECONDS = 4
MAX_SECONDS = 300
PARAMETERS = ("show", "stage", "seconds")
#: A number as a person types it: ASCII digits, short enough for any database column.
_NUMBER = re.compile(r"[0-9]{1,9}")


class ScreenOptionError(ValueError):
    """A parameter of the screen's address that cannot be used, and what it would accept."""

    def __init__(self, parameter: str, value: str, accepts: str) -> None:
        self.parameter = parameter
        self.value = value
        self.accepts = accepts
        super().__init__(self.message)

    @property
    def message(self) -> str:
        words = {"parameter": self.parameter, "value": self.value, "accepts": self.accepts}
        if self.parameter not in PARAMETERS:
            return gettext("There is no parameter “%(parameter)s”: %(accepts)s") % words
        if self.value:
            return (
                gettext("The parameter “%(parameter)s” cannot be “%(value)s”: %(accepts)s") % words
            )
        return gettext("The parameter “%(parameter)s” needs a value: %(accepts)s") % words


@dataclass(frozen=True)
class ScreenOptions:
    """One screen's configuration: its panels in the order they take turns, the stage it
    follows (None: every stage), and how long each page stays up."""

    show: tuple[str, ...]
    stage_id: int | None
    seconds: int

    @property
    def clock(self) -> bool:
        return "clock" in self.show

    @property
    def panels(self) -> tuple[str, ...]:
        """The panels that take turns (the clock stays up the whole time)."""
        return tuple(name for name in self.show if name != "clock")


def _single(query: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = query.get(name)
    if not values:
        return None
    if len(values) > 1:
        raise ScreenOptionError(name, ", ".join(values), gettext("give it once."))
    return values[0].strip()


def parse_screen_options(query: Mapping[str, Sequence[str]]) -> ScreenOptions:
    """The options of ``query`` (each parameter's list of values, as ``QueryDict.lists()``
    gives them); raises :class:`ScreenOptionError` on the first one that is wrong."""
    for name in query:
        if name not in PARAMETERS:
            raise ScreenOptionError(
                name,
                "",
                gettext("the screen takes only %(names)s.") % {"names": ", ".join(PARAMETERS)},
            )
    stage_id = _stage_id(_single(query, "stage"))
    show = _show(_single(query, "show"), stage_given=stage_id is not None)
    if "standings" in show and stage_id is None:
        raise ScreenOptionError(
            "stage", "", gettext("the standings panel needs the stage's number, e.g. stage=12.")
        )
    if "odds" in show and stage_id is None:
        raise ScreenOptionError(
            "stage", "", gettext("the odds panel needs the stage's number, e.g. stage=12.")
        )
    return ScreenOptions(show=show, stage_id=stage_id, seconds=_seconds(_single(query, "seconds")))


def _show(raw: str | None, *, stage_given: bool) -> tuple[str, ...]:
    if raw is None:
        return (*DEFAULT_SHOW, "standings") if stage_given else DEFAULT_SHOW
    names = [name.strip().lower() for name in raw.split(",")]
    accepts = gettext("a comma-separated list of %(names)s, e.g. show=now,clock,results.") % {
        "names": ", ".join(PANELS)
    }
    if not raw or any(name not in PANELS for name in names):
        raise ScreenOptionError("show", raw, accepts)
    return tuple(dict.fromkeys(names))


def _stage_id(raw: str | None) -> int | None:
    if raw is None:
        return None
    if not _NUMBER.fullmatch(raw) or int(raw) == 0:
        raise ScreenOptionError(
            "stage",
            raw,
            gettext("a stage's number, as in the stage's pages' addresses, e.g. stage=12."),
        )
    return int(raw)


def _seconds(raw: str | None) -> int:
    if raw is None:
        return DEFAULT_SECONDS
    accepts = gettext("a whole number of seconds from %(low)s to %(high)s, e.g. seconds=12.") % {
        "low": MIN_SECONDS,
        "high": MAX_SECONDS,
    }
    if not _NUMBER.fullmatch(raw) or not MIN_SECONDS <= int(raw) <= MAX_SECONDS:
        raise ScreenOptionError("seconds", raw, accepts)
    return int(raw)
