"""What the rating book knows beyond each person's belief, kept between two results.

The pure core's ``RatingBook`` may carry state of the whole field besides the people's beliefs
(today: the field's average 20s per game so far, the "par" each side is measured against).
Moving the ratings by one new game (``services.update_by``) needs that state as it stood after
every earlier game of the discipline, or it would not give what the full replay gives.

It is kept in the cache (Redis in production, shared by every process), with the record's
position it describes (``after``: the newest game it includes, as ``(played_on, sequence,
id)``). A one-game update uses it only when that position is exactly the newest game of the
discipline before the new one; anything else (the cache emptied, another process's cache, a
game inserted earlier) falls back to the full replay, which stores it again. So the cache can
only make an update faster, never wrong. A lock per discipline (``cache.add``) keeps two
updates from both starting from the same state.

Generic over the core: every dataclass field of the book except ``params`` and ``beliefs`` is
its field state (plain numbers), read and restored by name.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.core.cache import cache

from scoring.engine.rating import RatingBook

#: How long a one-game update may hold its discipline's lock (seconds): a process that died
#: holding it delays nothing for longer than this (updates then fall back to the replay).
LOCK_SECONDS = 30


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


def _key(discipline: str) -> str:
    return f"ratings:book:{discipline}"


def load(discipline: str, after: list | None) -> dict[str, Any] | None:
    """The field state after the game at ``after`` (None: before any game: the book's own
    start), or None when what is kept does not describe exactly that point."""
    if after is None:
        return state_of(RatingBook())
    kept = cache.get(_key(discipline))
    if not isinstance(kept, dict) or kept.get("after") != after:
        return None
    return kept.get("state")


def store(discipline: str, after: list | None, state: dict[str, Any]) -> None:
    cache.set(_key(discipline), {"after": after, "state": state}, timeout=None)


def lock(discipline: str) -> bool:
    return cache.add(f"ratings:lock:{discipline}", 1, timeout=LOCK_SECONDS)


def unlock(discipline: str) -> None:
    cache.delete(f"ratings:lock:{discipline}")
