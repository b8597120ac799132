"""The one exception the engine raises for input that breaks a rule of the game."""

from __future__ import annotations


class EngineInputError(ValueError):
    """Input that cannot describe a real game: impossible points, 20s, board scores or ties.

    It is a ``ValueError`` so callers that only know the standard library can still catch it; the
    command-line tool prints its message and exits 2. Messages name the game (1-based index and
    entries) and the round where the engine knows them, so a scorekeeper can find the scorecard.
    """

    def __init__(self, message: str, *, round: int | None = None) -> None:
        super().__init__(message)
        #: The 1-based number of the round at fault, when one round is: the pages mark that
        #: round's line from it instead of reading the message.
        self.round = round

    def within(self, context: str) -> EngineInputError:
        """Return the same complaint prefixed with where it happened, e.g. ``game 2 (A v B)``."""
        return EngineInputError(f"{context}: {self}", round=self.round)


def show(value: object) -> str:
    """Render a value the way it appears in JSON input, so messages quote what the user wrote."""
    if isinstance(value, tuple | list):
        return "[" + ", ".join(show(item) for item in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
