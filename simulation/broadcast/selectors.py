"""Reads of the broadcast kit: the featured match on air (or any one) as its pages, the
overlay, the JSON feed and the event stream all show it, from one dictionary (``live_state``),
so that the feed says what the page says.

The win chance after each round is read from the outcome model
(``simulation.outcomes.win_chance``) at each entry's level as the previews describe it
(``simulation.services.profiles`` and ``simulation.outcomes.levels.level_of``): a few
milliseconds per round from the tables, worked out again on each reading.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext as _

from simulation.broadcast.services import LiveGame, games_won, live_games, stream_version
from simulation.models import FeaturedMatch
from simulation.services.profiles import entry_levels
from tournaments.models import Category, Tournament

logger = logging.getLogger(__name__)

#: Draws of the rest of the match for each win chance (steady to about a percent).
DRAWS = 4000


def queue(tournament: Tournament) -> list[FeaturedMatch]:
    """The stream queue in its order."""
    return list(
        FeaturedMatch.objects.filter(tournament=tournament).select_related(
            "match__entry_a", "match__entry_b", "match__stage__category"
        )
    )


def on_air(tournament: Tournament) -> FeaturedMatch | None:
    """The match the overlay shows: the first not finished, else the last finished one."""
    items = queue(tournament)
    live = [f for f in items if f.state != FeaturedMatch.State.FINISHED]
    if live:
        return live[0]
    return items[-1] if items else None


def win_course(featured: FeaturedMatch, games: list[LiveGame]) -> tuple[list[float] | None, str]:
    """A's chance of winning the match before the first round and after each round entered,
    or None with the reason in words."""
    from simulation.outcomes.table import load_table
    from simulation.outcomes.win_chance import win_chance

    match = featured.match
    category = match.stage.category
    try:
        table = load_table(category.kind)
        levels = entry_levels([match.entry_a, match.entry_b], category)
    except (FileNotFoundError, ValueError, KeyError, OSError):
        logger.info("No win chance for featured match %s", featured.pk, exc_info=True)
        return None, _("No win chance: the outcome model has no table for this game.")
    if category.scoring_system != Category.ScoringSystem.NCA:
        return None, _("No win chance: the outcome model plays NCA games only.")
    level_a, level_b = levels[match.entry_a_id], levels[match.entry_b_id]
    course: list[float] = []
    won = [0, 0]
    for game in games:
        for k in range(len(game.rounds) + 1):
            if game.over and k == len(game.rounds):
                break  # a game's end is the next game's start (or the match's end, below)
            a, _level, _b = win_chance(
                table,
                level_a,
                level_b,
                [(r.points_a, r.points_b) for r in game.rounds[:k]],
                playoff=game.playoff,
                best_of=match.best_of,
                games_won=(won[0], won[1]),
                draws=DRAWS,
                seed=featured.pk,
            )
            course.append(float(a))
        if game.over and game.winner is not None:
            won[game.winner] += 1
    if games[-1].over:
        course.append(1.0 if won[0] > won[1] else 0.0 if won[1] > won[0] else 0.5)
    return course, ""


def _percent(value: float) -> int:
    return round(value * 100)


def live_state(featured: FeaturedMatch | None, tournament: Tournament) -> dict[str, Any]:
    """The featured match as every view of it shows it (the JSON feed's body)."""
    note = _("Live score: the scorecard is official.")
    if featured is None:
        return {
            "tournament": tournament.slug,
            "featured": None,
            "version": stream_version(tournament.pk),
            "note": note,
            "empty": _("No match is featured yet."),
        }
    match = featured.match
    games = live_games(featured)
    course, reason = win_course(featured, games)
    current = games[-1]
    won = games_won(games)
    over = featured.state == FeaturedMatch.State.FINISHED
    chance = course[-1] if course else None
    names = [str(match.entry_a), str(match.entry_b)]
    return {
        "tournament": tournament.slug,
        "featured": featured.pk,
        "version": stream_version(tournament.pk),
        "state": featured.state,
        "state_label": str(featured.get_state_display()),
        "match": match.pk,
        "stage": str(match.stage),
        "names": names,
        "best_of": match.best_of,
        "games_won": list(won),
        "game": current.number,
        "over": over,
        "hammer": None if over else current.next_hammer,
        "games": [
            {
                "number": g.number,
                "points": list(g.points),
                "twenties": list(g.twenties),
                "over": g.over,
                "winner": None if g.winner is None else "ab"[g.winner],
                "rounds": [
                    {
                        "number": r.number,
                        "points": [r.points_a, r.points_b],
                        "twenties": [r.twenties_a, r.twenties_b],
                        "hammer": r.hammer,
                    }
                    for r in g.rounds
                ],
            }
            for g in games
        ],
        "win_chance": None
        if chance is None
        else {
            "a": round(chance, 3),
            "b": round(1 - chance, 3),
            "a_percent": _percent(chance),
            "b_percent": 100 - _percent(chance),
        },
        "course": [round(c, 3) for c in course] if course else [],
        "no_chance": reason,
        "note": note,
    }


def course_points(course: list[float], width: int = 240, height: int = 60) -> str:
    """The win chance's course as an SVG polyline's points (A's chance, top = 100%)."""
    if not course:
        return ""
    step = width / max(1, len(course) - 1)
    return " ".join(f"{i * step:.1f},{height - c * height:.1f}" for i, c in enumerate(course))
