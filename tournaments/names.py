"""The order of people's names: the one sort key of every list of players, teams and entries.

A list sorted by the database (or by Python's own string order) puts every accented capital
after Z: Åkesson, Ångström, Ó Briain, Ölçer, Østby, Łukasiewicz and Šimek came after Zimmermann,
and Bélanger after Brubacher. People look a name up the way a phone book files it: by the
letters without their accents. :func:`folded` takes the accents off (Unicode NFKD, then the
combining marks dropped) and spells out the letters that are not a base letter with a mark
(Ø, Ł, Đ, ß, Æ, Œ, Þ ...), case-folded; ties keep the accented spelling apart so that the order
is always the same.

No database collation does this alike on SQLite and PostgreSQL, and the lists are a
tournament's (a few hundred entries): they are sorted here, in Python, after the query.
Pure: no Django, so the engine-side and the page-side code sort alike.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

#: Letters that NFKD leaves whole, spelled as a reader files them.
_SPELLED = str.maketrans(
    {
        "Ø": "O",
        "ø": "o",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        "Ð": "D",
        "ð": "d",
        "Þ": "Th",
        "þ": "th",
        "ß": "ss",
        "ẞ": "SS",
        "Æ": "AE",
        "æ": "ae",
        "Œ": "OE",
        "œ": "oe",
        "\u0131": "i",  # dotless i (Turkish)
        "Ħ": "H",
        "ħ": "h",
        "Ŧ": "T",
        "ŧ": "t",
        "Ŋ": "N",
        "ŋ": "n",
    }
)


def folded(text: str) -> str:
    """``text`` as names are filed: without accents, special letters spelled out, case-folded,
    spacing collapsed ("Ó  Briain" -> "o briain", "Østby" -> "ostby", "Łukasiewicz" ->
    "lukasiewicz")."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPELLED))
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.split()).casefold()


def name_key(*parts: str) -> tuple[str, ...]:
    """The sort key of a name given in filing order (last name, then first name): the folded
    parts first, then the parts as written, so that "Müller" and "Muller" keep one order."""
    return (*(folded(p or "") for p in parts), *((p or "").casefold() for p in parts))


class _Person(Protocol):
    first_name: str
    last_name: str


def person_key(player: _Person) -> tuple[str, ...]:
    """A player's place in a list: by last name, then first name."""
    return name_key(player.last_name, player.first_name)


def entry_key(entry: Any) -> tuple[Any, ...]:
    """An entry's place in a list: the player's last and first name, or for a team the first
    partner's then the second's (as the team's card lists them); the entry's id last, so that
    two entries of one name keep one order. ``entry`` is a ``tournaments.models.Entry`` with
    its player or its team's players loaded."""
    people = [entry.player] if entry.player_id else [entry.team.player_one, entry.team.player_two]
    parts = [part for person in people for part in (person.last_name, person.first_name)]
    return (*name_key(*parts), entry.id)


T = TypeVar("T")


def by_name(entries: Iterable[T]) -> list[T]:
    """Entries in the order of their names (see :func:`entry_key`)."""
    return sorted(entries, key=entry_key)
