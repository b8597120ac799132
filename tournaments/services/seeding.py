"""Seeds and pools corrected by hand: the seed editor and the pool editor of a stage.

Seeds place the entries in every draw made from them (a knockout by seed, round-robin pools in
snake order, a Swiss first round), so an organizer sets them before the draw; a drawn stage keeps
its draw (undo it to draw again with the new seeds). Each seed goes through
``entries.update_entry``, the one write of an entry, and is told in the entry's history.

Moving an entry from one round-robin pool to another changes who meets whom, so the pools'
matches are drawn again from the new pools: allowed only while nothing of the stage is played
(no official round, card row or shoot-out), and told in the stage's history, because pools keep
no history of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import reduce

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments import live
from tournaments.actions import Kind, Precondition, Refused, ensure
from tournaments.models import ENTRY_PEOPLE, Category, Entry, Pool, Stage, people_paths
from tournaments.names import entry_key
from tournaments.selectors import play_pools
from tournaments.services import entries as entry_services
from tournaments.services.draws import (
    _results_in,
    draw_round_robin,
    next_stage_undrawn,
)

#: Why an entry's history row changed, as the audit page shows it (at most 100 characters;
#: written in the language of whoever sets the seed: ``gettext(SEED_REASON)``).
SEED_REASON = gettext_noop("Seed set on the seed editor.")
#: The same, for seeds written from the people's ratings (``scoring.seeds``).
SEEDS_FROM_RATINGS_REASON = gettext_noop("Seed set from the players' ratings.")


def seed_table(category: Category) -> list[Entry]:
    """The category's active entries as the seed editor lists them: seeded first by seed, then
    the unseeded by name (one query)."""
    rows = Entry.objects.filter(category=category, withdrawn=False).select_related(*ENTRY_PEOPLE)
    return sorted(rows, key=lambda e: (e.seed is None, e.seed or 0, entry_key(e)))


@transaction.atomic
def set_seeds(
    *, category: Category, seeds: Mapping[int, int | None], reason: str = SEED_REASON
) -> list[Entry]:
    """Give the entries of ``category`` their seeds (entry id to seed; ``None`` clears one) and
    return the entries whose seed changed.

    Refused, with nothing saved, for an entry of another category, a seed below 1, or a seed
    that two active entries of the category would hold (the draw could not tell them apart).
    """
    rows = {
        e.pk: e
        # Only the entries' own rows are locked: the player or team joined for their names is
        # an outer join on PostgreSQL, which cannot be locked.
        for e in Entry.objects.select_for_update(of=("self",))
        .filter(category=category)
        .select_related(*ENTRY_PEOPLE)
    }
    unknown = [str(pk) for pk in seeds if pk not in rows]
    if unknown:
        raise Refused(
            _("%(category)s has no entry %(entries)s; nothing was saved.")
            % {"category": category.name, "entries": ", ".join(unknown)},
        )
    for pk, seed in seeds.items():
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 1):
            raise Refused(
                _(
                    "Seed of %(entry)s: %(seed)s is not a seed; seeds are whole numbers "
                    "from 1 (leave it empty for no seed). Nothing was saved."
                )
                % {"entry": _label(rows[pk]), "seed": repr(seed)},
            )
    final = {pk: seeds.get(pk, e.seed) for pk, e in rows.items() if not e.withdrawn}
    holders: dict[int, list[Entry]] = {}
    for pk, seed in final.items():
        if seed is not None:
            holders.setdefault(seed, []).append(rows[pk])
    twice = sorted((seed, group) for seed, group in holders.items() if len(group) > 1)
    if twice:
        seed, group = twice[0]
        names = reduce(
            lambda first, second: (
                _("%(first)s and %(second)s") % {"first": first, "second": second}
            ),
            [_label(e) for e in sorted(group, key=entry_key)],
        )
        raise Refused(
            _(
                "Seed %(seed)s is given to %(entries)s; each seed goes to one entry. Nothing was "
                "saved."
            )
            % {"seed": seed, "entries": names},
        )
    changed = []
    for pk, seed in seeds.items():
        entry = rows[pk]
        if entry.seed != seed:
            entry._change_reason = _(reason)
            entry_services.update_entry(entry=entry, seed=seed)
            changed.append(entry)
    return changed


def _label(entry: Entry) -> str:
    return f"{entry.name} ({entry.number})"


# --- pools ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PoolLine:
    """One pool of a stage with its entries, in the order they were put in."""

    pool: Pool
    entries: list[Entry]

    @property
    def name(self) -> str:
        return self.pool.name


def stage_pools(stage: Stage) -> list[PoolLine]:
    """The pools the stage is played in, by name, each with its entries (two queries)."""
    pools = sorted(play_pools(stage), key=lambda p: p.name)
    members: dict[int, list[Entry]] = {p.pk: [] for p in pools}
    through = (
        Pool.entries.through.objects.filter(pool__in=pools)
        .select_related(*people_paths("entry"))
        .order_by("id")
    )
    for row in through:
        members[row.pool_id].append(row.entry)
    return [PoolLine(pool=p, entries=members[p.pk]) for p in pools]


# What moving an entry to another pool needs (``tournaments.draw_actions.move_to_pool``, and
# :func:`move_to_pool`, which asks again): the preconditions' words name no stage, the page and
# the API being about the stage they are asked of.


def round_robin(stage: Stage) -> Refused | None:
    """Only a round robin is played in pools."""
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        return None
    return Refused(
        _("Only a round robin is played in pools, not %(kind)s.")
        % {"kind": stage.get_kind_display().lower()},
        kind=Kind.INVALID,
    )


def pools_filled(stage: Stage) -> str | None:
    """Two or more of the stage's pools hold entries (its draw, or the advance into it, fills
    them)."""
    if len([line for line in stage_pools(stage) if line.entries]) >= 2:
        return None
    return _(
        "No pools to move entries between yet: the draw (or the Advance into the stage) fills them."
    )


def pools_unplayed(stage: Stage) -> str | None:
    """Nothing of the stage is played: moving an entry draws the pools' matches again."""
    played = _results_in(stage)
    if not played:
        return None
    return _("The pools cannot change any more: %(played)s. Void or correct the results first.") % {
        "played": played
    }


#: What moving an entry to another pool needs of the stage, in the order its refusals are told.
POOL_MOVE_CONDITIONS: tuple[Precondition, ...] = (
    round_robin,
    pools_filled,
    pools_unplayed,
    next_stage_undrawn,
)


@dataclass(frozen=True)
class PoolMove:
    """What a move did: the pools before and after, and how many matches were drawn again."""

    entry: Entry
    source: str
    target: str
    matches: int
    times_cleared: bool

    def describe(self) -> str:
        """The message the page and the API give."""
        parts = [
            _("%(entry)s moved from pool %(source)s to pool %(target)s")
            % {"entry": self.entry.name, "source": self.source, "target": self.target}
        ]
        if self.matches:
            parts.append(
                _("the pools' matches are drawn again (%(count)s matches)")
                % {"count": self.matches}
            )
        if self.times_cleared:
            parts.append(_("set the start times again"))
        return "; ".join(parts) + "."


@transaction.atomic
def move_to_pool(*, stage: Stage, entry: Entry, pool: str) -> PoolMove:
    """Move ``entry`` into the stage's pool named ``pool``; a drawn stage's matches are drawn
    again from the new pools (single or double round robin, as before), on the boards in
    service. Refused (``Refused``: :data:`POOL_MOVE_CONDITIONS`) for a stage that is not a
    round robin in pools or once anything of the stage is played, and for an entry not in them,
    an unknown pool or a pool left with fewer than two entries."""
    Stage.objects.select_for_update().filter(pk=stage.pk).first()
    ensure(stage, round_robin, pools_filled)
    lines = stage_pools(stage)
    source = next((line for line in lines if any(e.pk == entry.pk for e in line.entries)), None)
    if source is None:
        raise Refused(_("%(entry)s is not in any of the pools.") % {"entry": entry.name})
    wanted = (pool or "").strip()
    target = next((line for line in lines if line.name.lower() == wanted.lower()), None)
    if target is None:
        names = ", ".join(line.name for line in lines)
        raise Refused(
            _("There is no pool “%(pool)s”; the pools are %(pools)s.")
            % {"pool": wanted, "pools": names}
        )
    if target.pool.pk == source.pool.pk:
        raise Refused(
            _("%(entry)s is in pool %(pool)s already.") % {"entry": entry.name, "pool": target.name}
        )
    ensure(stage, pools_unplayed, next_stage_undrawn)
    left = len(source.entries) - 1
    if left < 2:
        raise Refused(
            ngettext(
                "Pool %(pool)s would keep %(count)s entry; a round robin needs at least two in "
                "each pool.",
                "Pool %(pool)s would keep %(count)s entries; a round robin needs at least two in "
                "each pool.",
                left,
            )
            % {"pool": source.name, "count": left}
        )
    moved = next(e for e in source.entries if e.pk == entry.pk)
    groups = [
        [e for e in line.entries if e.pk != entry.pk]
        + ([moved] if line.pool.pk == target.pool.pk else [])
        for line in lines
    ]
    matches = stage.matches.all()
    drawn = matches.exists()
    times_cleared = drawn and matches.filter(starts_at__isnull=False).exists()
    double = drawn and _double(stage)
    through = Pool.entries.through
    through.objects.filter(pool__in=[line.pool for line in lines]).delete()
    count = 0
    if drawn:
        matches.delete()
        # The draw names its pools A, B, ... in order, as the pools being refilled are named.
        filled = [(line, group) for line, group in zip(lines, groups, strict=True) if group]
        count = len(draw_round_robin(stage, [group for _line, group in filled], double=double))
    else:
        for line, group in zip(lines, groups, strict=True):
            through.objects.bulk_create(through(pool_id=line.pool.pk, entry_id=e.pk) for e in group)
        live.touch("stage", [stage.pk])  # bulk writes send no signals
    done = PoolMove(
        entry=moved,
        source=source.name,
        target=target.name,
        matches=count,
        times_cleared=times_cleared,
    )
    stage._change_reason = _("Pools: %(change)s") % {"change": done.describe()}
    stage.save()
    return done


def _double(stage: Stage) -> bool:
    """Whether the stage was drawn as a double round robin: some two entries meet twice."""
    met: set[frozenset[int]] = set()
    for a, b in stage.matches.filter(entry_b__isnull=False).values_list("entry_a", "entry_b"):
        pair = frozenset((a, b))
        if pair in met:
            return True
        met.add(pair)
    return False
