"""Single-elimination brackets: seeding, byes, best-of-N matches and advancing winners.

The playoff after the preliminaries (or after the round-robin pools) is a knockout. Organizers
need the standard seeding, in which seed 1 meets seed 16 and 8 meets 9 in a round of 16 and seeds 1
and 2 can only meet in the final, byes for the top seeds when the field is not a power of two, an
optional match for third place, and the WCC crossover from two pools (semifinals 1A v 2B and
1B v 2A). WCC: "A championship match will be played best two out of three games"; each match
carries its `best_of` and the scoring engine decides games (a tied playoff game gets a 5th round).

The bracket is plain data: rounds of matches whose two slots either hold a seeded entry or name
where the entry comes from ("winner of SF1", "loser of SF2"), which is what a view needs to draw
it. `advance` fills the slots from the results of decided matches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from tournaments.translation import _

from .pairing import EntryId, check_unique
from .round_robin import pool_label

Take = Literal["winner", "loser"]
THIRD_PLACE = "3P"


@dataclass(frozen=True)
class Source:
    """Where a slot's entry comes from: the winner or the loser of another match."""

    match: str
    take: Take = "winner"

    def describe(self) -> str:
        if self.take == "loser":
            return _("Loser of %(match)s") % {"match": self.match}
        return _("Winner of %(match)s") % {"match": self.match}


@dataclass(frozen=True)
class Slot:
    """One side of a match: a seeded entry, or an entry still to come from `source`.

    `entry` is filled in by `advance` once the source match is decided; `source` stays, so that a
    drawn bracket can still show the path. `label` is what to print for the seed (e.g. "1A").
    """

    entry: EntryId | None = None
    seed: int | None = None
    source: Source | None = None
    label: str | None = None

    def describe(self) -> str:
        if self.entry is not None:
            return self.entry
        if self.source is not None:
            return self.source.describe()
        return "?"


@dataclass(frozen=True)
class Match:
    """A knockout match: `position` counts from 0, top to bottom, within its round."""

    id: str
    round: int
    position: int
    best_of: int
    a: Slot
    b: Slot
    winner: EntryId | None = None

    @property
    def entries(self) -> tuple[EntryId | None, EntryId | None]:
        return self.a.entry, self.b.entry

    @property
    def ready(self) -> bool:
        """Both entries known and no winner yet: this match can be played now."""
        return self.a.entry is not None and self.b.entry is not None and self.winner is None

    @property
    def loser(self) -> EntryId | None:
        if self.winner is None:
            return None
        return self.b.entry if self.winner == self.a.entry else self.a.entry


@dataclass(frozen=True)
class Bracket:
    """Rounds of matches, first round first; the third-place match sits after the final."""

    rounds: tuple[tuple[Match, ...], ...]
    round_names: tuple[str, ...]

    @property
    def matches(self) -> list[Match]:
        return [match for rnd in self.rounds for match in rnd]

    def match(self, match_id: str) -> Match:
        for match in self.matches:
            if match.id == match_id:
                return match
        raise KeyError(match_id)

    @property
    def final(self) -> Match:
        return self.match("F")

    def round_name_of(self, match_id: str) -> str:
        """The name of the round a match is played in ("Quarterfinals", "Third place"), as
        the bracket was drawn: the one source of the names that pages and sheets print."""
        if match_id == THIRD_PLACE:
            return _("Third place")
        for name, rnd in zip(self.round_names, self.rounds, strict=True):
            if any(match.id == match_id for match in rnd):
                return name
        raise KeyError(match_id)

    def ready(self) -> list[Match]:
        """The matches that can be played now, in bracket order."""
        return [match for match in self.matches if match.ready]


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two `size`: 8 gives 1, 8, 4, 5, 2, 7, 3, 6.

    Adjacent pairs meet in the first round. Each step doubles the list and puts next to every seed
    s its complement (2 * length + 1 - s), which keeps the top two seeds in opposite halves, the top
    four in different quarters, and so on.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(_("a bracket size must be a power of two"))
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def round_name(matches_in_round: int) -> str:
    if matches_in_round == 1:
        return _("Final")
    if matches_in_round == 2:
        return _("Semifinals")
    if matches_in_round == 4:
        return _("Quarterfinals")
    return _("Round of %(entries)s") % {"entries": 2 * matches_in_round}


def _match_id(matches_in_round: int, position: int) -> str:
    if matches_in_round == 1:
        return "F"
    prefix = {2: "SF", 4: "QF"}.get(matches_in_round, f"R{2 * matches_in_round}-")
    return f"{prefix}{position + 1}"


def _check_best_of(best_of: int) -> None:
    if best_of < 1 or best_of % 2 == 0:
        raise ValueError(
            _("best of %(best_of)s: a match needs an odd, positive number of games")
            % {"best_of": best_of}
        )


def single_elimination(
    seeds: Sequence[EntryId],
    *,
    best_of: int | Sequence[int] = 1,
    third_place: bool = False,
    labels: Mapping[EntryId, str] | None = None,
) -> Bracket:
    """A knockout bracket for `seeds` (best first) with standard seeding.

    When the field is not a power of two the top seeds get byes: they are placed straight into
    the second round, and the first round holds only the matches that are played. `best_of` is one
    number for every match or one per round, first round first; the third-place match (losers of
    the semifinals) plays as many games as the final. `labels` gives each entry's seed label for
    drawing (e.g. "1A"); the default is the seed number.
    """
    check_unique(seeds)
    count = len(seeds)
    if count < 2:
        raise ValueError(_("a knockout needs at least two entries"))
    size = 1
    while size < count:
        size *= 2
    total_rounds = size.bit_length() - 1
    per_round = [best_of] * total_rounds if isinstance(best_of, int) else [int(n) for n in best_of]
    if len(per_round) != total_rounds:
        raise ValueError(
            _("best_of lists %(listed)s rounds; this bracket has %(rounds)s")
            % {"listed": len(per_round), "rounds": total_rounds}
        )
    for n in per_round:
        _check_best_of(n)
    if third_place and count < 4:
        raise ValueError(_("a third-place match needs at least four entries"))

    def seeded(seed: int) -> Slot:
        entry = seeds[seed - 1]
        label = labels.get(entry) if labels else None
        return Slot(entry=entry, seed=seed, label=label or str(seed))

    # The slots feeding each bracket line: a seeded entry or the winner of the match there.
    order = bracket_order(size)
    feeders = [seeded(s) if s <= count else None for s in order]
    rounds: list[tuple[Match, ...]] = []
    names: list[str] = []
    for number in range(1, total_rounds + 1):
        in_round = len(feeders) // 2
        matches: list[Match] = []
        next_feeders: list[Slot | None] = []
        for position in range(in_round):
            a, b = feeders[2 * position], feeders[2 * position + 1]
            if a is None or b is None:  # a bye: the seeded entry goes straight on
                next_feeders.append(a or b)
                continue
            match = Match(
                id=_match_id(in_round, position),
                round=number,
                position=position,
                best_of=per_round[number - 1],
                a=a,
                b=b,
            )
            matches.append(match)
            next_feeders.append(Slot(source=Source(match.id, "winner")))
        if number == total_rounds and third_place:
            semis = rounds[-1]
            matches.append(
                Match(
                    id=THIRD_PLACE,
                    round=number,
                    position=1,
                    best_of=per_round[-1],
                    a=Slot(source=Source(semis[0].id, "loser")),
                    b=Slot(source=Source(semis[1].id, "loser")),
                )
            )
        rounds.append(tuple(matches))
        names.append(round_name(in_round))
        feeders = next_feeders
    return Bracket(rounds=tuple(rounds), round_names=tuple(names))


def crossover_seeds(pools: Sequence[Sequence[EntryId]], advancing: int) -> list[EntryId]:
    """Seed the top `advancing` of each pool by finishing place, then by pool.

    Two pools and two advancing give 1A, 1B, 2A, 2B, which standard seeding pairs as 1A v 2B and
    1B v 2A: the WCC crossover, with pool winners kept apart until the final.
    """
    if advancing < 1:
        raise ValueError(_("at least one entry per pool must advance"))
    for index, pool in enumerate(pools):
        if len(pool) < advancing:
            raise ValueError(
                _("pool %(pool)s has %(entries)s entries; %(advancing)s cannot advance")
                % {"pool": pool_label(index), "entries": len(pool), "advancing": advancing}
            )
    return [pool[place] for place in range(advancing) for pool in pools]


def pool_crossover(
    pools: Sequence[Sequence[EntryId]],
    advancing: int = 2,
    *,
    best_of: int | Sequence[int] = 1,
    third_place: bool = False,
) -> Bracket:
    """The knockout after pool play: each pool's list is its final standings, winner first.

    Slots are labelled by place and pool ("1A", "2B"), as on the WCC draw sheet.
    """
    seeds = crossover_seeds(pools, advancing)
    labels = {
        pool[place]: f"{place + 1}{pool_label(index)}"
        for index, pool in enumerate(pools)
        for place in range(advancing)
    }
    return single_elimination(seeds, best_of=best_of, third_place=third_place, labels=labels)


def advance(bracket: Bracket, results: Mapping[str, EntryId]) -> Bracket:
    """Fill the bracket from decided matches: `results` maps match id to its winner.

    Winners already recorded in `bracket` stay unless `results` names another (a correction).
    Entries are carried into the slots that name their match as source. Raises ValueError for an
    unknown match id, a result for a match whose entries are not both known, or a winner who is
    not in the match.
    """
    known = {match.id for match in bracket.matches}
    unknown = sorted(set(results) - known)
    if unknown:
        raise ValueError(_("no match %(match)s in this bracket") % {"match": repr(unknown[0])})
    outcome: dict[tuple[str, Take], EntryId | None] = {}

    def fill(slot: Slot) -> Slot:
        if slot.source is None:
            return slot
        return replace(slot, entry=outcome.get((slot.source.match, slot.source.take)))

    rounds = []
    for rnd in bracket.rounds:
        new_round = []
        for match in rnd:
            a, b = fill(match.a), fill(match.b)
            winner = results.get(match.id, match.winner)
            if winner is not None and (a.entry is None or b.entry is None):
                raise ValueError(
                    _("%(match)s cannot have a winner before both entries are known")
                    % {"match": match.id}
                )
            if winner is not None and winner not in (a.entry, b.entry):
                raise ValueError(
                    _("%(winner)s is not playing in %(match)s (%(a)s v %(b)s)")
                    % {"winner": winner, "match": match.id, "a": a.entry, "b": b.entry}
                )
            decided = replace(match, a=a, b=b, winner=winner)
            outcome[(match.id, "winner")] = winner
            outcome[(match.id, "loser")] = decided.loser
            new_round.append(decided)
        rounds.append(tuple(new_round))
    return replace(bracket, rounds=tuple(rounds))


def placements(bracket: Bracket) -> dict[EntryId, int]:
    """Final places as far as the bracket has decided them; entries still in play share 1.

    The final decides 1 and 2, the third-place match 3 and 4 (without one, or before it is
    played, both semifinal losers share 3); a loser in an earlier round with k matches shares
    place k + 1 (quarterfinal losers 5, round-of-16 losers 9), the usual knockout convention.
    """
    places: dict[EntryId, int] = {}
    for match in bracket.matches:
        for entry in match.entries:
            if entry is not None:
                places.setdefault(entry, 1)
    regular = [rnd for rnd in bracket.rounds if all(m.id != THIRD_PLACE for m in rnd)]
    for rnd in regular:
        losers = [m.loser for m in rnd if m.loser is not None]
        for loser in losers:
            places[loser] = len(rnd) + 1
    final = bracket.final
    if final.winner is not None:
        places[final.winner] = 1
        places[final.loser] = 2
    third = next((m for m in bracket.matches if m.id == THIRD_PLACE), None)
    if third is not None and third.winner is not None:
        places[third.winner] = 3
        places[third.loser] = 4
    return places
