"""What a match's games add up to: each game's points and 20s from its official rounds, who won it,
and whether the match is decided.

A game's result comes from its official rounds only (``tournaments.Round``), judged by the one
judge (:mod:`scoring.engine.judge`) under the category's scoring system: in a playoff game, a 5th
round when it was tied after 4 and more while tied (WCC Scoring: "If after 4 rounds (a game) the
player's scores are tied, a 5th round will be played as a winner has to be determined"). Every
function runs a fixed number of queries whatever the size of the stage or tournament.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet

from scoring import engine
from scoring.results.rules import category_rules
from tournaments.models import Category, Game, Match, Stage
from tournaments.selectors import stage_matches

SIDE_LETTERS = "abc"


@dataclass(frozen=True)
class GameScore:
    """One game as its official rounds add up, a figure per side (three in a three-player game);
    ``winner`` is "a", "b", "c" or None (level, or still going)."""

    number: int
    rounds: int
    points: tuple[int, ...]
    twenties: tuple[int, ...]
    finished: bool
    winner: str | None


@dataclass(frozen=True)
class MatchOutcome:
    """A match so far: its games, the games each side won, and the winner once decided.

    ``complete`` is true for a bye, a match with a winner, or one whose games have all been
    played (a drawn single game outside a championship).
    """

    best_of: int
    games: tuple[GameScore, ...] = ()
    wins: tuple[int, ...] = (0, 0)
    winner: str | None = None
    complete: bool = False
    bye: bool = False

    @property
    def started(self) -> bool:
        return any(g.rounds for g in self.games)

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(sum(g.points[i] for g in self.games) for i in range(len(self.wins)))

    @property
    def twenties(self) -> tuple[int, ...]:
        return tuple(sum(g.twenties[i] for g in self.games) for i in range(len(self.wins)))


#: One stored game and its official rounds in order: (number, playoff, [(points per side...),
#: ...], [(20s per side...), ...]), a figure per side (three in a three-player game).
GameRounds = tuple[int, bool, list[tuple[int, ...]], list[tuple[int, ...]]]


def games_with_rounds(games: QuerySet[Game]) -> dict[int, list[GameRounds]]:
    """Every game of ``games`` with its rounds' points and 20s, by match id (one query; a game
    without rounds yet is listed with none)."""
    rows = games.order_by("match_id", "number", "rounds__number").values_list(
        "match_id",
        "number",
        "is_playoff",
        "rounds__points_a",
        "rounds__points_b",
        "rounds__points_c",
        "rounds__twenties_a",
        "rounds__twenties_b",
        "rounds__twenties_c",
    )
    by_match: dict[int, dict[int, GameRounds]] = defaultdict(dict)
    for match_id, number, playoff, pa, pb, pc, ta, tb, tc in rows:
        game = by_match[match_id].setdefault(number, (number, playoff, [], []))
        if pa is None:
            continue
        if pc is None:
            game[2].append((pa, pb))
            game[3].append((ta, tb))
        else:
            game[2].append((pa, pb, pc))
            game[3].append((ta, tb, tc))
    return {match_id: list(games.values()) for match_id, games in by_match.items()}


def _game_score(
    game: GameRounds, category: Category, sides: int
) -> tuple[GameScore, engine.GameVerdict]:
    number, playoff, points, twenties_by_round = game
    rules = category_rules(category, playoff=playoff)
    twenties = tuple(sum(r[i] for r in twenties_by_round) for i in range(sides))
    try:
        judged = engine.judge_points(points, rules, twenties)
    except engine.EngineInputError:
        # Rounds past the game's end (stored before a correction): show them, decide nothing.
        totals = tuple(sum(r[i] for r in points) for i in range(sides))
        judged = engine.GameVerdict(len(points), totals, twenties, False, None, "")
    if len(judged.points) != sides:  # no rounds yet: the system's zero totals
        judged = engine.GameVerdict(0, (0,) * sides, (0,) * sides, False, None, judged.missing)
    winner_side = judged.winner if judged.over else None
    winner = None if winner_side is None else SIDE_LETTERS[winner_side]
    score = GameScore(number, len(points), judged.points, judged.twenties, judged.over, winner)
    return score, judged


def outcome_of(match: Match, games: Sequence[GameRounds]) -> MatchOutcome:
    """Judge one match from its games (see :func:`games_with_rounds`) with the one judge.

    A game is over when its scoring system says so: after the category's rounds, except that a
    tied playoff game plays on until a round breaks the tie (WCC Scoring, the 5th round and after);
    a first-to game when a side reaches the target alone. The match is won by the first side to
    win a majority of ``best_of`` games (WCC: "best two out of three games").
    """
    if match.entry_b_id is None:
        return MatchOutcome(best_of=match.best_of, winner="a", complete=True, bye=True)
    category = match.stage.category
    sides = 3 if match.entry_c_id is not None else 2
    scored = [_game_score(game, category, sides) for game in sorted(games, key=lambda g: g[0])]
    verdicts = [judged for _, judged in scored]
    wins = tuple(sum(1 for v in verdicts if v.over and v.winner == i) for i in range(sides))
    # Games drawn but not started yet are not part of the match so far.
    while verdicts and verdicts[-1].rounds == 0:
        verdicts.pop()
    try:
        result = engine.judge_match(verdicts, match.best_of)
        winner_side, complete = result.winner, result.over
    except engine.EngineInputError:
        # More games recorded than the match has (being corrected): judge by the games won.
        most = max(wins)
        winner_side = wins.index(most) if wins.count(most) == 1 else None
        complete = winner_side is not None
    return MatchOutcome(
        best_of=match.best_of,
        games=tuple(score for score, _ in scored),
        wins=wins,
        winner=None if winner_side is None else SIDE_LETTERS[winner_side],
        complete=complete,
    )


def match_outcomes(matches: Sequence[Match], games: QuerySet[Game]) -> dict[int, MatchOutcome]:
    """Outcomes of ``matches`` (their stage and category loaded) from ``games``, a queryset that
    covers at least their games (one query)."""
    by_match = games_with_rounds(games)
    return {m.id: outcome_of(m, by_match.get(m.id, ())) for m in matches}


def stage_outcomes(stage: Stage, matches: Sequence[Match] | None = None) -> dict[int, MatchOutcome]:
    """Outcomes of every match of the stage (two queries, one if ``matches`` is given)."""
    if matches is None:
        matches = stage_matches(stage)
    return match_outcomes(matches, Game.objects.filter(match__stage=stage))


def current_round(stage: Stage) -> int | None:
    """The first round of play with a match still to finish; None when all are (two queries)."""
    matches = stage_matches(stage)
    outcomes = stage_outcomes(stage, matches)
    return min((m.round_of_play for m in matches if not outcomes[m.id].complete), default=None)
