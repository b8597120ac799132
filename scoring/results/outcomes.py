"""What a match's games add up to: each game's points and 20s from its official rounds, who won it,
and whether the match is decided.

A game's result comes from its official rounds only (``tournaments.Round``), judged by the one
judge (:mod:`scoring.engine.judge`) under the category's scoring system: in a playoff game, a 5th
round when it was tied after 4 and more while tied (WCC Scoring: "If after 4 rounds (a game) the
player's scores are tied, a 5th round will be played as a winner has to be determined"). Every
function runs a fixed number of queries whatever the size of the stage or tournament.

A forfeited game (``Game.forfeited_by``: a walkover after a withdrawal or a disqualification, or
the head referee's ruling) has no rounds: the other side wins it with what a bye is worth
(:func:`scoring.results.rules.unplayed_game`: the category's scoring system decides, so a
walkover in a game to 100 is won 100-0, and in an NCA game the stage's bye points, 8-0 by
default), the side that forfeits scores 0. A walkover drawn after the match was already decided
(the third game of a best of 3 won 2-0) is not needed and counts for nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Protocol

from django.db.models import QuerySet
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import engine
from scoring.results.rules import category_rules, unplayed_game
from tournaments.models import Category, Game, Match, Stage
from tournaments.selectors import stage_matches

SIDE_LETTERS = "abc"
#: A game won or lost by forfeit where results are listed in tight cells (brackets, lists): the
#: key the code compares; :func:`walkover_mark` is what the lists print.
WALKOVER = "W/O"


def walkover_mark() -> str:
    """:data:`WALKOVER` as a list or a bracket prints it, in the visitor's language."""
    return _("W/O")


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
    #: The side that forfeits the game ("" when it counts as played) and why
    #: (``Game.ForfeitKind``); ``label`` is the forfeit in words ("Walkover: Bob withdrew").
    forfeited_by: str = ""
    forfeit_kind: str = ""
    label: str = ""

    @property
    def walkover(self) -> bool:
        """Won by forfeit: a walkover or the head referee's ruling, counted in the match
        (``finished``); False for a forfeit the match did not need."""
        return bool(self.forfeited_by) and self.finished


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
    def by_walkover(self) -> bool:
        """Decided without a round played: every game it needed was forfeited."""
        return self.complete and not self.bye and not self.started and self.walkovers > 0

    @property
    def walkovers(self) -> int:
        """Games of the match won by forfeit."""
        return sum(1 for g in self.games if g.walkover)

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(sum(g.points[i] for g in self.games) for i in range(len(self.wins)))

    @property
    def twenties(self) -> tuple[int, ...]:
        return tuple(sum(g.twenties[i] for g in self.games) for i in range(len(self.wins)))


class GameRounds(NamedTuple):
    """One stored game and its official rounds in order: the points and the 20s of each round,
    a figure per side (three in a three-player game); ``forfeited_by`` and ``forfeit_kind`` as
    the game stores them, ``label`` the forfeit in words."""

    number: int
    playoff: bool
    points: list[tuple[int, ...]]
    twenties: list[tuple[int, ...]]
    forfeited_by: str = ""
    forfeit_kind: str = ""
    label: str = ""


def games_with_rounds(games: QuerySet[Game]) -> dict[int, list[GameRounds]]:
    """Every game of ``games`` with its rounds' points and 20s, by match id (one query; a game
    without rounds yet is listed with none)."""
    rows = games.order_by("match_id", "number", "rounds__number").values_list(
        "match_id",
        "number",
        "is_playoff",
        "forfeited_by",
        "forfeit_kind",
        "forfeit_reason",
        "rounds__points_a",
        "rounds__points_b",
        "rounds__points_c",
        "rounds__twenties_a",
        "rounds__twenties_b",
        "rounds__twenties_c",
    )
    by_match: dict[int, dict[int, GameRounds]] = defaultdict(dict)
    for match_id, number, playoff, lost, kind, reason, pa, pb, pc, ta, tb, tc in rows:
        game = by_match[match_id].get(number)
        if game is None:
            game = by_match[match_id][number] = GameRounds(
                number, playoff, [], [], lost, kind, forfeit_words(kind, reason)
            )
        if pa is None:
            continue
        if pc is None:
            game[2].append((pa, pb))
            game[3].append((ta, tb))
        else:
            game[2].append((pa, pb, pc))
            game[3].append((ta, tb, tc))
    return {match_id: list(games.values()) for match_id, games in by_match.items()}


def forfeit_words(kind: str, reason: str) -> str:
    """A forfeit in the words the lists print ("" for a game that counts as played); the
    entry's name is on the line already. ``Game.forfeit_label`` names it for a card."""
    if kind == Game.ForfeitKind.WITHDRAWAL:
        return _("Walkover (withdrawal)")
    if kind == Game.ForfeitKind.DISQUALIFICATION:
        return _("Walkover (disqualification)")
    if kind == Game.ForfeitKind.RULING:
        return _("Forfeit (head referee): %(reason)s") % {"reason": reason}
    return ""


def _walkover_score(
    game: GameRounds, stage: Stage, sides: int
) -> tuple[GameScore, engine.GameVerdict]:
    """A forfeited game: the other side wins it with what a bye is worth under the category's
    scoring system, the side that forfeits scores 0 (no rounds are played or counted)."""
    present = 1 - SIDE_LETTERS.index(game.forfeited_by)
    credit = unplayed_game(stage)
    points = credit.points_for(present, sides)
    twenties = credit.twenties_for(present, sides)
    verdict = engine.GameVerdict(0, points, twenties, True, present, "")
    score = GameScore(
        game.number,
        0,
        points,
        twenties,
        True,
        SIDE_LETTERS[present],
        game.forfeited_by,
        game.forfeit_kind,
        game.label,
    )
    return score, verdict


def _not_needed(score: GameScore) -> GameScore:
    """A forfeit after the match was decided: shown as forfeited, counted for nothing."""
    zeros = (0,) * len(score.points)
    return GameScore(
        score.number, 0, zeros, zeros, False, None, score.forfeited_by, score.forfeit_kind, ""
    )


def _game_score(
    game: GameRounds, category: Category, sides: int, stage: Stage | None = None
) -> tuple[GameScore, engine.GameVerdict]:
    number, playoff, points, twenties_by_round = game[:4]
    if game.forfeited_by and sides == 2 and stage is not None:
        return _walkover_score(game, stage, sides)
    rules = category_rules(category, playoff=playoff)
    twenties = tuple(sum(r[i] for r in twenties_by_round) for i in range(sides))
    try:
        judged = _judged_points(rules, tuple(points), get_language())
        judged = engine.GameVerdict(
            judged.rounds, judged.points, twenties, judged.over, judged.winner, judged.missing
        )
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


@lru_cache(maxsize=4096)
def _judged_points(
    rules: engine.GameRules, points: tuple[tuple[int, ...], ...], language: str | None
) -> engine.GameVerdict:
    """The judge's verdict on a game's round points (20s left out: the caller carries its own).

    The judge is pure and the same few point lines come back game after game (a 2-1-0 game of
    4 rounds has 81), so a 2,000-game stage is judged in a few dozen calls rather than 2,000.
    The verdict says in words what an unfinished game is missing, so it is kept per language
    (``language``, the active one).
    """
    return engine.judge_points(points, rules)


class JudgedMatch(Protocol):
    """What :func:`outcome_of` reads of a match: a stored ``Match`` or a lighter row with the
    same names (the standings read their matches as plain values)."""

    @property
    def entry_b_id(self) -> int | None: ...

    @property
    def entry_c_id(self) -> int | None: ...

    @property
    def best_of(self) -> int: ...

    @property
    def stage(self) -> Stage: ...


class MatchRow(NamedTuple):
    """What the judge (:func:`outcome_of`) and the standings read of a match, without building a
    model instance per match (and its stage and category again per match): a stage of 440
    matches is judged before every batch an auto-play sends."""

    id: int
    stage: Stage
    round_of_play: int
    best_of: int
    entry_a_id: int
    entry_b_id: int | None
    entry_c_id: int | None


#: The columns of a :class:`MatchRow` after its stage, as ``values_list`` reads them.
MATCH_ROW_COLUMNS = ("id", "round_of_play", "best_of", "entry_a_id", "entry_b_id", "entry_c_id")


def match_rows(stage: Stage) -> list[MatchRow]:
    """Every match of ``stage`` as a :class:`MatchRow` (one query, in id order); ``stage`` is
    the one each row names, so load its category once beforehand."""
    rows = Match.objects.filter(stage=stage).order_by("id").values_list(*MATCH_ROW_COLUMNS)
    return [MatchRow(row[0], stage, *row[1:]) for row in rows]


def outcome_of(match: JudgedMatch, games: Sequence[GameRounds]) -> MatchOutcome:
    """Judge one match from its games (see :func:`games_with_rounds`) with the one judge.

    A game is over when its scoring system says so: after the category's rounds, except that a
    tied playoff game plays on until a round breaks the tie (WCC Scoring, the 5th round and after);
    a first-to game when a side reaches the target alone. The match is won by the first side to
    win a majority of ``best_of`` games (WCC: "best two out of three games"), or, when its stage
    plays a fixed match (``Stage.match_format``), by the most points once all its games are over.
    """
    if match.entry_b_id is None:
        return MatchOutcome(best_of=match.best_of, winner="a", complete=True, bye=True)
    stage = match.stage
    category = stage.category
    match_format = stage.match_format
    sides = 3 if match.entry_c_id is not None else 2
    scored = [
        _game_score(game, category, sides, stage) for game in sorted(games, key=lambda g: g[0])
    ]
    # Games drawn but not started yet are not part of the match so far; a forfeit is.
    last = len(scored)
    while last and scored[last - 1][1].rounds == 0 and not scored[last - 1][1].over:
        last -= 1
    verdicts: list[engine.GameVerdict] = []
    for index in range(last):
        score, verdict = scored[index]
        if score.forfeited_by and _decided(verdicts, match.best_of, match_format):
            scored[index] = (_not_needed(score), verdict)
            continue
        verdicts.append(verdict)
    wins = tuple(sum(1 for v in verdicts if v.over and v.winner == i) for i in range(sides))
    try:
        result = engine.judge_match(verdicts, match.best_of, match_format)
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


def _decided(
    verdicts: Sequence[engine.GameVerdict], best_of: int, match_format: str = engine.BEST_OF
) -> bool:
    """Whether the games so far already decide the match (the judge says so: never before its
    last game in a fixed match)."""
    if not verdicts:
        return False
    try:
        return engine.judge_match(verdicts, best_of, match_format).winner is not None
    except engine.EngineInputError:
        return False


def match_outcomes(
    matches: Sequence[JudgedMatch], games: QuerySet[Game]
) -> dict[int, MatchOutcome]:
    """Outcomes of ``matches`` (their stage and category loaded) from ``games``, a queryset that
    covers at least their games (one query)."""
    by_match = games_with_rounds(games)
    return {m.id: outcome_of(m, by_match.get(m.id, ())) for m in matches}


def match_outcome(match: Match) -> MatchOutcome:
    """One match's outcome (its stage and category loaded), from its own games (one query)."""
    return match_outcomes([match], Game.objects.filter(match=match))[match.id]


def stage_outcomes(
    stage: Stage, matches: Sequence[JudgedMatch] | None = None
) -> dict[int, MatchOutcome]:
    """Outcomes of every match of the stage (two queries, one if ``matches`` is given)."""
    if matches is None:
        matches = stage_matches(stage)
    return match_outcomes(matches, Game.objects.filter(match__stage=stage))


def current_round(stage: Stage) -> int | None:
    """The first round of play with a match still to finish; None when all are (two queries)."""
    matches = stage_matches(stage)
    outcomes = stage_outcomes(stage, matches)
    return min((m.round_of_play for m in matches if not outcomes[m.id].complete), default=None)
