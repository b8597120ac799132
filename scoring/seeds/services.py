"""Seeds from ratings: the order the record's ratings give a category's entries, and what the
draw that uses seeds would make of it, before anything is written.

Seeds place the entries in the draws made from them (``tournaments.services.seeding``): round-
robin pools in snake order, a knockout bracket (1 v 16, 8 v 9 ...), a Swiss first round (1 v 2,
3 v 4 ...). An organizer who seeds by hand guesses at who is strong; the record knows. So the
proposal ranks the entries by their rating in the category's discipline and shows, before the
draw, what the draw would make of those seeds: each pool with its average rating, or the first
round's pairings. It is computed with the same pure functions the draw calls, on the same order,
so the pools the organizer sees are the pools the draw makes. Applying it writes the seeds
through ``set_seeds`` (the one write of seeds, which the seed editor uses too), where the
organizer can then change any of them.

An entry's strength:
- singles: the player's person's rating in the discipline (``scoring.models.Rating``);
- doubles: the two partners' beliefs added as openskill adds a team's players (means summed,
  spreads by the root of the sum of their squares). It is shown on the display scale per
  partner (half the sum), so that a team of two 1600 players reads 1600 beside the singles
  ratings people know; the order is the same either way.
A player without a person in the registry, or whose person has no rated game in the discipline,
is unrated. An entry with nobody rated is placed after every rated one, by name, and marked
unrated; a team with one partner rated counts the other at the starting belief (a new player's,
as the rating itself does) and says so. Entries of equal strength keep the order of their names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from math import sqrt

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.engine.rating import Belief, display
from scoring.models.record import Rating
from scoring.record.disciplines import category_discipline
from tournaments import formats
from tournaments.actions import Kind, Precondition, Refused, ensure
from tournaments.models import ENTRY_PEOPLE, Category, Entry, Person, Player, Stage
from tournaments.names import entry_key
from tournaments.selectors import BRACKET_POOL, FIELD_POOL, previous_stage
from tournaments.services import seeding
from tournaments.services.draws import entry_clubs
from tournaments.services.registration import is_drawn

#: The most pools a preview is drawn for (the draw's own form allows as many).
MAX_POOLS = 64


@dataclass(frozen=True)
class SeedRow:
    """One entry of the proposal: its strength from the record and the seed it would get."""

    entry: Entry
    #: The seed proposed (1 = the strongest).
    seed: int
    #: On the display scale (per partner for a team); None when nobody of the entry is rated.
    rating: int | None
    plusminus: int | None
    #: Recorded games of the entry's people in the discipline (both partners' for a team).
    games: int
    #: How many of the entry's people have no rating (a team with one counts them at the start).
    unrated_people: int
    #: The sum of the people's means, in the rating model's units: what the order is by.
    strength: float | None = field(default=None, repr=False)

    @property
    def rated(self) -> bool:
        return self.rating is not None

    @property
    def partly_rated(self) -> bool:
        return self.rated and self.unrated_people > 0

    @property
    def current_seed(self) -> int | None:
        return self.entry.seed


@dataclass(frozen=True)
class PoolPreview:
    """A pool the snake draw would make from the proposed seeds, best seed first."""

    name: str
    rows: list[SeedRow]

    @property
    def rated(self) -> list[SeedRow]:
        return [row for row in self.rows if row.rated]

    @property
    def average(self) -> int | None:
        """The mean rating of the pool's rated entries (unrated ones have no number to add);
        None when none is rated."""
        rated = self.rated
        if not rated:
            return None
        return round(sum(row.rating for row in rated) / len(rated))  # type: ignore[misc]

    @property
    def unrated(self) -> int:
        return len(self.rows) - len(self.rated)


@dataclass(frozen=True)
class PairingPreview:
    """A first-round meeting the draw would make; ``b`` is None for a bye (Swiss)."""

    a: SeedRow
    b: SeedRow | None
    #: The bracket's name of the match (``QF1``), empty for a Swiss round.
    label: str = ""


@dataclass(frozen=True)
class SeedProposal:
    """The entries ranked by rating, and what the stage's draw would make of that order.

    ``format`` is the stage's kind when its draw uses seeds (``round-robin``, ``knockout``,
    ``swiss``), else ``none`` (no stage, a preliminary drawn at random, a shoot-out) or
    ``advance`` (a stage filled by the advance of the one before); ``note`` says why a preview
    is missing, or what the draw would refuse.
    """

    category: Category
    stage: Stage | None
    rows: list[SeedRow]
    format: str = "none"
    pool_count: int | None = None
    pools: list[PoolPreview] = field(default_factory=list)
    pairings: list[PairingPreview] = field(default_factory=list)
    #: Knockout: the top seeds who go straight to the second round.
    byes: list[SeedRow] = field(default_factory=list)
    note: str = ""

    @property
    def discipline(self) -> str:
        return category_discipline(self.category).label

    @property
    def seeds(self) -> dict[int, int]:
        """Entry id to proposed seed: what applying writes."""
        return {row.entry.pk: row.seed for row in self.rows}

    @property
    def unrated(self) -> list[SeedRow]:
        return [row for row in self.rows if not row.rated]


# --- strength -------------------------------------------------------------------------------


def _people_ratings(players: Sequence[Player], discipline: str) -> dict[int, Rating]:
    """Each player's rating by player id (one query for the merges, one for the ratings); a
    player whose person was merged into another is rated as that one."""
    person_of = {p.pk: p.person_id for p in players if p.person_id}
    merged = dict(
        Person.objects.filter(
            pk__in=set(person_of.values()), merged_into__isnull=False
        ).values_list("pk", "merged_into")
    )
    for _hop in range(5):  # a merge of a merged person: follow it a few steps
        further = dict(
            Person.objects.filter(
                pk__in=set(merged.values()), merged_into__isnull=False
            ).values_list("pk", "merged_into")
        )
        if not further:
            break
        merged = {pk: further.get(target, target) for pk, target in merged.items()}
    final = {player: merged.get(person, person) for player, person in person_of.items()}
    ratings = {
        r.person_id: r
        for r in Rating.objects.filter(
            person_id__in=set(final.values()), discipline=discipline, games__gt=0
        )
    }
    return {player: ratings[person] for player, person in final.items() if person in ratings}


def _strength(entry: Entry, ratings: dict[int, Rating]) -> tuple[Belief | None, int, int]:
    """The entry's combined belief (None when nobody is rated), its games and its unrated
    people."""
    people = entry.people
    found = [ratings.get(p.pk) for p in people]
    if not any(found):
        return None, 0, len(people)
    beliefs = [Belief(r.mu, r.sigma, r.games) if r else Belief() for r in found]
    combined = Belief(
        mu=sum(b.mu for b in beliefs),
        sigma=sqrt(sum(b.sigma**2 for b in beliefs)),
        games=sum(b.games for b in beliefs),
    )
    return combined, combined.games, sum(1 for r in found if r is None)


def ranked_rows(category: Category) -> list[SeedRow]:
    """The category's active entries, strongest first, the unrated after them by name, each
    with the seed it would get (three queries)."""
    entries = list(
        Entry.objects.filter(category=category, withdrawn=False).select_related(*ENTRY_PEOPLE)
    )
    players = [p for e in entries for p in e.people]
    ratings = _people_ratings(players, category_discipline(category).value)
    scored = []
    for entry in entries:
        belief, games, unrated = _strength(entry, ratings)
        scored.append((entry, belief, games, unrated))
    scored.sort(
        key=lambda line: (
            line[1] is None,
            -(line[1].mu if line[1] else 0.0),
            entry_key(line[0]),
        )
    )
    rows = []
    for seed, (entry, belief, games, unrated) in enumerate(scored, start=1):
        rating = plusminus = None
        if belief is not None:
            size = len(entry.people)
            rating, plusminus = display(Belief(belief.mu / size, belief.sigma / size))
        rows.append(
            SeedRow(
                entry=entry,
                seed=seed,
                rating=rating,
                plusminus=plusminus,
                games=games,
                unrated_people=unrated,
                strength=belief.mu if belief else None,
            )
        )
    return rows


# --- what the draw would make of them -------------------------------------------------------


def first_stage(category: Category) -> Stage | None:
    """The stage the category's seeds are drawn into: its first (later ones are filled by the
    advance of the one before)."""
    return category.stages.order_by("order", "id").first()


def default_pool_count(stage: Stage) -> int:
    """What the round-robin draw takes when no pool count is given: the stage's pools as set
    up, or one."""
    return stage.pools.exclude(name__in=(BRACKET_POOL, FIELD_POOL)).count() or 1


def proposal(
    category: Category, stage: Stage | None = None, *, pool_count: int | None = None
) -> SeedProposal:
    """The entries of ``category`` ranked by rating, and the first round or the pools the draw
    of ``stage`` (default: the category's first stage) would make from those seeds.

    ``pool_count`` is the round robin's number of pools, which the organizer chooses when they
    draw (default: as the draw's own default); a count the entries cannot fill is said in the
    draw's words, in ``note``, without pools."""
    rows = ranked_rows(category)
    stage = stage or first_stage(category)
    base = SeedProposal(category=category, stage=stage, rows=rows)
    if stage is None:
        return _with(base, note=_("No stage yet: add one to see what its draw would make."))
    before = previous_stage(stage)
    if before is not None:
        return _with(
            base,
            format="advance",
            note=_(
                "%(stage)s is filled by the Advance of %(before)s, seeded by its results; these "
                "seeds are for the category's first draw."
            )
            % {"stage": stage.name, "before": before.name},
        )
    kind = Stage.Kind(stage.kind)
    if kind == Stage.Kind.ROUND_ROBIN:
        return _round_robin(base, stage, pool_count)
    if kind == Stage.Kind.KNOCKOUT:
        return _knockout(base)
    if kind == Stage.Kind.SWISS:
        return _swiss(base)
    return _with(
        base,
        note=_("The draw of %(stage)s (%(kind)s) does not use seeds.")
        % {"stage": stage.name, "kind": stage.get_kind_display().lower()},
    )


def _with(base: SeedProposal, **changes) -> SeedProposal:
    return replace(base, **changes)


def _keys(rows: Sequence[SeedRow]) -> tuple[list[str], dict[str, SeedRow]]:
    """The draw's keys (entry ids as text), best seed first, and their rows."""
    by_key = {str(row.entry.pk): row for row in rows}
    return list(by_key), by_key


def _round_robin(base: SeedProposal, stage: Stage, pool_count: int | None) -> SeedProposal:
    count = pool_count or default_pool_count(stage)
    base = _with(base, format="round-robin", pool_count=count)
    rows = base.rows
    if not 1 <= count <= MAX_POOLS or len(rows) < 2 * count:
        # The draw's own words (``draw_round_robin``).
        return _with(
            base,
            note=_("%(entries)s entries cannot fill %(pools)s pools of at least two.")
            % {"entries": len(rows), "pools": count},
        )
    keys, by_key = _keys(rows)
    # The draw's own call: the snake with club mates kept apart, on the same order.
    groups = formats.snake_pools(keys, count, clubs=entry_clubs([row.entry for row in rows]))
    pools = [
        PoolPreview(name=formats.pool_label(index), rows=[by_key[key] for key in group])
        for index, group in enumerate(groups)
    ]
    return _with(base, pools=pools)


def _knockout(base: SeedProposal) -> SeedProposal:
    base = _with(base, format="knockout")
    keys, by_key = _keys(base.rows)
    try:
        bracket = formats.single_elimination(keys)
    except ValueError as exc:
        return _with(base, note=str(exc))
    first = bracket.rounds[0]
    playing = {key for match in first for key in match.entries}
    pairings = [
        PairingPreview(a=by_key[match.a.entry], b=by_key[match.b.entry], label=match.id)
        for match in first
        if match.a.entry and match.b.entry
    ]
    byes = [by_key[key] for key in keys if key not in playing]
    return _with(base, pairings=pairings, byes=byes)


def _swiss(base: SeedProposal) -> SeedProposal:
    base = _with(base, format="swiss")
    keys, by_key = _keys(base.rows)
    try:
        pairs = formats.swiss_round([formats.SwissStanding(key, 0) for key in keys])
    except ValueError as exc:
        return _with(base, note=str(exc))
    return _with(
        base,
        pairings=[PairingPreview(a=by_key[p.a], b=by_key[p.b] if p.b else None) for p in pairs],
    )


# --- applying it ----------------------------------------------------------------------------


def has_entries(category: Category) -> str | None:
    """Something to seed: the category has active entries."""
    if category.entries.filter(withdrawn=False).exists():
        return None
    return _("%(category)s has no active entries to seed.") % {"category": category.name}


def first_stage_undrawn(category: Category) -> str | None:
    """Seeds apply to a draw not made yet: a drawn first stage keeps its draw."""
    stage = first_stage(category)
    if stage is None or not is_drawn(stage):
        return None
    return _(
        "%(stage)s is drawn already: its draw would not change with new seeds. Undo the draw "
        "first to seed it from ratings."
    ) % {"stage": stage.name}


#: What applying the seeds from ratings needs, in the order its refusals are told.
APPLY_CONDITIONS: tuple[Precondition, ...] = (has_entries, first_stage_undrawn)


@transaction.atomic
def write_seeds(category: Category) -> list[Entry]:
    """Give every active entry of ``category`` its seed from ratings (seed 1 the strongest),
    through the seed editor's one write; return the entries whose seed changed. Refused
    (``Refused``: :data:`APPLY_CONDITIONS`) with nothing written."""
    Category.objects.select_for_update().filter(pk=category.pk).first()
    ensure(category, *APPLY_CONDITIONS)
    seeds: dict[int, int | None] = dict(proposal(category).seeds)
    if not seeds:
        raise Refused(
            _("%(category)s has no active entries to seed.") % {"category": category.name},
            kind=Kind.CONFLICT,
        )
    return seeding.set_seeds(
        category=category, seeds=seeds, reason=seeding.SEEDS_FROM_RATINGS_REASON
    )


def apply(category: Category, by) -> list[Entry]:
    """Apply the seeds from ratings as ``by`` (a user): the declared step
    (``scoring.seeds.actions.apply_seeds_from_ratings``), which every path takes: refused in
    words for someone who is not an organizer of the tournament, or when the first stage is
    drawn already."""
    # The step is declared beside the other steps, and it calls this module's write: imported
    # here so that the two modules do not import each other at load time.
    from scoring.seeds.actions import apply_seeds_from_ratings

    return apply_seeds_from_ratings(by, category)
