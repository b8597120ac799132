"""The one hook from results to ratings: after a transaction that changed a game's official
result commits, :func:`scoring.ratings.services.game_changed` brings its record and ratings up to
date.

What changes an official result: its ``Round`` rows, written or replaced (a row that counts at
the scoring table, a settled dispute, a ruling, the head referee's change of a closed result)
or deleted (a result withdrawn: a dispute, a voided card, a reopened row); and the game's own
forfeit (a ruling, a walkover, their reversal). Their saves and deletes are watched here
through Django's signals, so no writer has to remember the ratings; the one writer that goes
around the signals (the first official rounds of a game, written in bulk by
``scoring.results.services.record_locked_game``) calls :func:`game_touched` itself.

Like the live version (``tournaments.live``), the games a transaction touched are gathered and
handled once, after it commits (a rolled-back result changes nothing), outside its locks.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save

logger = logging.getLogger(__name__)

_pending = threading.local()


def _queue() -> set[int]:
    if not hasattr(_pending, "ids"):
        _pending.ids = set()
    return _pending.ids


def game_touched(game_ids: Iterable[int]) -> None:
    """The official result of these games may have changed: their ratings follow once the
    current transaction commits (at once outside one)."""
    _queue().update(i for i in game_ids if i is not None)
    if not connection.in_atomic_block:
        _flush()
        return
    if not any(callback is _flush for _, callback, _ in connection.run_on_commit):
        transaction.on_commit(_flush)


def _flush() -> None:
    from scoring.ratings.services import game_changed

    ids = sorted(_queue())
    _queue().clear()
    for game_id in ids:
        game_changed(game_id)
    if ids:
        _announce(ids)


def _announce(ids: list[int]) -> None:
    """Tell the other listeners (the live odds); one that fails is logged, never the writer's
    error: the result is committed already."""
    from scoring.results.signals import official_results_changed

    for receiver, outcome in official_results_changed.send_robust(sender=None, game_ids=ids):
        if isinstance(outcome, Exception):
            logger.error("a listener of official results failed: %s", receiver, exc_info=outcome)


def _round_changed(sender, instance, **kwargs) -> None:
    game_touched([instance.game_id])


def _game_changed(sender, instance, **kwargs) -> None:
    if instance.simulated:
        return
    game_touched([instance.pk])


def _person_merged(sender, keep=None, duplicate=None, **kwargs) -> None:
    """A merge moved the duplicate's games to the kept person and deleted the duplicate's
    ratings: every discipline is replayed so the kept person's ratings count every game."""
    from scoring.ratings.services import schedule_recompute

    schedule_recompute(None)


def watch() -> None:
    """Connect the hook (called once, from the scoring app's ``ready``)."""
    from tournaments.models import Game, Round
    from tournaments.services.registry import person_merged

    for signal in (post_save, post_delete):
        signal.connect(_round_changed, sender=Round, dispatch_uid=f"ratings-round-{signal}")
        signal.connect(_game_changed, sender=Game, dispatch_uid=f"ratings-game-{signal}")
    person_merged.connect(_person_merged, dispatch_uid="ratings-person-merged")
