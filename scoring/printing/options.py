"""Print options read from a query string: paper size, board-score columns, blank card counts.

Every value is checked here so a typo in a URL gets a message naming the parameter and the values
it accepts, instead of a half-printed PDF or a server error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.printing.errors import PrintError

PAPERS = {"a4": "A4", "letter": "Letter"}
#: Blank cards are public: the cap keeps one request to a few seconds of rendering.
MAX_BLANK_CARDS = 100
MAX_BLANK_GAMES = 12
MAX_ROUNDS = 5


@dataclass(frozen=True)
class PrintOptions:
    """How a card or sheet is laid out: ``paper`` is a CSS page size keyword (A4 or Letter);
    ``scores`` adds a board-score column next to the points and 20s of every round."""

    paper: str = "a4"
    scores: bool = False
    #: Scheme and host of the site ("https://example.org"), put before the private-link paths
    #: printed as QR codes; the print views take it from the request.
    site: str = ""

    @property
    def page_size(self) -> str:
        return PAPERS[self.paper]

    def as_query(self) -> dict[str, str]:
        """The options as query parameters, to carry them from one link to the next."""
        query = {"paper": self.paper}
        if self.scores:
            query["scores"] = "1"
        return query

    def as_task_kwargs(self) -> dict[str, object]:
        """The options as JSON-friendly keyword arguments for a Celery task."""
        return {"paper": self.paper, "scores": self.scores, "site": self.site}


@dataclass(frozen=True)
class BlankOptions:
    """Blank cards: how many, how many game rows each, rounds per game, and for which category
    (its name, rounds per game and number of partners are printed when one is given)."""

    count: int = 4
    games: int = 4
    rounds: int | None = None
    category_id: int | None = None


def parse_print_options(query: Mapping[str, str]) -> PrintOptions:
    paper = (query.get("paper") or "a4").strip().lower()
    if paper not in PAPERS:
        raise PrintError(
            _("paper=%(paper)s is not a paper size this printer knows; use one of %(papers)s.")
            % {"paper": repr(paper), "papers": ", ".join(PAPERS)}
        )
    return PrintOptions(paper=paper, scores=_flag(query, "scores"))


def parse_blank_options(query: Mapping[str, str]) -> BlankOptions:
    rounds = query.get("rounds")
    return BlankOptions(
        count=_whole(query, "count", default=4, low=1, high=MAX_BLANK_CARDS),
        games=_whole(query, "games", default=4, low=1, high=MAX_BLANK_GAMES),
        rounds=_whole(query, "rounds", default=4, low=1, high=MAX_ROUNDS) if rounds else None,
        category_id=parse_category_id(query),
    )


def parse_category_id(query: Mapping[str, str]) -> int | None:
    """The ``category`` id a print is limited to, or None for the whole tournament."""
    if not query.get("category"):
        return None
    return _whole(query, "category", default=0, low=1, high=2**62)


def _flag(query: Mapping[str, str], name: str) -> bool:
    value = (query.get(name) or "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise PrintError(
        _("%(name)s=%(value)s: use 1 (yes) or 0 (no).") % {"name": name, "value": repr(value)}
    )


def _whole(query: Mapping[str, str], name: str, *, default: int, low: int, high: int) -> int:
    raw = query.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise PrintError(
            _("%(name)s=%(value)s is not a whole number.") % {"name": name, "value": repr(raw)}
        ) from None
    if not low <= value <= high:
        raise PrintError(
            _("%(name)s=%(value)s is out of range; give a number from %(low)s to %(high)s.")
            % {"name": name, "value": value, "low": low, "high": high}
        )
    return value
