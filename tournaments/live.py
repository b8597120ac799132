"""The live version of a tournament: one number that goes up whenever something its public pages
show has changed (a result, a card's state, the draw, a start time, a withdrawal, a shoot-out).

Public pages poll it (``tournaments.views.live``) every few seconds and reload themselves when
it differs from the one they were drawn with, so a projector, a phone at the board or a
spectator's laptop follow the event without anyone pressing reload, at the price of one
indexed read per poll. A page drawn with JavaScript off simply does not poll.

Who bumps it: the saves and deletes of the models behind the public pages, through Django's
signals, so that no writer (a player's phone, the table, the head referee, a dry run) has to
remember to; the few writers that go around the signals (``bulk_create``/``bulk_update`` in the
draws and the schedule) call :func:`touch` themselves. The bump runs after the writer's
transaction commits (a page reloaded on a bump must find the new data), once per transaction and
tournament however many rows it wrote, and outside the writer's locks, so it costs the
write path one short statement; on PostgreSQL it skips a tournament whose bump is under way
(see :func:`_flush`), so a burst of writes never queues on the tournament's row.
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from collections.abc import Iterable

from django.apps import apps
from django.db import connection, transaction
from django.db.models import F, Model, Q
from django.db.models.signals import post_delete, post_save

#: Where each kind of id leads to its tournament: the model the ids are of, and the path from it
#: to the tournament's id.
ROUTES: dict[str, tuple[str, str]] = {
    "tournament": ("tournaments.Tournament", "pk"),
    "category": ("tournaments.Category", "tournament_id"),
    "stage": ("tournaments.Stage", "category__tournament_id"),
    "match": ("tournaments.Match", "stage__category__tournament_id"),
    "game": ("tournaments.Game", "match__stage__category__tournament_id"),
}

_pending = threading.local()


def _queue() -> defaultdict[str, set[int]]:
    if not hasattr(_pending, "ids"):
        _pending.ids = defaultdict(set)
    return _pending.ids


def touch(kind: str, ids: Iterable[int]) -> None:
    """Bump the live version of the tournaments that ``ids`` (of ``kind``, a key of
    :data:`ROUTES`) belong to, once the current transaction commits (at once outside one)."""
    if kind not in ROUTES:
        # A programming error (a writer's wrong argument), never shown on a page.
        known = ", ".join(ROUTES)
        raise ValueError(
            f"touch(): unknown kind {kind!r}; one of {known}"  # untranslated: for developers
        )
    queue = _queue()
    queue[kind].update(i for i in ids if i is not None)
    if not connection.in_atomic_block:
        _flush()
        return
    # One flush per transaction: registered again only when this transaction has none yet (a
    # rolled-back transaction drops its callbacks, and what it queued goes with the next flush,
    # one harmless extra bump).
    if not any(callback is _flush for _, callback, _ in connection.run_on_commit):
        transaction.on_commit(_flush)


def _flush() -> None:
    from tournaments.models import Tournament

    queue = _queue()
    pending = {kind: ids for kind, ids in queue.items() if ids}
    queue.clear()
    if not pending:
        return
    # One statement, each kind's ids led to their tournament by a subquery that starts from
    # those ids (their primary keys), not by joining every card of every tournament.
    reached = Q()
    for kind, ids in pending.items():
        label, path = ROUTES[kind]
        source = apps.get_model(label).objects.filter(pk__in=sorted(ids)).values(path)
        reached |= Q(pk__in=source)
    if not connection.features.has_select_for_update_skip_locked:
        Tournament.objects.filter(reached).update(live_version=F("live_version") + 1)
        return
    # At the end of a round fifty writes of one tournament bump its one row, each after its
    # own commit: queued on that row's lock, each would wait for the one before to commit.
    # A row locked now is being bumped (or saved, which bumps after) by a transaction that
    # commits after this writer's data did, so skipping it loses nothing: a page that sees
    # that bump reloads and finds this writer's data too.
    with transaction.atomic():
        free = Tournament.objects.filter(reached).select_for_update(skip_locked=True)
        Tournament.objects.filter(pk__in=free.values("pk")).update(
            live_version=F("live_version") + 1
        )


def version(slug: str) -> int | None:
    """The tournament's live version, or None when no tournament has that slug."""
    from tournaments.models import Tournament

    return Tournament.objects.filter(slug=slug).values_list("live_version", flat=True).first()


def index_signature(index) -> str:
    """The front page's version: what it shows of each tournament it lists (a
    ``TournamentIndex``), so that it reloads when one is added, published, renamed, moved or
    changes section, and not on every result of a tournament in play."""
    sections = (index.live, index.upcoming, index.past, index.undated)
    shown = [
        (t.pk, t.name, t.venue, str(t.starts_on), str(t.ends_on), section)
        for section, tournaments in enumerate(sections)
        for t in tournaments
    ]
    return hashlib.sha1(repr(shown).encode(), usedforsecurity=False).hexdigest()[:12]


def _on_change(sender: type[Model], instance: Model, **kwargs) -> None:
    kind, field = _watched[sender]
    touch(kind, [getattr(instance, field)])


#: Model label -> (kind, field of the row that leads to its tournament).
WATCHED: dict[str, tuple[str, str]] = {
    "tournaments.Tournament": ("tournament", "pk"),
    "tournaments.Category": ("tournament", "tournament_id"),
    "tournaments.Stage": ("category", "category_id"),
    "tournaments.Entry": ("category", "category_id"),
    "tournaments.Player": ("tournament", "tournament_id"),
    "tournaments.Match": ("stage", "stage_id"),
    "tournaments.Game": ("match", "match_id"),
    "tournaments.Round": ("game", "game_id"),
}
_watched: dict[type[Model], tuple[str, str]] = {}


def add_route(kind: str, model: type[Model], to_tournament: str) -> None:
    """Let ids of ``kind`` lead to their tournament through ``model`` (by the path
    ``to_tournament``): how an app above this one (scoring's cards) makes its ids touchable
    without this app naming its models."""
    ROUTES[kind] = (model._meta.label, to_tournament)


def watch(model: type[Model], kind: str, field: str) -> None:
    """Bump the live version when a row of ``model`` is saved or deleted, through its
    ``field`` (an id of ``kind``): called from the ``ready`` of the app that owns the model."""
    WATCHED[model._meta.label] = (kind, field)
    _connect(model, (kind, field))


def connect() -> None:
    """Watch the models of :data:`WATCHED` (called once, from the app's ``ready``)."""
    for label, route in WATCHED.items():
        _connect(apps.get_model(label), route)


def _connect(model: type[Model], route: tuple[str, str]) -> None:
    _watched[model] = route
    label = model._meta.label
    for signal in (post_save, post_delete):
        signal.connect(_on_change, sender=model, dispatch_uid=f"live-{label}-{signal}")
