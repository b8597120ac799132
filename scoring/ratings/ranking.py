"""The published ranking of a discipline: who is ranked, in what order, and who moved.

- Ranked: people with at least ``RATING_MIN_GAMES`` games in the discipline (a setting, 10 by
  default): a handful of games says too little of anyone to place them among the others.
- Order: by the *conservative* rating, ``mu - 2 sigma``: the level the person is about 97.5 %
  sure to be at least. A newcomer with a lucky start has a wide spread and ranks below a player
  of the same mean known from many games; ordering by the mean alone would reward few games.
  The page shows the rating (the mean, on the display scale) with its ± (two spreads), so the
  lower end of that range is what the order follows.
- Movers: each person's rank against the ranking published after the last event (an ``EVENT``
  snapshot). Right after an event is published, that is the event before it (the arrows show
  what the event just did); once new games come in, it is the last one (what changed since).
  Before the first event there is no event before it: the ranking a record keeper's import
  left (an ``IMPORT`` snapshot) stands in, so the first event published shows its movers too.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from scoring.engine.rating import Belief, display
from scoring.models.record import RankingSnapshot, Rating, RecordedGame
from tournaments.models import Person

#: Spreads below the mean that the order follows.
CONSERVATIVE_SPREADS = 2.0


def min_games() -> int:
    return int(getattr(settings, "RATING_MIN_GAMES", 10))


def conservative(mu: float, sigma: float) -> float:
    return mu - CONSERVATIVE_SPREADS * sigma


@dataclass(frozen=True)
class RankingRow:
    """One ranked person, as pages and the API show them."""

    rank: int
    person_id: int
    name: str
    #: Linked to their profile: False for a person who shows only their name in results.
    public_profile: bool
    mu: float
    sigma: float
    games: int
    rating: int
    plus_minus: int
    #: Places gained since the last event (negative: lost), None when not ranked then.
    moved: int | None = None

    @property
    def places(self) -> int:
        """Places moved, up or down."""
        return abs(self.moved or 0)

    @property
    def low(self) -> int:
        return self.rating - self.plus_minus

    @property
    def high(self) -> int:
        return self.rating + self.plus_minus


def ranking(discipline: str, *, with_movers: bool = True) -> list[RankingRow]:
    """The discipline's ranking now, best first (ties share a rank)."""
    rows = (
        Rating.objects.filter(
            discipline=discipline, games__gte=min_games(), person__merged_into__isnull=True
        )
        .values_list(
            "person_id",
            "mu",
            "sigma",
            "games",
            "person__first_name",
            "person__last_name",
            "person__visibility",
        )
        .order_by("person_id")
    )
    ordered = sorted(rows, key=lambda r: (-conservative(r[1], r[2]), -r[1], r[0]))
    before = _baseline_ranks(discipline) if with_movers else {}
    out: list[RankingRow] = []
    previous: tuple[float, float] | None = None
    rank = 0
    for place, (person, mu, sigma, games, first, last, visibility) in enumerate(ordered, 1):
        if previous != (mu, sigma):
            rank = place
        previous = (mu, sigma)
        rating, plus_minus = display(Belief(mu, sigma, games))
        old = before.get(person)
        out.append(
            RankingRow(
                rank=rank,
                person_id=person,
                name=f"{first} {last}".strip(),
                public_profile=visibility == Person.Visibility.PROFILE,
                mu=mu,
                sigma=sigma,
                games=games,
                rating=rating,
                plus_minus=plus_minus,
                moved=None if old is None else old - rank,
            )
        )
    return out


def take_snapshot(discipline: str, reason: str, tournament=None) -> RankingSnapshot:
    """Keep the discipline's ranking as it stands now (after an event, a nightly run, an
    import): what movers are measured against."""
    rows = [
        {"person": r.person_id, "rank": r.rank, "mu": r.mu, "sigma": r.sigma, "games": r.games}
        for r in ranking(discipline, with_movers=False)
    ]
    return RankingSnapshot.objects.create(
        discipline=discipline, reason=reason, tournament=tournament, rows=rows
    )


def baseline(discipline: str) -> RankingSnapshot | None:
    """The event snapshot movers are measured against (see the module's docstring)."""
    events = RankingSnapshot.objects.filter(
        discipline=discipline, reason=RankingSnapshot.Reason.EVENT
    ).order_by("-taken_at", "-id")
    latest = events.first()
    if latest is None:
        return None
    newer_games = RecordedGame.objects.filter(
        discipline=discipline, created_at__gt=latest.taken_at
    ).exists()
    if newer_games:
        return latest
    before = events.exclude(pk=latest.pk).first()
    if before is not None:
        return before
    return (
        RankingSnapshot.objects.filter(
            discipline=discipline,
            reason=RankingSnapshot.Reason.IMPORT,
            taken_at__lte=latest.taken_at,
        )
        .exclude(pk=latest.pk)
        .order_by("-taken_at", "-id")
        .first()
    )


def _baseline_ranks(discipline: str) -> dict[int, int]:
    snapshot = baseline(discipline)
    if snapshot is None:
        return {}
    return {row["person"]: row["rank"] for row in snapshot.rows}


def person_ratings(person: Person) -> list[dict]:
    """A person's rating in each discipline they played, with its history (one point a game),
    for the API and the profile."""
    out = []
    ratings = Rating.objects.filter(person=person).order_by("discipline")
    points = person.rating_points.order_by("discipline", "played_on", "game__sequence", "id")
    history: dict[str, list] = {}
    for p in points.values("discipline", "played_on", "mu", "sigma", "game_id"):
        shown, plus_minus = display(Belief(p["mu"], p["sigma"]))
        history.setdefault(p["discipline"], []).append(
            {
                "game": p["game_id"],
                "played_on": p["played_on"],
                "mu": p["mu"],
                "sigma": p["sigma"],
                "rating": shown,
                "plus_minus": plus_minus,
            }
        )
    for r in ratings:
        shown, plus_minus = display(Belief(r.mu, r.sigma, r.games))
        out.append(
            {
                "discipline": r.discipline,
                "mu": r.mu,
                "sigma": r.sigma,
                "rating": shown,
                "plus_minus": plus_minus,
                "games": r.games,
                "last_played": r.last_played,
                "ranked": r.games >= min_games(),
                "history": history.get(r.discipline, []),
            }
        )
    return out
