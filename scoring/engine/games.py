"""A game: the rounds played between two entries, and what they add up to."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import EngineInputError
from .rounds import Pair, Round, check_round

#: NCA 2b: "A game shall consist of 4 rounds." (WCC Scoring says the same.)
GAME_ROUNDS = 4


@dataclass(slots=True)
class Game:
    """A game between entries ``a`` and ``b`` (a player in singles, a team in doubles).

    Each round lists side ``a`` first. A game may hold fewer rounds than a full game while it is
    being played, or a 5th round (and more) when it was a championship game tied after 4; when it
    is over and who won under its rules is for :mod:`.judge` to say.
    """

    a: str
    b: str
    rounds: list[Round] = field(default_factory=list)

    @property
    def label(self) -> str:
        """How messages name the game: ``ANNA v BEN``."""
        return f"{self.a} v {self.b}"

    @property
    def points(self) -> Pair:
        """Total round points per side (NCA 2a iv: 2 for a round won, 1 each for a tie)."""
        return (sum(r.points[0] for r in self.rounds), sum(r.points[1] for r in self.rounds))

    @property
    def twenties(self) -> Pair:
        """Total 20s per side, the tiebreak material of the WCC Tie-Breaking Procedure."""
        return (sum(r.twenties[0] for r in self.rounds), sum(r.twenties[1] for r in self.rounds))

    @property
    def winner(self) -> str | None:
        """The entry with more points, or None while level (a drawn game, or one still going).

        Whether the game is over is not this property's business: ask :func:`.judge.judge_game`.
        """
        a, b = self.points
        if a == b:
            return None
        return self.a if a > b else self.b


def check_game(game: Game, number: int, discs: int | None = None) -> None:
    """Check one game of a list, naming it by its 1-based ``number`` and its entries.

    An entry cannot play itself; every round must be a :class:`Round`; with ``discs`` given, no
    round may show more 20s or a higher board score than that many discs can make.
    """
    if not isinstance(game, Game):
        raise EngineInputError(f"game {number} must be a Game, not {type(game).__name__}")
    for side in (game.a, game.b):
        if not isinstance(side, str) or not side.strip():
            raise EngineInputError(f"game {number}: entries must be non-empty names, not {side!r}")
    if game.a == game.b:
        raise EngineInputError(f"game {number} ({game.label}): an entry cannot play itself")
    for index, round_ in enumerate(game.rounds, 1):
        if not isinstance(round_, Round):
            raise EngineInputError(
                f"game {number} ({game.label}), round {index} must be a Round, "
                f"not {type(round_).__name__}"
            )
        if discs is not None:
            try:
                check_round(round_, discs)
            except EngineInputError as error:
                raise error.within(f"game {number} ({game.label}), round {index}") from None
