"""Ties on the cut line: who must shoot out for the last places that advance.

A tie inside the qualifiers or inside the eliminated does not need settling before the next stage,
but a tie across the cut does: WCC: "If there still is a tie, a Shoot-Out will be conducted", and
"Top scorer(s) after all shots are taken will advance". The organizers need to know, as soon as
the standings are final, which entries to call to the shoot-out board and how many of them go on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from tournaments.translation import _

from .pairing import EntryId


class RankedEntry(NamedTuple):
    """One standings row: entries still tied after every tiebreak share a rank."""

    entry: EntryId
    rank: int


@dataclass(frozen=True)
class CutLineTie:
    """The entries tied across the cut (empty when the cut is clean) and the places they share."""

    entries: tuple[EntryId, ...] = ()
    places: int = 0

    def __bool__(self) -> bool:
        return bool(self.entries)


def shootout_at_cut(rows: Iterable[tuple[EntryId, int]], advancing: int) -> CutLineTie:
    """Find the tie sitting on the cut when the top `advancing` entries go on.

    `rows` are (entry, rank) pairs in any order; standard (1, 1, 3) and dense (1, 1, 2) ranking
    both work. The returned group holds every entry sharing the rank that straddles the cut, in
    the order given, and `places` says how many of them advance.
    """
    if advancing < 0:
        raise ValueError(_("the number advancing cannot be negative"))
    ordered = sorted((RankedEntry(*row) for row in rows), key=lambda row: row.rank)
    for row in ordered:
        if row.rank < 1:
            raise ValueError(
                _("%(entry)s has rank %(rank)s; ranks start at 1")
                % {"entry": row.entry, "rank": row.rank}
            )
    if advancing == 0 or advancing >= len(ordered):
        return CutLineTie()
    last_in, first_out = ordered[advancing - 1], ordered[advancing]
    if last_in.rank != first_out.rank:
        return CutLineTie()
    tied = tuple(row.entry for row in ordered if row.rank == last_in.rank)
    above = sum(1 for row in ordered if row.rank < last_in.rank)
    return CutLineTie(entries=tied, places=advancing - above)
