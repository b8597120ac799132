"""The plain values every format produces: who plays whom, and on which board.

Each format module (preliminary, round robin, Swiss, knockout) hands back `Pairing` values so that
the Django side translates one shape into matches, whatever format made them. A bye is a pairing
whose `b` is None: the scoring side decides what a bye is worth, so the format only says who had it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.translation import _

EntryId = str


@dataclass(frozen=True)
class Pairing:
    """One game (or match) between two entries; `b` is None for a bye; `c` is the third player
    of a three-player game (see `triples`).

    `a` is the entry listed first, the one that shoots first in the first round where the format
    cares (round robin colours, see `round_robin.berger_rounds`). `board` is filled in by
    `boards.assign_boards`.
    """

    a: EntryId
    b: EntryId | None
    board: int | None = None
    c: EntryId | None = None

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def entries(self) -> tuple[EntryId, ...]:
        if self.b is None:
            return (self.a,)
        return (self.a, self.b) if self.c is None else (self.a, self.b, self.c)

    @property
    def meetings(self) -> list[frozenset[EntryId]]:
        """Every pair of entries that meets at this board (three in a three-player game)."""
        found = self.entries
        return [pair_key(x, y) for i, x in enumerate(found) for y in found[i + 1 :]]


Round = list[Pairing]


def pair_key(a: EntryId, b: EntryId) -> frozenset[EntryId]:
    """The unordered key of a meeting, so that A v B and B v A count as the same pairing."""
    return frozenset((a, b))


def played_pairs(rounds: Iterable[Iterable[Pairing]]) -> set[frozenset[EntryId]]:
    """Every pair of entries that has already met in `rounds` (byes excluded)."""
    return {key for rnd in rounds for p in rnd for key in p.meetings}


def byes_taken(rounds: Iterable[Iterable[Pairing]]) -> list[EntryId]:
    """The entries that sat out, once per bye, in round order."""
    return [p.a for rnd in rounds for p in rnd if p.b is None]


def check_rounds(rounds: Sequence[Sequence[Pairing]], *, meetings: int = 1) -> None:
    """Raise ValueError if an entry appears twice in a round or a pair meets too often.

    Organizers sometimes edit a draw by hand; the Django side runs this before saving it.
    `meetings` is how often two entries may meet: 1, or 2 for a double round robin.
    """
    seen: dict[frozenset[EntryId], int] = {}
    for number, rnd in enumerate(rounds, start=1):
        in_round: set[EntryId] = set()
        for pairing in rnd:
            if pairing.a == pairing.b:
                raise ValueError(
                    _("round %(round)s: %(entry)s is paired with itself")
                    % {"round": number, "entry": pairing.a}
                )
            for entry in pairing.entries:
                if entry in in_round:
                    raise ValueError(
                        _("round %(round)s: %(entry)s is drawn twice")
                        % {"round": number, "entry": entry}
                    )
                in_round.add(entry)
            found = pairing.entries
            for i, x in enumerate(found):
                for y in found[i + 1 :]:
                    key = pair_key(x, y)
                    seen[key] = seen.get(key, 0) + 1
                    if seen[key] > meetings:
                        raise ValueError(
                            _("round %(round)s: %(a)s and %(b)s meet again")
                            % {"round": number, "a": x, "b": y}
                        )


def check_unique(entries: Sequence[EntryId]) -> None:
    """Raise ValueError naming the first entry listed twice: every format needs distinct ids."""
    seen: set[EntryId] = set()
    for entry in entries:
        if entry in seen:
            raise ValueError(_("entry %(entry)s is listed twice") % {"entry": repr(entry)})
        seen.add(entry)
