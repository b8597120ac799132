"""Standings: rank the entries by points, then break ties with a chain of steps.

How a chain is applied (WCC Tie-Breaking Procedure, round-robin playoff): the entries tied on
points try the chain's steps in order. A step that splits nobody passes the group to the next
step. A step that splits the group sets apart every entry that is now alone; each sub-group still
tied goes back to the first step of the chain, among its own members only — WCC: "If a tie is
broken during Step 1, Step 2 or Step 3, but remaining ties still exist, they will be broken by
returning to Step 1 to consider only players who remain tied." A group still tied when it reaches
the shoot-out waits for one; shoot-outs are applied in the order they were shot, each to the group
of exactly the entries it names, and those still tied after it shoot again (WCC Shoot-Out
Procedure: "If still tied, repeat Shoot-out from the beginning"). A shoot-out naming entries
that are not such a group is refused, or, when asked (``set_aside_unsettled``: results corrected
after it was shot), set aside and listed in ``Standings.set_aside``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.translation import _

from .errors import EngineInputError
from .games import Game, check_game
from .shootouts import Shootout, UnsettledShootout
from .tallies import Credit, Tally, tally_games
from .tiebreaks import SHOOT_OUT, STEPS, resolve_chain


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings.

    ``tiebreak`` names the step that finally set the entry apart from those it was tied with on
    points; None when it was not tied on points, or is still tied.
    """

    rank: int
    entry: str
    games: int
    points: int
    twenties: int
    tiebreak: str | None


@dataclass(frozen=True, slots=True)
class Standings:
    """The rows in rank order, the groups still tied, each awaiting a shoot-out, and the
    shoot-outs set aside because they settle no tie any more (when asked to)."""

    rows: list[StandingRow]
    shootouts_required: list[list[str]]
    set_aside: list[UnsettledShootout] = field(default_factory=list)


@dataclass(slots=True)
class _Block:
    """Entries that stay together in the order: one entry, or a group still tied."""

    entries: list[str]
    tiebreak: str | None = None
    #: Set when a shoot-out split the group: the parts, best first.
    parts: list[_Block] | None = None

    def leaves(self) -> Iterator[_Block]:
        if self.parts is None:
            yield self
        else:
            for part in self.parts:
                yield from part.leaves()


def _split(group: Sequence[str], values: Mapping[str, int]) -> list[list[str]]:
    """The group in sub-groups of equal value, highest first, each sorted by name."""
    by_value: dict[int, list[str]] = {}
    for entry in group:
        by_value.setdefault(values[entry], []).append(entry)
    return [sorted(by_value[value]) for value in sorted(by_value, reverse=True)]


def _break_tie(
    group: list[str], chain: Sequence[str], tallies: Mapping[str, Tally]
) -> list[_Block]:
    """Order a group tied on points, restarting the chain for each sub-group left tied."""
    for name in chain:
        step = STEPS[name]
        if step.values is None:  # the shoot-out: settled later, from the shoot-outs given
            return [_Block(group)]
        parts = _split(group, step.values(group, tallies))
        if len(parts) == 1:
            continue
        blocks: list[_Block] = []
        for part in parts:
            if len(part) == 1:
                blocks.append(_Block(part, tiebreak=name))
            else:
                blocks.extend(_break_tie(part, chain, tallies))
        return blocks
    return [_Block(group)]


def _apply_shootouts(
    blocks: list[_Block],
    shootouts: Sequence[Shootout],
    chain: Sequence[str],
    tallies: Mapping[str, Tally],
    set_aside: list[UnsettledShootout] | None = None,
) -> None:
    """Settle the groups awaiting a shoot-out, in the order the shoot-outs were shot; one that
    names no group awaiting a shoot-out is refused, or appended to ``set_aside`` when given."""
    waiting = {frozenset(b.entries): b for b in blocks if len(b.entries) > 1}
    for number, shootout in enumerate(shootouts, 1):
        if not isinstance(shootout, Shootout):
            raise EngineInputError(
                _("shoot-out %(number)s must be a Shootout, not %(type)s")
                % {"number": number, "type": type(shootout).__name__}
            )
        where = _("shoot-out %(number)s (%(entries)s)") % {
            "number": number,
            "entries": shootout.label,
        }
        for entry in sorted(shootout.twenties):
            if entry not in tallies:
                raise EngineInputError(
                    _("%(where)s: %(entry)s is not an entry in these standings")
                    % {"where": where, "entry": entry}
                )
        if SHOOT_OUT not in chain:
            raise EngineInputError(
                _("%(where)s: the tiebreak chain %(chain)s has no shoot-out")
                % {"where": where, "chain": list(chain)}
            )
        block = waiting.pop(frozenset(shootout.twenties), None)
        if block is None and set_aside is not None:
            tied = tuple(tuple(b.entries) for b in _still_tied(blocks))
            set_aside.append(UnsettledShootout(number, shootout, tied))
            continue
        if block is None:
            groups = "; ".join(f"[{', '.join(b.entries)}]" for b in _still_tied(blocks))
            detail = (
                _("the groups tied are %(groups)s") % {"groups": groups}
                if groups
                else _("no entries are tied")
            )
            raise EngineInputError(
                _("%(where)s does not settle a tie; at that point %(detail)s")
                % {"where": where, "detail": detail}
            )
        block.parts = []
        for part in shootout.finishing_order():
            if len(part) == 1:
                block.parts.append(_Block(part, tiebreak=SHOOT_OUT))
            else:
                still_tied = _Block(part)
                block.parts.append(still_tied)
                waiting[frozenset(part)] = still_tied


def _still_tied(blocks: Iterable[_Block]) -> Iterator[_Block]:
    """Groups still waiting for a shoot-out, in standings order."""
    for block in blocks:
        for leaf in block.leaves():
            if len(leaf.entries) > 1:
                yield leaf


def compute_standings(
    games: Iterable[Game],
    *,
    method: str = "preliminary",
    chain: Sequence[str] | None = None,
    shootouts: Sequence[Shootout] = (),
    entries: Iterable[str] | None = None,
    discs: int | None = None,
    credits: Mapping[str, Credit] | None = None,
    set_aside_unsettled: bool = False,
) -> Standings:
    """Rank the entries of a stage.

    Points first (WCC Scoring: round points 2-1-0 added over the games), then the tiebreak chain:
    ``chain`` (a list of step names from :data:`.tiebreaks.STEPS`) when given, otherwise the
    chain of ``method``: ``"preliminary"`` (20s, then a shoot-out), ``"round-robin"``
    (head-to-head, 20s among the tied, 20s in all games, shoot-out) or ``"swiss"`` (Buchholz,
    20s, shoot-out). ``shootouts`` are applied in the order they were shot. ``entries`` adds
    entries that have no game yet (they show zeros). ``discs`` (per side) also checks each
    round's 20s and board scores against that many discs. ``credits`` adds byes (games, points,
    20s awarded without play) to the entries' totals; the Buchholz counts each bye as
    :func:`.tiebreaks.buchholz` says.

    A shoot-out naming entries that are not a group tied at that point is refused
    (``EngineInputError``: bad input to the command line); with ``set_aside_unsettled`` (the
    app, where results may be corrected after a shoot-out was shot) it counts for nothing and is
    listed in ``set_aside``, so the standings show the ties as they now are.

    Entries still tied after every step share a rank (1, 2, 3, 3, 5), are listed by name within
    it, and appear as a group in ``shootouts_required``.
    """
    steps = resolve_chain(method, chain)
    games = list(games)
    for number, game in enumerate(games, 1):
        check_game(game, number, discs)
    tallies = tally_games(games, () if entries is None else entries, credits)

    by_points: dict[int, list[str]] = {}
    for entry, tally in tallies.items():
        by_points.setdefault(tally.points, []).append(entry)
    blocks: list[_Block] = []
    for points in sorted(by_points, reverse=True):
        group = sorted(by_points[points])
        if len(group) == 1:
            blocks.append(_Block(group))
        else:
            blocks.extend(_break_tie(group, steps, tallies))
    set_aside: list[UnsettledShootout] | None = [] if set_aside_unsettled else None
    _apply_shootouts(blocks, shootouts, steps, tallies, set_aside)

    rows: list[StandingRow] = []
    required: list[list[str]] = []
    for leaf in (leaf for block in blocks for leaf in block.leaves()):
        rank = len(rows) + 1
        if len(leaf.entries) > 1:
            required.append(list(leaf.entries))
        for entry in leaf.entries:
            tally = tallies[entry]
            rows.append(
                StandingRow(rank, entry, tally.games, tally.points, tally.twenties, leaf.tiebreak)
            )
    return Standings(rows=rows, shootouts_required=required, set_aside=set_aside or [])
