"""The one exception the engine raises for input that breaks a rule of the game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tournaments.translation import _, gettext_noop

#: What a message calls the sides of a round until the caller names them (the engine never
#: knows who played; the command line and the scorecards do, see :meth:`EngineInputError.named`).
SIDE_LABELS = (gettext_noop("side a"), gettext_noop("side b"), gettext_noop("side c"))

#: The words of a message, given the names of the sides (None: not known).
Render = Callable[[Sequence[str] | None], str]


class Figures:
    """One figure per side of a round (its points, 20s or board scores), as a message shows
    them: each beside the side it belongs to, "9 for Björn Åkesson, 0 for Joël Girard", so
    that nobody reads a figure as the other side's. The engine lists the sides in the order it
    was given them (a scorecard row: its owner first) but does not know their names: until the
    caller gives them, they are "side a", "side b"."""

    __slots__ = ("values",)

    def __init__(self, values: Sequence[object]) -> None:
        self.values = tuple(values)

    def words(self, sides: Sequence[str] | None = None) -> str:
        names = (
            list(sides)
            if sides is not None and len(sides) >= len(self.values)
            else [_(label) for label in SIDE_LABELS]
        )
        return ", ".join(
            _("%(figure)s for %(side)s") % {"figure": value, "side": name}
            for value, name in zip(self.values, names, strict=False)
        )

    def __str__(self) -> str:
        return self.words()


class EngineInputError(ValueError):
    """Input that cannot describe a real game: impossible points, 20s, board scores or ties.

    It is a ``ValueError`` so callers that only know the standard library can still catch it; the
    command-line tool prints its message and exits 2. Messages name the game (1-based index and
    entries) and the round where the engine knows them, so a scorekeeper can find the scorecard;
    a message about the figures of a round (:class:`Figures`) names the side each belongs to
    once the caller, who knows who played, gives the names (:meth:`named`).
    """

    def __init__(
        self, message: str, *, round: int | None = None, render: Render | None = None
    ) -> None:
        super().__init__(message)
        #: The 1-based number of the round at fault, when one round is: the pages mark that
        #: round's line from it instead of reading the message.
        self.round = round
        self._render: Render = render or (lambda _sides: message)

    def __reduce__(self) -> tuple:
        """Pickled (a Celery result, a worker's error) as its words and its round: the way of
        naming the sides later is a function, which does not travel."""
        return (type(self), (str(self),), {"round": self.round})

    @classmethod
    def about(
        cls, words: str, values: Mapping[str, object], *, round: int | None = None
    ) -> EngineInputError:
        """A complaint ``words % values`` whose :class:`Figures` are worded with the names of
        the sides once they are known (``words`` is already translated)."""

        def render(sides: Sequence[str] | None) -> str:
            return words % {
                key: value.words(sides) if isinstance(value, Figures) else value
                for key, value in values.items()
            }

        return cls(render(None), round=round, render=render)

    def framed(
        self, words: str, values: Mapping[str, object], *, round: int | None = None
    ) -> EngineInputError:
        """The same complaint inside ``words``, which holds it as ``%(error)s`` (e.g.
        ``round %(number)s: %(error)s``), still ready to name the sides."""
        inner = self._render

        def render(sides: Sequence[str] | None) -> str:
            return words % {**values, "error": inner(sides)}

        return EngineInputError(
            render(None), round=self.round if round is None else round, render=render
        )

    def within(self, context: str) -> EngineInputError:
        """Return the same complaint prefixed with where it happened, e.g. ``game 2 (A v B)``."""
        inner = self._render
        return EngineInputError(
            f"{context}: {self}",
            round=self.round,
            render=lambda sides: f"{context}: {inner(sides)}",
        )

    def named(self, sides: Sequence[str]) -> EngineInputError:
        """The same complaint with each figure beside the name of its side (``sides`` in the
        order the rounds were given), for a person who knows who played."""
        return EngineInputError(self._render(tuple(sides)), round=self.round)


def show(value: object) -> str:
    """Render a value the way it appears in JSON input, so messages quote what the user wrote
    when it is not even a figure per side (a round that is not an object, a pair of three)."""
    if isinstance(value, tuple | list):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
