"""One lock order for every write on a game's result.

Two people finishing a game validate each other's rows at the same moment; the scoring table
verifies a card while a referee corrects one of its rows; the head referee forfeits a game that
a player is filling. Each of these writes rows of several tables (card rows, official rounds,
the next knockout match), and two writers that lock the same rows in opposite orders deadlock
on PostgreSQL. So every writer locks the games it is about to change first, all of them at
once, in ascending id order, before it touches anything else: whoever holds a game's lock is
the only writer of that game's rows, and two writers needing several games queue up in the
same order instead of waiting on each other.

On SQLite ``select_for_update`` is a no-op; there the transaction itself takes the write lock
when it begins (``transaction_mode`` IMMEDIATE in the settings), which serialises writers.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q, QuerySet

from tournaments.models import Game


def lock_games(games: Iterable[Game | int] | QuerySet) -> list[int]:
    """Lock the rows of ``games`` (instances or ids, or a query of game ids) in ascending id
    order; returns the ids.

    Must run inside the writer's transaction (it raises outside one, as Django does for any
    ``select_for_update``), before the writer reads what it is about to change. A query is
    locked as a subquery, in the same statement: PostgreSQL locks the rows in the order it
    returns them, after sorting.
    """
    if isinstance(games, QuerySet):
        wanted = Q(pk__in=games)
    else:
        ids = sorted({g if isinstance(g, int) else g.pk for g in games})
        if not ids:
            return []
        wanted = Q(pk__in=ids)
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError(
            "lock_games() runs inside a transaction."  # untranslated: a programming error
        )
    locked = Game.objects.select_for_update().filter(wanted).order_by("pk")
    return list(locked.values_list("pk", flat=True))
