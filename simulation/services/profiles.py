"""Which skill profile an entry plays with in a simulation.

In order: a profile set for the entry (``EntryProfile``: a dry run's generated players, or an
organizer's choice), else one estimated from the 20s per game the entry's players have recorded
in games people played at this tournament (``simulation.players.estimate``: a belief over their
level on the day, ``simulation.players.belief``, which each simulated game draws from), else the
level its category stands for (competitive categories play "competitive", and so on). A preview or
an auto-played match may override both sides for that one job.

Where the entry's people have a rating in the category's discipline (``scoring.models.Rating``,
read from every recorded game of their crokinole life), each player's 20s level is moved towards
the level the rating stands for (``belief.rated_belief``; doubles: each partner by their own):
the backtest (``bench/backtest.py``) found the simulation's predictions of real games sharper
so (its ``brier_simulation_with_rating`` against ``brier_simulation``). An entry with a rating
and no 20s here starts from its category's level and moves the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Sum
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.engine.rating import MU, Belief, display
from scoring.models import Rating
from scoring.record.disciplines import category_discipline
from simulation.models import EntryProfile
from simulation.players.belief import RECORD_SPREAD, belief, rated_belief
from simulation.players.calibrate import LADDER
from simulation.players.profiles import LEVELS, get_profile, level_label
from tournaments.models import Category, Entry, Round

#: A category preset's level of play, by the preset key's words.
PRESET_LEVELS = (
    ("competitive", "competitive"),
    ("recreational", "recreational"),
    ("cue", "recreational"),
    ("intermediate", "recreational"),
    ("junior", "novice"),
)
DEFAULT_LEVEL = "competitive"
#: The estimate's anchors are 20s per game of 4-round singles games with 8 discs each.
ANCHOR_ROUNDS = 4
ANCHOR_DISCS = 8


@dataclass(frozen=True)
class EntryPlayers:
    """The profiles an entry plays with (one per player) and where they came from."""

    players: list[Any]
    source: str

    @property
    def label(self) -> str:
        """The level(s) when they are named ones, and where the profile came from."""
        names = [get_profile(p).name for p in self.players]
        if all(name in LEVELS for name in names):
            levels = " / ".join(level_label(name) for name in dict.fromkeys(names))
            return f"{levels} ({self.source})"
        return self.source


def category_level(category: Category) -> str:
    """The level a category's players are taken to have when nothing better is known."""
    words = f"{category.preset} {category.name}".lower()
    for word, level in PRESET_LEVELS:
        if word in words:
            return level
    return DEFAULT_LEVEL


def check_players(players: object, per_side: int, where: str) -> list[Any]:
    """A side's profiles as given in a form or a job: ``per_side`` level names or profile dicts.
    Raises ``ValueError`` naming the side and the problem."""
    if isinstance(players, str | Mapping):
        players = [players] * per_side
    if not isinstance(players, Sequence) or len(players) != per_side:
        raise ValueError(
            _("%(where)s: give %(count)s skill profile(s), one per player")
            % {"where": where, "count": per_side}
        )
    checked = []
    for spec in players:
        try:
            profile = get_profile(spec)
        except ValueError as exc:
            raise ValueError(_("%(where)s: %(error)s") % {"where": where, "error": exc}) from None
        checked.append(spec if isinstance(spec, str) else profile.to_json())
    return checked


def recorded_twenties(entries: Iterable[Entry]) -> dict[int, tuple[float, int]]:
    """Per entry: its players' 20s per game in games people played (not simulated), scaled to
    4-round singles games of 8 discs per player, and the number of games (two queries)."""
    ids = [e.id for e in entries]
    played = Round.objects.filter(time_expired=False, game__simulated=False)
    totals: dict[int, list[int]] = {}
    for side in ("a", "b"):
        rows = (
            played.filter(**{f"game__match__entry_{side}__in": ids})
            .values(f"game__match__entry_{side}")
            .annotate(
                tw=Sum(f"twenties_{side}"),
                rounds=Count("id"),
                games=Count("game", distinct=True),
                discs=Sum("discs_per_side"),
            )
        )
        for row in rows:
            key = row[f"game__match__entry_{side}"]
            acc = totals.setdefault(key, [0, 0, 0, 0])
            acc[0] += row["tw"] or 0
            acc[1] += row["rounds"]
            acc[2] += row["games"]
            acc[3] += row["discs"] or 0
    out = {}
    for key, (twenties, rounds, games, discs) in totals.items():
        if rounds and discs:
            # 20s per disc shot, times the discs one singles player shoots in a game.
            out[key] = (twenties / discs * ANCHOR_DISCS * ANCHOR_ROUNDS, games)
    return out


def entry_ratings(entries: Sequence[Entry], category: Category) -> dict[int, list[Rating]]:
    """Per entry: the ratings of its people in the category's discipline, one per player in
    the entry's order (singles: one; doubles: both partners), for the entries whose every
    player is a person with a rating (two queries)."""
    ids = [e.id for e in entries]
    try:
        discipline = category_discipline(category)
    except KeyError:
        return {}
    rows = Entry.objects.filter(id__in=ids).values_list(
        "id", "player__person_id", "team__player_one__person_id", "team__player_two__person_id"
    )
    people = {
        entry_id: [p for p in (single, one, two) if p is not None]
        for entry_id, single, one, two in rows
    }
    wanted = {p for persons in people.values() for p in persons}
    ratings = {
        r.person_id: r for r in Rating.objects.filter(person_id__in=wanted, discipline=discipline)
    }
    return {
        entry_id: [ratings[p] for p in persons]
        for entry_id, persons in people.items()
        if persons and all(p in ratings for p in persons)
    }


def rating_label(ratings: Sequence[Rating]) -> str:
    """``rating 1620 ± 90, 14 games`` (doubles: both partners, joined by " / ")."""
    parts = []
    for r in ratings:
        value, plusminus = display(Belief(r.mu, r.sigma, r.games))
        parts.append(
            ngettext(
                "rating %(rating)s ± %(plusminus)s, %(games)s game",
                "rating %(rating)s ± %(plusminus)s, %(games)s games",
                r.games,
            )
            % {"rating": value, "plusminus": plusminus, "games": r.games}
        )
    return " / ".join(parts)


def entry_players(
    entries: Sequence[Entry], category: Category, *, estimate: bool = True
) -> dict[int, EntryPlayers]:
    """The profiles each entry plays with (a fixed number of queries)."""
    per_side = category.players_per_side
    stored = {p.entry_id: p for p in EntryProfile.objects.filter(entry__in=[e.id for e in entries])}
    recorded = recorded_twenties(entries) if estimate else {}
    rated = entry_ratings(entries, category) if estimate else {}
    default = category_level(category)
    prior = LADDER[default]
    out: dict[int, EntryPlayers] = {}
    for entry in entries:
        if entry.id in stored:
            own = stored[entry.id]
            try:
                players = check_players(own.players, per_side, str(entry))
                out[entry.id] = EntryPlayers(players, own.label or _("set for the entry"))
                continue
            except ValueError:
                pass  # a stored profile that no longer fits falls back to the estimate
        ratings = rated.get(entry.id)
        if ratings is not None and len(ratings) != per_side:
            ratings = None  # a doubles team read as singles (or the reverse): no use
        if entry.id in recorded or ratings:
            if entry.id in recorded:
                per_game, games = recorded[entry.id]
                # What the games say of the player on the day: their average shrunk towards
                # the category's level, with what it does not know (each game of a preview is
                # played at a level drawn from it).
                mean, spread = belief(per_game, games, prior)
            else:
                mean, spread = belief(0.0, 0, prior, RECORD_SPREAD)
            levels = [(mean, spread)] * per_side
            if ratings:
                levels = [rated_belief(mean, spread, r.mu - MU, r.sigma, prior) for r in ratings]
            players = [{"twenties_per_game": round(m, 2), "spread": round(s, 2)} for m, s in levels]
            shown = " / ".join(f"{m:.1f}" for m in dict.fromkeys(m for m, _ in levels))
            if entry.id in recorded:
                source = ngettext(
                    "estimated from %(twenties).1f 20s per game in %(games)s game",
                    "estimated from %(twenties).1f 20s per game in %(games)s games",
                    games,
                ) % {"twenties": per_game, "games": games}
                if ratings:
                    source = _("%(twenties)s and %(rating)s") % {
                        "twenties": source,
                        "rating": rating_label(ratings),
                    }
            else:
                source = _("estimated from %(rating)s") % {"rating": rating_label(ratings)}
            out[entry.id] = EntryPlayers(
                players,
                _("%(source)s: %(mean)s ± %(spread).1f on the day")
                % {"source": source, "mean": shown, "spread": spread},
            )
            continue
        out[entry.id] = EntryPlayers(
            [default] * per_side, _("%(category)s default") % {"category": category.name}
        )
    return out


def entry_levels(entries: Sequence[Entry], category: Category) -> dict[int, tuple[float, float]]:
    """Each entry's level as the outcome model reads it, (mean, spread) of 20s per game, from
    the profiles above (``simulation.outcomes.levels.level_of``): a doubles team plays at its
    partners' mean level, with the larger of their spreads. The live odds and the featured
    match's win chance read it here."""
    from simulation.outcomes.levels import level_of

    levels: dict[int, tuple[float, float]] = {}
    for entry_id, players in entry_players(entries, category).items():
        pairs = [level_of(player) for player in players.players]
        levels[entry_id] = (sum(m for m, _s in pairs) / len(pairs), max(s for _m, s in pairs))
    return levels
