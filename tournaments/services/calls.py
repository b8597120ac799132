"""Calls to players: recording one, and following or no longer following an entry's calls on
a phone.

A call is written in the transaction of the step that made it, and pushed to the entry's phones
once that transaction commits, by a task (``tournaments.tasks.push_call``): a step never waits
for a push service, and a step rolled back calls nobody. A queue that cannot be reached loses
the push, never the call, which the hall screen and the players' pages show.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from config.celery import QueueUnreachable, publish
from tournaments import live
from tournaments.actions import Kind, Refused
from tournaments.models import Call, Entry, Game, Match, PushSubscription, Stage
from tournaments.push import push_enabled
from tournaments.selectors import MATCH_RELATED
from tournaments.tasks import push_call

log = logging.getLogger(__name__)

#: How many calls the players' pages and the hall screen show, newest first.
RECENT = 8


def record_call(
    *,
    entry: Entry,
    kind: str,
    match: Match | None = None,
    game: Game | None = None,
    board_number: int | None = None,
    game_number: int | None = None,
    other: str = "",
    url: str = "",
) -> Call:
    """Write the call and, after the commit, push it to the entry's phones."""
    call = Call.objects.create(
        tournament_id=entry.category.tournament_id,
        entry=entry,
        kind=kind,
        match=match,
        game=game,
        board_number=board_number,
        game_number=game_number,
        other=other,
        url=url,
    )
    live.touch("tournament", [call.tournament_id])  # the hall screen and the players' pages
    transaction.on_commit(lambda: _queue_push(call.pk, entry.pk))
    return call


def _queue_push(call_id: int, entry_id: int) -> None:
    if not push_enabled() or not PushSubscription.objects.filter(entry_id=entry_id).exists():
        return
    try:
        publish(lambda: push_call.delay(call_id))
    except QueueUnreachable as exc:
        log.warning("Call %s not pushed: %s", call_id, exc)


def call_board(match: Match, *, url: str = "") -> list[Call]:
    """ "Your match is on board N", to every entry of ``match`` (on a board, not a bye)."""
    if match.board_id is None or match.entry_b_id is None:
        return []
    entries = match.entries
    calls = []
    for entry in entries:
        others = " · ".join(e.name for e in entries if e.id != entry.id)
        calls.append(
            record_call(
                entry=entry,
                kind=Call.Kind.BOARD,
                match=match,
                board_number=match.board.number,
                other=others,
                url=url,
            )
        )
    return calls


def recent_calls(
    *, tournament_id: int, entry_ids: Iterable[int] | None = None, limit: int = RECENT
) -> list[Call]:
    """The newest calls of the tournament, or of ``entry_ids`` alone."""
    calls = Call.objects.filter(tournament_id=tournament_id).select_related(
        "entry__player", "entry__team__player_one", "entry__team__player_two"
    )
    if entry_ids is not None:
        calls = calls.filter(entry_id__in=list(entry_ids))
    return list(calls[:limit])


def subscribe(
    *,
    entry: Entry,
    endpoint: str,
    p256dh: str,
    auth: str,
    language: str = "",
    user_agent: str = "",
) -> PushSubscription:
    """This phone receives ``entry``'s calls (again: a phone that subscribes twice is kept
    once, with its newest keys)."""
    if not push_enabled():
        raise Refused(
            _(
                "Notifications are off on this server (it has no VAPID keys): follow your calls "
                "on this page and on the hall screen."
            ),
            kind=Kind.CONFLICT,
        )
    if not endpoint.startswith("https://") or not p256dh or not auth:
        raise Refused(
            _(
                "This browser's subscription is incomplete (it needs an https endpoint and its "
                "two keys): reload the page and allow notifications again."
            ),
            kind=Kind.INVALID,
            field="endpoint",
        )
    subscription, _created = PushSubscription.objects.update_or_create(
        entry=entry,
        endpoint=endpoint,
        defaults={
            "p256dh": p256dh,
            "auth": auth,
            "language": language[:10],
            "user_agent": user_agent[:300],
        },
    )
    return subscription


def unsubscribe(*, entry: Entry, endpoint: str) -> int:
    """This phone no longer receives ``entry``'s calls; how many subscriptions were deleted."""
    deleted, _details = PushSubscription.objects.filter(entry=entry, endpoint=endpoint).delete()
    return deleted


def round_to_call(stage: Stage, round_of_play: int) -> list[Match]:
    """The matches of the round that a call would reach: on a board, not byes, with nothing
    played or forfeited yet."""
    return list(
        Match.objects.filter(
            stage=stage, round_of_play=round_of_play, board__isnull=False, entry_b__isnull=False
        )
        .exclude(games__rounds__isnull=False)
        .exclude(games__forfeited_by__in=["a", "b"])
        .select_related(*MATCH_RELATED)
        .distinct()
        .order_by("board__number", "id")
    )


def has_boards(stage: Stage) -> str | None:
    """The precondition of calling a round: the stage has matches drawn on boards."""
    if Match.objects.filter(stage=stage, board__isnull=False, entry_b__isnull=False).exists():
        return None
    return _(
        "%(stage)s has no match on a board to call: make the draw, with the boards, first."
    ) % {"stage": stage}


@transaction.atomic
def call_round(*, stage: Stage, round_of_play: int) -> list[Call]:
    """ "Your match is on board N" to every entry of the round's matches still to play."""
    matches = round_to_call(stage, round_of_play)
    if not matches:
        raise Refused(
            _(
                "Round %(round)s of %(stage)s has no match on a board still to play: nothing to "
                "call."
            )
            % {"round": round_of_play, "stage": stage},
            kind=Kind.CONFLICT,
            field="round_of_play",
        )
    slug = stage.category.tournament.slug
    url = reverse("tournaments:round", args=[slug, stage.pk, round_of_play])
    calls: list[Call] = []
    for match in matches:
        calls += call_board(match, url=url)
    return calls
