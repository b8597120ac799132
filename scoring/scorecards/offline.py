"""Entries sent again by a phone's outbox write a row once (idempotency keys).

A phone that saved a row offline, or whose opponent tapped "Agree" on it offline, keeps the entry
in its outbox (``static/js/outbox.js``) with a key made on the phone, and sends it when the
network returns; a send whose answer was lost is sent again with the same key. The first send
that writes records the key (``RowSubmission``, with the kind of write: a fill or a validation)
in the same transaction as the write, under the game's lock: a later send of the key finds it and
writes nothing, and is answered with the row as it is now. An entry whose version is no longer
the row's is refused as stale by the step itself (the fill or the validation), as any save is, so
a replay never overwrites a newer row silently, and nobody signs a row they did not read.

The card page sends the key as a form field (``idempotency_key``), the API as the
``Idempotency-Key`` header; both come here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from scoring.models import CardRow, RowSubmission, ScoreCard
from tournaments.actions import Kind, Refused
from tournaments.models import Game
from tournaments.services.game_locks import lock_games

#: The form field of the card page that carries the key.
FORM_FIELD = "idempotency_key"
#: The HTTP header of the API (and of the outbox's sends) that carries the key.
HEADER = "Idempotency-Key"
#: The kinds of write a key stands for (the owner's fill, the opponent's validation).
FILL = RowSubmission.Write.FILL
VALIDATE = RowSubmission.Write.VALIDATE
#: What a key may be: a phone's ``crypto.randomUUID()`` fits, and so does any client's token of
#: 8 to 64 letters, digits, dashes and underscores.
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,64}")


@dataclass(frozen=True)
class Applied:
    """A key already applied: the row it wrote (filled or validated), as the row is now."""

    submission: RowSubmission
    row: CardRow


class AlreadyApplied(Exception):
    """The key was applied by an earlier send (found under the game's lock): nothing written."""

    def __init__(self, applied: Applied) -> None:
        super().__init__(applied.submission.key)
        self.applied = applied


def key_of(data, headers) -> str:
    """The entry's key, from the form field or else the header; "" when the entry has none (a
    save from a page without the outbox, or an API client that sends no key). A key that cannot
    be one is refused in words."""
    key = (data.get(FORM_FIELD) or headers.get(HEADER) or "").strip()
    if key and not KEY_PATTERN.fullmatch(key):
        raise Refused(
            _(
                "The entry's key (%(name)s) must be 8 to 64 letters, digits, dashes or "
                "underscores; nothing was saved."
            )
            % {"name": HEADER},
            field=FORM_FIELD,
        )
    return key


def applied(key: str, card: ScoreCard, game: Game, kind: str = FILL) -> Applied | None:
    """The earlier send of ``key``, if one was applied; refused when that send wrote another
    row, or did another kind of write on this one (a key is one entry: one write of one row,
    a fill or a validation)."""
    if not key:
        return None
    found = RowSubmission.objects.select_related("row").filter(key=key).first()
    if found is None:
        return None
    if found.row.card_id != card.pk or found.row.game_id != game.pk:
        raise Refused(
            _(
                "This entry's key was already used for another row; nothing was saved. Enter "
                "the row again."
            ),
            kind=Kind.CONFLICT,
            field=FORM_FIELD,
        )
    if found.kind != kind:
        raise Refused(
            _(
                "This entry's key was already used for another entry on this row (one that "
                "%(earlier)s); nothing was saved. Send it again as a new entry."
            )
            % {"earlier": found.get_kind_display()},
            kind=Kind.CONFLICT,
            field=FORM_FIELD,
        )
    return Applied(submission=found, row=found.row)


def once(
    key: str,
    write: Callable[[], CardRow],
    *,
    card: ScoreCard,
    game: Game,
    based_on: int,
    kind: str = FILL,
):
    """Run ``write`` (a step that writes the card's row for ``game``: its fill, or its
    validation, as ``kind`` says) unless ``key`` was applied already, and record the key in the
    same transaction as the write.

    The game is locked before the key is looked up, so two sends of one key that arrive
    together queue on the lock and the second finds the first's record: it raises
    :class:`AlreadyApplied`, having written nothing. Without a key, ``write`` runs as it is.
    A write that is refused (a stale version among others) records nothing: the key stays
    unused, and the same refusal meets a replay of it."""
    if not key:
        return write()
    try:
        with transaction.atomic():
            lock_games([game])
            earlier = applied(key, card, game, kind)
            if earlier is not None:
                raise AlreadyApplied(earlier)
            row = write()
            RowSubmission.objects.create(
                key=key, row=row, kind=kind, based_on=based_on, wrote=row.version
            )
            return row
    except IntegrityError:
        # Another send of the key recorded it between our look-up and our record (a database
        # whose locks do not serialise them): ours was rolled back with its write.
        earlier = applied(key, card, game, kind)
        if earlier is None:
            raise
        raise AlreadyApplied(earlier) from None
