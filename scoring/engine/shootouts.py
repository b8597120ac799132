"""Shoot-outs: the last resort of the WCC Tie-Breaking Procedure.

WCC Shoot-Out Procedure: "All tied contestants will use 12 opportunities (6 each for doubles) to
shoot for the "20" at the same board. ... Top scorer(s) after all shots are taken will advance.
If still tied, repeat Shoot-out from the beginning."

A shoot-out settles the tie among exactly the entries it names (``standings.compute_standings``
applies them in the order shot). Results corrected after it was shot may leave those entries no
longer tied with each other alone: the shoot-out then settles nothing, and a caller that keeps
its records asks for it to be set aside (:class:`UnsettledShootout`) rather than refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.translation import _

from .errors import EngineInputError

#: 12 shots for a singles player, 6 for each partner of a doubles team: 12 per entry either way.
SHOTS_PER_ENTRY = 12


@dataclass(frozen=True, slots=True)
class Shootout:
    """One shoot-out: the 20s each entry in it made, by entry name."""

    twenties: dict[str, int]

    def __post_init__(self) -> None:
        if not isinstance(self.twenties, dict) or len(self.twenties) < 2:
            raise EngineInputError(
                _("a shoot-out needs the 20s of at least two tied entries, by name")
            )
        for entry, made in self.twenties.items():
            if not isinstance(entry, str) or not entry:
                raise EngineInputError(
                    _("shoot-out entries must be names, not %(entry)s") % {"entry": repr(entry)}
                )
            if isinstance(made, bool) or not isinstance(made, int) or made < 0:
                made_ok = False
            else:
                made_ok = made <= SHOTS_PER_ENTRY
            if not made_ok:
                raise EngineInputError(
                    _(
                        "%(entry)s made %(made)s 20s; a shoot-out is %(shots)s shots per entry "
                        "(6 each for doubles), so 0 to 12"
                    )
                    % {"entry": entry, "made": repr(made), "shots": SHOTS_PER_ENTRY}
                )

    @property
    def label(self) -> str:
        """The entries, as messages name the shoot-out: ``CARL, DAN``."""
        return ", ".join(sorted(self.twenties))

    def finishing_order(self) -> list[list[str]]:
        """The entries grouped by 20s made, most first; each group sorted by name.

        The top scorers advance; a group of more than one is still tied and shoots again.
        """
        by_made: dict[int, list[str]] = {}
        for entry, made in self.twenties.items():
            by_made.setdefault(made, []).append(entry)
        return [sorted(by_made[made]) for made in sorted(by_made, reverse=True)]


@dataclass(frozen=True, slots=True)
class UnsettledShootout:
    """A shoot-out that settles no tie any more, set aside instead of applied.

    ``number`` is its place (from 1) in the shoot-outs given; ``tied`` the groups still tied when
    it was reached, in standings order, each sorted by name, so that a caller can say where the
    entries it names stand now (tied with others, or no longer tied at all)."""

    number: int
    shootout: Shootout
    tied: tuple[tuple[str, ...], ...]

    def now_tied(self) -> tuple[tuple[str, ...], ...]:
        """The groups tied at that point that hold an entry of this shoot-out."""
        named = set(self.shootout.twenties)
        return tuple(group for group in self.tied if named & set(group))
