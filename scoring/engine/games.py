"""A game: the rounds played between two entries, and what they add up to."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.translation import _

from .errors import EngineInputError
from .rounds import Round, check_round
from .three import RoundOfThree

#: NCA 2b: "A game shall consist of 4 rounds." (WCC Scoring says the same.)
GAME_ROUNDS = 4


@dataclass(slots=True)
class Game:
    """A game between entries ``a`` and ``b`` (a player in singles, a team in doubles), and
    ``c`` in the three-player game (family rulebook, Option Two; its rounds are
    :class:`.three.RoundOfThree`).

    Each round lists side ``a`` first. A game may hold fewer rounds than a full game while it is
    being played, or a 5th round (and more) when it was a championship game tied after 4; when it
    is over and who won under its rules is for :mod:`.judge` to say.
    """

    a: str
    b: str
    rounds: list[Round] = field(default_factory=list)
    c: str | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        """The entries in the game's order: two, or three in the three-player game."""
        return (self.a, self.b) if self.c is None else (self.a, self.b, self.c)

    @property
    def label(self) -> str:
        """How messages name the game: ``ANNA v BEN``."""
        return " v ".join(self.sides)

    @property
    def points(self) -> tuple[int, ...]:
        """Total round points per side (NCA 2a iv: 2 for a round won, 1 each for a tie)."""
        return tuple(sum(r.points[i] for r in self.rounds) for i in range(len(self.sides)))

    @property
    def twenties(self) -> tuple[int, ...]:
        """Total 20s per side, the tiebreak material of the WCC Tie-Breaking Procedure."""
        return tuple(sum(r.twenties[i] for r in self.rounds) for i in range(len(self.sides)))

    @property
    def winner(self) -> str | None:
        """The entry with the most points alone, or None while level (a drawn game, or one
        still going).

        Whether the game is over is not this property's business: ask :func:`.judge.judge_game`.
        """
        points = self.points
        best = max(points)
        leaders = [side for side, p in zip(self.sides, points, strict=True) if p == best]
        return leaders[0] if len(leaders) == 1 else None


def check_game(game: Game, number: int, discs: int | None = None) -> None:
    """Check one game of a list, naming it by its 1-based ``number`` and its entries.

    An entry cannot play itself; every round must be a :class:`Round`; with ``discs`` given, no
    round may show more 20s or a higher board score than that many discs can make.
    """
    if not isinstance(game, Game):
        raise EngineInputError(
            _("game %(number)s must be a Game, not %(type)s")
            % {"number": number, "type": type(game).__name__}
        )
    for side in game.sides:
        if not isinstance(side, str) or not side.strip():
            raise EngineInputError(
                _("game %(number)s: entries must be non-empty names, not %(side)s")
                % {"number": number, "side": repr(side)}
            )
    if len(set(game.sides)) != len(game.sides):
        raise EngineInputError(
            _("game %(number)s (%(game)s): an entry cannot play itself")
            % {"number": number, "game": game.label}
        )
    kind = Round if game.c is None else RoundOfThree
    for index, round_ in enumerate(game.rounds, 1):
        if not isinstance(round_, kind):
            raise EngineInputError(
                _("game %(number)s (%(game)s), round %(round)s must be a %(kind)s, not %(type)s")
                % {
                    "number": number,
                    "game": game.label,
                    "round": index,
                    "kind": kind.__name__,
                    "type": type(round_).__name__,
                }
            )
        if discs is not None:
            try:
                check_round(round_, discs)
            except EngineInputError as error:
                where = _("game %(number)s (%(game)s), round %(round)s") % {
                    "number": number,
                    "game": game.label,
                    "round": index,
                }
                raise error.named(game.sides).within(where) from None
