"""The one judge of results: when a game or a match is over, who won, and what is still missing.

Everything above the engine asks here (the scorecards on a phone and on paper, the official
results, the bracket, the pages, the PDFs, the API and the simulation), so that no two places can
disagree about how many rounds a game has. Each scoring system of :data:`.systems.SYSTEMS` decides
for itself when its game ends (:meth:`.systems.ScoringSystem.status`); this module applies it to
rounds as the scorecards hold them and words what is missing for a person at the board.

The rules it carries out:

- NCA 2b: "A game shall consist of 4 rounds" (a category may set another number); a game tied
  after them is a draw, except in a championship game: WCC Scoring, "If after 4 rounds (a game)
  the player's scores are tied, a 5th round will be played as a winner has to be determined in
  these games". A 5th round that is tied again determines nothing, so rounds go on until one is
  won: a championship game is never over while level.
- Family rulebook, Scoring 6 and the Match-Play Rule: play to 100 (by differences) or to 8 (2-1-0);
  "Should there be a tie, play one final determining round", again until one side leads.
- WCC Scoring: "A championship match will be played best two out of three games in order to
  establish a winner": a best-of-N match is won by the first side to win N // 2 + 1 games.
- WCC Scoring: "The number of games in a 'match' is normally 10. However, this can vary in
  tournament play", and "All tournament games will use a point-scoring system": a fixed match
  of N games (any N) plays all N and is won by the side with more points over them; level on
  points, it is drawn. The rules break such a tie only for placing in the standings (20s, then
  a shoot-out), which the standings do from the games themselves; they give no way to settle a
  drawn match in a bracket, so a knockout plays best of N (``tournaments.models.Stage.clean``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from tournaments.translation import _

from .errors import EngineInputError, show
from .games import GAME_ROUNDS
from .rounds import DEFAULT_DISCS, TWO_ONE_ZERO, Round, check_round
from .systems import FirstToN, Nca, ScoringSystem, get_system
from .three import THREE, RoundOfThree

#: A round of any game: two sides, or the three players of the three-player game.
AnyRound = Round | RoundOfThree

#: How a match of N games is decided, as the stage chooses: best of N (the first side to win a
#: majority; the games after that are not needed), or a fixed match (all N games are played and
#: the total points decide). ``tournaments.models.Stage.MatchFormat`` stores the same names.
BEST_OF = "best-of"
FIXED = "fixed"
MATCH_FORMATS = (BEST_OF, FIXED)


class RoundData(TypedDict):
    """One round on a scorecard row, from the card owner's side: ``[own, opponent]`` pairs
    (``[own, first opponent, second opponent]`` in a three-player game, the opponents in the
    order of the match's entries).

    This is the shape stored in ``CardRow.rounds``, sent by the phone form and the API, and
    returned by :func:`round_to_data`; :func:`round_from_data` reads it back into a :class:`Round`.
    """

    points: list[int]
    twenties: list[int]
    score: list[int] | None
    time_expired: bool


@dataclass(frozen=True, slots=True)
class GameRules:
    """What the category and the stage say about one game.

    ``system`` names a scoring system of the registry; ``rounds`` is the length of an NCA game
    (the category's rounds per game); ``playoff`` marks a championship game, which must have a
    winner; ``target`` is the goal of a first-to system (100, 8, N); ``discs`` the discs one side
    shoots in a round (8 in singles, 12 for a doubles team of two).
    """

    system: str = "nca"
    rounds: int = GAME_ROUNDS
    playoff: bool = False
    target: int | None = None
    discs: int = DEFAULT_DISCS

    def scoring_system(self) -> ScoringSystem:
        """The registry's system for these rules."""
        if self.system == "nca":
            return Nca(rounds=self.rounds, playoff=self.playoff)
        if self.system == "first-to-N":
            if self.target is None:
                raise EngineInputError(_("first-to-N needs its target N"))
            return FirstToN(self.target)
        params = {} if self.target is None else {"target": self.target}
        return get_system(self.system, **params)

    @property
    def round_scoring(self) -> str:
        """How a round's board scores become points under these rules (see :class:`Round`)."""
        return self.scoring_system().round_scoring

    @property
    def sides(self) -> int:
        """Sides at the board: two, or three in the three-player game."""
        return self.scoring_system().sides


@dataclass(frozen=True, slots=True)
class GameVerdict:
    """Where a game stands under its rules.

    ``winner`` is 0 or 1 (the side, in the order the rounds were given) or None while level;
    ``missing`` says in words what the game still needs ("" once it is over).
    """

    rounds: int
    points: tuple[int, ...]
    twenties: tuple[int, ...]
    over: bool
    winner: int | None
    missing: str

    @property
    def drawn(self) -> bool:
        return self.over and self.winner is None


@dataclass(frozen=True, slots=True)
class MatchVerdict:
    """Games won by each side of a match, and the winner once one side has won enough.

    ``over`` is true when the match has a winner or every game of it was played (possible without
    a winner only when games can be drawn, i.e. outside a championship, or when a fixed match
    ends level on points). ``games_needed`` is the wins that decide a best of N, or N itself in a
    fixed match (every game is needed); ``points`` are each side's points over the finished games.
    """

    wins: tuple[int, ...]
    winner: int | None
    over: bool
    games_needed: int
    games_played: int
    points: tuple[int, ...] = ()
    match_format: str = BEST_OF

    @property
    def drawn(self) -> bool:
        """Over without a winner: every game played and nobody ahead."""
        return self.over and self.winner is None


# --- a round's data ------------------------------------------------------------------------


def round_data(
    points: Sequence[int] | None = None,
    twenties: Sequence[int] = (0, 0),
    score: Sequence[int] | None = None,
    time_expired: bool = False,
) -> RoundData:
    """One round in the card's shape, as a person reports it: the points, or the board scores
    they follow from, and the 20s; or a round that time ran out on. Checked when read."""
    return {
        "points": list(points) if points is not None else None,  # type: ignore[typeddict-item]
        "twenties": list(twenties),
        "score": list(score) if score is not None else None,
        "time_expired": time_expired,
    }


def round_from_data(data: Mapping[str, Any], scoring: str = TWO_ONE_ZERO) -> AnyRound:
    """Read one round of a card (see :class:`RoundData`) into a :class:`Round`.

    The points of a round given with board scores follow from the scores; one marked
    ``time_expired`` is 0-0 with nothing else.
    """
    if not isinstance(data, Mapping):
        raise EngineInputError(
            _("a round must be an object, not %(value)s") % {"value": show(data)}
        )
    if scoring == THREE:
        return _round_of_three(data)
    try:
        if data.get("time_expired"):
            return Round.time_expired(scoring)
        twenties = data.get("twenties", (0, 0))
        if data.get("score") is not None:
            if data.get("points") is not None:
                # Both written down: the engine checks that the points follow from the scores.
                return Round(data["points"], twenties, data["score"], scoring)
            return Round.from_score(data["score"], twenties, scoring)
        if scoring != TWO_ONE_ZERO:
            raise EngineInputError(
                _(
                    "this game is scored by the difference of the board scores, so give both "
                    "board scores (or mark the round as one that time ran out on)"
                )
            )
        if data.get("points") is None:
            raise EngineInputError(_("give the points (or the board scores) of both sides"))
        return Round(points=data["points"], twenties=twenties)
    except (TypeError, ValueError, IndexError) as error:
        if isinstance(error, EngineInputError):
            raise
        raise EngineInputError(
            _("give points (or board scores) and 20s as two whole numbers, one per side")
        ) from None


def _round_of_three(data: Mapping[str, Any]) -> RoundOfThree:
    if data.get("time_expired"):
        return RoundOfThree.time_expired()
    twenties = data.get("twenties", (0, 0, 0))
    if data.get("score") is not None:
        if data.get("points") is not None:
            return RoundOfThree(data["points"], twenties, data["score"])
        return RoundOfThree.from_score(data["score"], twenties)
    if data.get("points") is None:
        raise EngineInputError(_("give the points (or the board scores) of the three players"))
    return RoundOfThree(data["points"], twenties)


def round_to_data(round_: AnyRound) -> RoundData:
    """A :class:`Round` in the card's JSON shape."""
    return {
        "points": list(round_.points),
        "twenties": list(round_.twenties),
        "score": list(round_.score) if round_.score is not None else None,
        "time_expired": round_.is_time_expired,
    }


def seen_from(rounds: Iterable[Mapping[str, Any]], order: Sequence[int]) -> list[RoundData]:
    """The same rounds (card data) with the sides in ``order`` (indices into the given order):
    ``(1, 0)`` is the other side of a two-sided board; ``(2, 0, 1)`` puts the third player first.
    """

    def pick(values: Sequence[int]) -> list[int]:
        return [values[i] for i in order]

    return [
        {
            "points": pick(r["points"]),
            "twenties": pick(r["twenties"]),
            "score": pick(r["score"]) if r.get("score") is not None else None,
            "time_expired": bool(r.get("time_expired")),
        }
        for r in rounds
    ]


def mirror(rounds: Iterable[Mapping[str, Any]]) -> list[RoundData]:
    """The same rounds (card data) seen from the other side of the board."""
    return seen_from(rounds, (1, 0))


def read_rounds(rounds: Sequence[Mapping[str, Any]], rules: GameRules) -> list[AnyRound]:
    """Every round of a card row as a checked :class:`Round` (a :class:`RoundOfThree` in the
    three-player game); the error names the round (and, once the caller names the sides with
    :meth:`.errors.EngineInputError.named`, whose figure is wrong)."""
    scoring = rules.round_scoring
    built: list[AnyRound] = []
    for number, data in enumerate(rounds, 1):
        try:
            round_ = round_from_data(data, scoring)
            check_round(round_, rules.discs)
        except EngineInputError as error:
            raise error.framed(
                _("round %(number)s: %(error)s"), {"number": number}, round=number
            ) from None
        built.append(round_)
    return built


# --- games ---------------------------------------------------------------------------------


def judge_game(rounds: Sequence[AnyRound], rules: GameRules) -> GameVerdict:
    """Judge a game from its rounds (side ``a`` first).

    A round after the game was already over, or a round with the wrong number of sides, is an
    input error naming that round.
    """
    system = rules.scoring_system()
    for number, round_ in enumerate(rounds, 1):
        if len(round_.points) != system.sides:
            raise EngineInputError(
                _("round %(number)s gives %(given)s sides; a %(system)s game has %(sides)s")
                % {
                    "number": number,
                    "given": len(round_.points),
                    "system": system.name,
                    "sides": system.sides,
                },
                round=number,
            )
    state = system.tally([r.points for r in rounds])
    twenties = tuple(sum(r.twenties[side] for r in rounds) for side in range(system.sides))
    points = state.totals
    missing = "" if state.over else system.missing(len(rounds), points)
    return GameVerdict(len(rounds), points, twenties, state.over, state.winner, missing)


def judge_points(
    points: Sequence[Sequence[int]], rules: GameRules, twenties: Sequence[int] = (0, 0)
) -> GameVerdict:
    """Judge a game from its rounds' points alone (already scored under ``rules``), for readers
    that hold stored totals rather than whole rounds; ``twenties`` are carried through."""
    system = rules.scoring_system()
    state = system.tally(points)
    missing = "" if state.over else system.missing(len(points), state.totals)
    return GameVerdict(
        len(points), state.totals, tuple(twenties), state.over, state.winner, missing
    )


def judge_row(rounds: Sequence[Mapping[str, Any]], rules: GameRules) -> GameVerdict:
    """Judge the rounds of a card row (card data); errors name the round at fault."""
    return judge_game(read_rounds(rounds, rules), rules)


def check_complete(rounds: Sequence[Mapping[str, Any]], rules: GameRules) -> GameVerdict:
    """A row may be validated or verified only when its game is over; say what is missing.

    Raises :class:`EngineInputError` with the round that is needed, e.g. "round 5 is needed:
    the game is tied 4-4 ...".
    """
    verdict = judge_row(rounds, rules)
    if not verdict.over:
        raise EngineInputError(verdict.missing, round=verdict.rounds + 1)
    return verdict


def round_lines(rules: GameRules, played: int = 0, over: bool = False) -> int:
    """How many round lines a card shows: the rounds a game takes at least, and one more
    while a played game is not over yet (a championship tie, a first-to game still short)."""
    fewest = rules.scoring_system().fewest_rounds()
    if over:
        return max(fewest, played)
    return max(fewest, played + 1) if played >= fewest else fewest


def paper_round_lines(rules: GameRules) -> int:
    """Round lines a printed card keeps, so that a game can be written down to its end (each
    system says how many: a championship card has room for deciding rounds)."""
    return rules.scoring_system().paper_rounds()


# --- matches -------------------------------------------------------------------------------


def wins_needed(best_of: int) -> int:
    """Games to win a best-of-``best_of`` match: a majority (WCC: "best two out of three")."""
    if isinstance(best_of, bool) or not isinstance(best_of, int) or best_of < 1:
        raise EngineInputError(
            _("best_of must be a whole number of at least 1, not %(best_of)s")
            % {"best_of": repr(best_of)}
        )
    return best_of // 2 + 1


def check_match_format(match_format: str, games: int) -> None:
    """A match format the judge knows and a whole number of games, at least 1. Raises
    :class:`EngineInputError` saying what is wrong."""
    if match_format not in MATCH_FORMATS:
        raise EngineInputError(
            _("unknown match format %(format)s; known formats: %(known)s")
            % {"format": show(match_format), "known": ", ".join(MATCH_FORMATS)}
        )
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise EngineInputError(
            _("a match needs a whole number of games of at least 1, not %(games)s")
            % {"games": repr(games)}
        )


def decided_early(wins: Sequence[int], best_of: int, match_format: str = BEST_OF) -> bool:
    """Whether the games won so far decide the match before its last game: in a best of N once
    a side has won a majority; never in a fixed match, whose games are all played.

    For players of a match game by game (the simulation) that count wins as they go; everyone
    holding the games' verdicts asks :func:`judge_match`.
    """
    check_match_format(match_format, best_of)
    if match_format == FIXED:
        return False
    return max(wins, default=0) >= wins_needed(best_of)


def judge_match(
    games: Sequence[GameVerdict], best_of: int, match_format: str = BEST_OF
) -> MatchVerdict:
    """Judge a match from its games' verdicts, in the order they were played.

    ``best_of`` is the number of games N; ``match_format`` says how they decide the match (see
    :data:`MATCH_FORMATS`). Only the last game may be unfinished; a game after the match was
    decided, or more than N games, are input errors naming the game.
    """
    if match_format == FIXED:
        return _judge_fixed(games, best_of)
    if match_format != BEST_OF:
        check_match_format(match_format, best_of)
    needed = wins_needed(best_of)
    wins = [0] * max([2, *(len(game.points) for game in games)])
    winner: int | None = None
    finished = 0
    for number, game in enumerate(games, 1):
        if winner is not None:
            raise EngineInputError(
                _("game %(number)s was played after the match was decided") % {"number": number}
            )
        if number > best_of:
            raise EngineInputError(
                _("game %(number)s is one too many for a best of %(best_of)s")
                % {"number": number, "best_of": best_of}
            )
        if not game.over:
            if number < len(games):
                raise EngineInputError(
                    _("game %(number)s is unfinished, yet a later game was played")
                    % {"number": number}
                )
            break
        finished += 1
        if game.winner is not None:
            wins[game.winner] += 1
            if wins[game.winner] >= needed:
                winner = game.winner
    over = winner is not None or finished >= best_of
    points = _points(games[:finished], len(wins))
    return MatchVerdict(tuple(wins), winner, over, needed, finished, points)


def _judge_fixed(games: Sequence[GameVerdict], count: int) -> MatchVerdict:
    """A fixed match of ``count`` games: over exactly when all of them are over, won by the
    side with the most points over them alone (WCC: "a point-scoring system"), drawn when the
    leaders are level. A lead is never final before the last game: every game is played."""
    check_match_format(FIXED, count)
    sides = max([2, *(len(game.points) for game in games)])
    wins = [0] * sides
    finished = 0
    for number, game in enumerate(games, 1):
        if number > count:
            raise EngineInputError(
                _("game %(number)s is one too many for a fixed match of %(games)s games")
                % {"number": number, "games": count}
            )
        if not game.over:
            if number < len(games):
                raise EngineInputError(
                    _("game %(number)s is unfinished, yet a later game was played")
                    % {"number": number}
                )
            break
        finished += 1
        if game.winner is not None:
            wins[game.winner] += 1
    points = _points(games[:finished], sides)
    over = finished == count
    winner = None
    if over:
        best = max(points)
        leaders = [side for side, total in enumerate(points) if total == best]
        winner = leaders[0] if len(leaders) == 1 else None
    return MatchVerdict(tuple(wins), winner, over, count, finished, points, FIXED)


def _points(games: Sequence[GameVerdict], sides: int) -> tuple[int, ...]:
    """Each side's points over ``games``."""
    return tuple(sum(game.points[side] for game in games) for side in range(sides))
