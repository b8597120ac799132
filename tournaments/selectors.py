"""Reads of a tournament's structure: its categories and stages, their pools and seedings, the
matches drawn, a knockout as drawn. Nothing here knows results: what a match's games add up to
is read by ``scoring.results``, which builds on these."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from datetime import date

from django.db.models import Count, F, Prefetch, Q, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from tournaments import formats
from tournaments.actions import Kind, Refused
from tournaments.models import (
    Category,
    Entry,
    Match,
    Player,
    Pool,
    Stage,
    Tournament,
    TournamentRole,
    people_paths,
)
from tournaments.models.roles import SIMULATION_USERNAMES


def tournament_categories(
    tournament: Tournament, *, with_shootouts: bool = True
) -> QuerySet[Category]:
    """Categories with their stages in order (two queries). ``with_shootouts=False`` leaves out
    the shoot-out stages, which hold no games (their shots are recorded on their own page):
    for the lists that offer a stage's games, such as the hall screen's."""
    stages = Stage.objects.order_by("order")
    if not with_shootouts:
        stages = stages.exclude(kind=Stage.Kind.SHOOTOUT)
    return tournament.categories.prefetch_related(Prefetch("stages", queryset=stages))


# --- stage structure: pools, seedings, the order of stages ------------------------------------

#: Pool names that carry a knockout's seeding (entrants in seed order); the second also records
#: that a match for third place is played. See ``tournaments.services.draws.draw_knockout``.
BRACKET_POOL = "bracket"
#: The pool that holds a Swiss or preliminary field seeded by ``advance``.
FIELD_POOL = "field"
SEEDING_POOLS = (BRACKET_POOL, FIELD_POOL)

MATCH_RELATED = (
    "stage__category",
    "pool",
    "board",
    *people_paths("entry_a"),
    *people_paths("entry_b"),
    *people_paths("entry_c"),
)


def stage_matches(stage: Stage, ids: Collection[int] | None = None) -> list[Match]:
    """Every match of the stage (or those of ``ids`` among them) with what the pages print
    (one query)."""
    matches = Match.objects.filter(stage=stage)
    if ids is not None:
        matches = matches.filter(pk__in=list(ids))
    return list(
        matches.select_related(*MATCH_RELATED).order_by(
            "round_of_play", "board__number", "bracket_slot", "id"
        )
    )


def seeded_entries(stage: Stage) -> list[Entry]:
    """The entries seeded into the stage, best first, in the order they were put in its pools
    (pools in name order; one query)."""
    through = Pool.entries.through.objects.filter(pool__stage=stage)
    rows = through.select_related(*people_paths("entry")).order_by("pool__name", "id")
    return [row.entry for row in rows]


def previous_stage(stage: Stage) -> Stage | None:
    """The stage played before this one (shoot-outs are not played stages)."""
    return (
        Stage.objects.filter(category_id=stage.category_id, order__lt=stage.order)
        .exclude(kind=Stage.Kind.SHOOTOUT)
        .order_by("-order")
        .first()
    )


def next_stage(stage: Stage) -> Stage | None:
    """The stage that the entries advancing from this one go on to."""
    return (
        Stage.objects.filter(category_id=stage.category_id, order__gt=stage.order)
        .exclude(kind=Stage.Kind.SHOOTOUT)
        .order_by("order")
        .first()
    )


def shootout_source(stage: Stage) -> Stage:
    """The stage whose tie a shoot-out settles: the stage itself, or for a shoot-out stage the
    stage played before it."""
    if stage.kind != Stage.Kind.SHOOTOUT:
        return stage
    source = previous_stage(stage)
    if source is None:
        raise Refused(
            gettext("%(stage)s settles no stage's tie.") % {"stage": stage.name},
            kind=Kind.CONFLICT,
        )
    return source


def play_pools(stage: Stage) -> list[Pool]:
    """The pools the stage is played in (not the pools that only hold a seeding)."""
    return [p for p in stage.pools.all() if p.name not in SEEDING_POOLS]


def stage_rounds(stage: Stage) -> list[int]:
    """The rounds of play drawn so far (one query)."""
    return sorted(set(Match.objects.filter(stage=stage).values_list("round_of_play", flat=True)))


def stage_for_page(slug: str, stage_id: int) -> Stage | None:
    """The stage if it belongs to the tournament named in the URL (one query)."""
    return (
        Stage.objects.select_related("category__tournament")
        .filter(pk=stage_id, category__tournament__slug=slug)
        .first()
    )


# --- a knockout as drawn ------------------------------------------------------------------------


@dataclass
class KnockoutDraw:
    """A knockout as drawn: the bracket (entries by id) with the winners given applied, the
    stored matches by bracket slot, the entries by id, the seed labels."""

    bracket: formats.Bracket
    entries: dict[str, Entry]
    matches: dict[str, Match]
    labels: dict[str, str]
    third_place: bool


def knockout_draw(stage: Stage) -> KnockoutDraw | None:
    """The knockout rebuilt from its seeding, no result applied yet; None before the draw (four
    queries).

    The seeding is kept in the stage's bracket pool, in seed order; the bracket follows from it
    by ``formats.single_elimination``. When the previous stage was played in pools the seeds are
    labelled by place and pool ("1A", "2B"), as on the WCC draw sheet; otherwise by seed number.
    """
    if not Pool.objects.filter(stage=stage, name=BRACKET_POOL).exists():
        return None
    seeds = seeded_entries(stage)
    entries = {str(e.id): e for e in seeds}
    labels = _crossover_labels(stage, [str(e.id) for e in seeds])
    bracket = formats.single_elimination(
        list(entries), best_of=stage.best_of, third_place=stage.third_place, labels=labels or None
    )
    matches = {m.bracket_slot: m for m in stage_matches(stage) if m.bracket_slot}
    if not labels:
        labels = {str(e.id): str(number) for number, e in enumerate(seeds, start=1)}
    return KnockoutDraw(bracket, entries, matches, labels, stage.third_place)


def with_winners(draw: KnockoutDraw, winners: Mapping[str, str]) -> KnockoutDraw:
    """The draw with ``winners`` (bracket slot -> winning entry id) applied round by round.

    Only results whose entries match the bracket count: a corrected earlier result may have
    changed who should be playing, and a stored match whose entries differ from the bracket's
    belongs to a pairing that no longer stands (the draw services report such a conflict).
    """
    bracket = draw.bracket
    applied: dict[str, str] = {}
    for rnd in bracket.rounds:
        bracket = formats.advance(bracket, applied)
        for planned in (bracket.match(m.id) for m in rnd):
            stored = draw.matches.get(planned.id)
            if planned.id not in winners or stored is None:
                continue
            if {str(stored.entry_a_id), str(stored.entry_b_id)} == set(planned.entries):
                applied[planned.id] = winners[planned.id]
    return replace(draw, bracket=formats.advance(bracket, applied))


def _crossover_labels(stage: Stage, seeds: list[str]) -> dict[str, str]:
    """Seed labels such as 1A, 1B, 2A when the stage was seeded from two or more pools."""
    before = previous_stage(stage)
    if before is None or before.kind != Stage.Kind.ROUND_ROBIN:
        return {}
    pool_of = {
        str(entry_id): name
        for entry_id, name in Pool.entries.through.objects.filter(pool__stage=before).values_list(
            "entry_id", "pool__name"
        )
    }
    names = sorted(set(pool_of.values()))
    if len(names) < 2 or any(seed not in pool_of for seed in seeds):
        return {}
    # Seeded by place then pool (1A, 1B, 2A, 2B ...); any other seeding keeps plain numbers.
    if any(pool_of[seed] != names[i % len(names)] for i, seed in enumerate(seeds)):
        return {}
    return {seed: f"{i // len(names) + 1}{pool_of[seed]}" for i, seed in enumerate(seeds)}


@dataclass(frozen=True)
class TournamentIndex:
    """The front page's tournaments, by when they are played: ``live`` (today is within their
    dates), ``upcoming``, ``past``, and ``undated`` ones without a start date."""

    live: list[Tournament]
    upcoming: list[Tournament]
    past: list[Tournament]
    undated: list[Tournament]
    query: str

    @property
    def empty(self) -> bool:
        return not (self.live or self.upcoming or self.past or self.undated)


def tournament_index(user, *, query: str = "", today: date | None = None) -> TournamentIndex:
    """Every tournament the front page lists for ``user`` (one query): published ones, and the
    drafts of tournaments where the user holds a role; never a dry run's copy. ``query``
    narrows them to names or venues containing it."""
    today = today or timezone.localdate()
    listed = Q(published=True)
    if user.is_authenticated:
        listed |= Q(roles__user=user)
    tournaments = Tournament.objects.filter(listed, dry_run_copy__isnull=True)
    query = query.strip()
    if query:
        tournaments = tournaments.filter(Q(name__icontains=query) | Q(venue__icontains=query))
    live, upcoming, past, undated = [], [], [], []
    for t in tournaments.distinct().order_by(F("starts_on").desc(nulls_last=True), "name"):
        ends = t.ends_on or t.starts_on
        if t.starts_on is None:
            undated.append(t)
        elif t.starts_on > today:
            upcoming.append(t)
        elif ends < today:
            past.append(t)
        else:
            live.append(t)
    upcoming.reverse()  # the next one first
    return TournamentIndex(live, upcoming, past, undated, query)


def staff_roles(tournament: Tournament | None = None) -> QuerySet[TournamentRole]:
    """The roles people hold, with their accounts, by username then role: at ``tournament``, or
    at every tournament (the API narrows them to the ones its user manages). This is the one
    list of a tournament's staff (the staff page, ``/api/roles/``, and the accounts their
    buttons act on), so the simulation's accounts are left out here: they hold the referee and
    scoring-table roles only to enter simulated games through the same checks as people, and
    are nobody's staff (``tournaments.models.roles.SIMULATION_USERNAMES``)."""
    roles = TournamentRole.objects.exclude(user__username__in=SIMULATION_USERNAMES)
    if tournament is not None:
        roles = roles.filter(tournament=tournament)
    return roles.select_related("user").order_by("user__username", "role")


#: Each role's first page: where its work at the event starts.
STAFF_LANDING = {
    TournamentRole.Role.ORGANIZER: "tournaments:manage",
    TournamentRole.Role.CO_ORGANIZER: "tournaments:manage",
    TournamentRole.Role.HEAD_REFEREE: "scoring:cards:disputes",
    TournamentRole.Role.REFEREE: "scoring:cards:disputes",
    TournamentRole.Role.SCORING_TABLE: "scoring:cards:table",
}


def landing_url(user) -> str:
    """The page a signed-in user lands on: their latest tournament's player page, or their
    role's first page (``STAFF_LANDING``) at the latest tournament where they hold one; the
    front page otherwise."""
    by_date = (F("tournament__starts_on").desc(nulls_last=True), "-tournament_id")
    player = (
        Player.objects.filter(user=user, tournament__dry_run_copy__isnull=True)
        .select_related("tournament")
        .order_by(*by_date)
        .first()
    )
    role = (
        TournamentRole.objects.filter(user=user, tournament__dry_run_copy__isnull=True)
        .select_related("tournament")
        .order_by(*by_date)
        .first()
    )
    if role is not None and (player is None or _later(role.tournament, player.tournament)):
        return reverse(STAFF_LANDING[role.role], args=[role.tournament.slug])
    if player is not None:
        return reverse("tournaments:player", args=[player.tournament.slug, player.number])
    return reverse("home")


def _later(a: Tournament, b: Tournament) -> bool:
    """Whether ``a`` is played later than ``b`` (a tie goes to ``a``: staff work comes first)."""
    return (a.starts_on or date.min) >= (b.starts_on or date.min)


@dataclass(frozen=True)
class DeletionSummary:
    """What deleting a tournament takes with it: what its confirmation page names before the
    organizer types its name, and what its history line records."""

    categories: int
    players: int
    teams: int
    matches: int
    cards: int


def deletion_summary(tournament: Tournament) -> DeletionSummary:
    """The counts of what goes with the tournament (five queries). The scorecards are counted
    through their stages' reverse relation, so this app reads them without importing scoring."""
    stages = Stage.objects.filter(category__tournament=tournament)
    return DeletionSummary(
        categories=tournament.categories.count(),
        players=tournament.players.count(),
        teams=tournament.teams.count(),
        matches=Match.objects.filter(stage__in=stages).count(),
        cards=stages.aggregate(n=Count("cards"))["n"],
    )
