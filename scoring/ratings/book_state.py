"""What the rating book knows beyond each person's belief, kept between two results.

The pure core's ``RatingBook`` may carry state of the whole field besides the people's beliefs
(today: the field's average 20s per game so far, the "par" each side is measured against).
Moving the ratings by one new game (``services.update_by``) needs that state as it stood after
every earlier game of the discipline, or it would not give what the full replay gives.

It is kept in the database (``RatingBookState``, one row per discipline), with the record's
position it describes (``after``: the newest game it includes, as ``(played_on, sequence,
id)``), written in the same transaction as the ratings it goes with. A one-game update reads the
row locked (``select_for_update``: two results of one discipline are rated one after the other)
and uses it only when that position is exactly the newest game of the discipline before the new
one; anything else (a game inserted earlier, a recompute under way) falls back to the full
replay, which writes it again. So the kept state can only make an update faster, never wrong,
and every process (web, workers on other machines) reads the same.

Generic over the core: every dataclass field of the book except ``params`` and ``beliefs`` is
its field state (plain numbers), read and restored by name.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from scoring.engine.rating import RatingBook
from scoring.models.record import RatingBookState


def position(played_on, sequence: int, game_id: int) -> list:
    """A game's place in the record's order, comparable across processes (a date or the
    database's ISO text of it)."""
    day = played_on if isinstance(played_on, str) else played_on.isoformat()
    return [day, int(sequence), int(game_id)]


def state_of(book: RatingBook) -> dict[str, Any]:
    return {
        f.name: getattr(book, f.name)
        for f in dataclasses.fields(book)
        if f.name not in ("params", "beliefs")
    }


def restore(book: RatingBook, state: dict[str, Any]) -> None:
    for name, value in state.items():
        setattr(book, name, value)


def hold(discipline: str) -> RatingBookState | None:
    """The discipline's kept state, its row locked until the caller's transaction ends (taken
    before the record is read, so that two results of one discipline are rated in turn)."""
    return RatingBookState.objects.select_for_update().filter(discipline=discipline).first()


def load(kept: RatingBookState | None, after: list | None) -> dict[str, Any] | None:
    """The field state after the game at ``after`` (None: before any game: the book's own
    start), or None when what is kept does not describe exactly that point."""
    if after is None:
        return state_of(RatingBook())
    if kept is None or kept.after != after:
        return None
    return kept.state


def store(discipline: str, after: list | None, state: dict[str, Any]) -> None:
    """Keep the field state after ``after`` (in the caller's transaction)."""
    RatingBookState.objects.update_or_create(
        discipline=discipline, defaults={"after": after, "state": state}
    )
