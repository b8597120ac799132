"""A match: a number of games between the same two entries, won by the best of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import EngineInputError
from .games import Game, game_is_over


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Games won by each entry, and the winner once one of them has won enough.

    ``over`` is true when the match has a winner or every game of it has been played (only
    possible without a winner when drawn games are allowed, i.e. outside a championship).
    """

    wins: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    over: bool = False
    games_needed: int = 1


def match_result(games: Sequence[Game], best_of: int, *, playoff: bool = True) -> MatchResult:
    """Count the games won in a best-of-``best_of`` match.

    WCC Scoring: "A championship match will be played best two out of three games in order to
    establish a winner" — ``best_of=3`` needs 2 wins. In a championship (``playoff=True``) a game
    tied after 4 rounds is not finished until its deciding round (WCC Scoring, the 5th round). Only
    the last game may be unfinished; a game after the match was decided, a game between other
    entries, or more than ``best_of`` games are input errors.
    """
    if isinstance(best_of, bool) or not isinstance(best_of, int) or best_of < 1:
        raise EngineInputError(f"best_of must be a whole number of at least 1, not {best_of!r}")
    needed = best_of // 2 + 1
    if not games:
        return MatchResult(games_needed=needed)
    pair = {games[0].a, games[0].b}
    wins = {games[0].a: 0, games[0].b: 0}
    winner: str | None = None
    finished = 0
    for number, game in enumerate(games, 1):
        if {game.a, game.b} != pair:
            raise EngineInputError(
                f"game {number} ({game.label}) is not between the match's entries "
                f"{games[0].a} and {games[0].b}"
            )
        if winner is not None:
            raise EngineInputError(
                f"game {number} ({game.label}) was played after {winner} had won the match"
            )
        if number > best_of:
            raise EngineInputError(
                f"game {number} ({game.label}) is one too many for a best of {best_of}"
            )
        if not game_is_over(game, playoff=playoff):
            if number < len(games):
                raise EngineInputError(
                    f"game {number} ({game.label}) is unfinished, yet a later game was played"
                )
            break
        finished += 1
        if game.winner is not None:
            wins[game.winner] += 1
            if wins[game.winner] >= needed:
                winner = game.winner
    over = winner is not None or finished == best_of
    return MatchResult(wins=wins, winner=winner, over=over, games_needed=needed)
