"""The clock of a stage: start times for its matches, round by round."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import formats, live
from tournaments.actions import Kind, Refused
from tournaments.models import Match, Stage


@transaction.atomic
def schedule_stage(
    stage: Stage,
    start: datetime,
    minutes_per_game: int | None = None,
    *,
    break_minutes: int = 0,
    first_round: int = 1,
) -> list[Match]:
    """Give the matches of the stage, from round ``first_round`` on, their start times.

    Each round of play takes a time slot of ``minutes_per_game`` (default: the tournament's
    game time limit, WCC: "Strict timing for the games must be observed") times the games of a
    match (best of 3: three games' time), plus ``break_minutes``; a round with more games than
    boards takes a slot for each game a board carries. Byes get no time. Refused
    (``Refused``) for a stage with nothing to schedule from that round, or times that do not fit.
    """
    minutes = minutes_per_game or stage.category.tournament.game_minutes
    matches = [
        m
        for m in Match.objects.filter(stage=stage, round_of_play__gte=first_round)
        .select_related("board")
        .order_by("round_of_play", "board__number", "id")
        if m.entry_b_id is not None
    ]
    if not matches:
        raise Refused(
            _("No matches from round %(round)s on to schedule.") % {"round": first_round},
            kind=Kind.CONFLICT,
        )
    rounds = sorted({m.round_of_play for m in matches})
    slot_of: dict[int, int] = {}
    per_round: dict[int, int] = {}
    used: dict[tuple[int, int], int] = {}
    for m in matches:
        slot = 1
        if m.board_id:
            key = (m.round_of_play, m.board_id)
            used[key] = used.get(key, 0) + 1
            slot = used[key]
        slot_of[m.id] = slot
        per_round[m.round_of_play] = max(per_round.get(m.round_of_play, 1), slot)
    try:
        slots = formats.time_slots(
            start,
            [per_round[r] for r in rounds],
            minutes * max(stage.best_of, 1),
            break_minutes,
        )
    except ValueError as exc:  # the pure clock's refusal of the times asked for
        raise Refused(str(exc), kind=Kind.INVALID) from exc
    starts = {(rounds[s.round - 1], s.slot): s.start for s in slots}
    for m in matches:
        m.starts_at = starts[(m.round_of_play, slot_of[m.id])]
    Match.objects.bulk_update(matches, ["starts_at"])
    live.touch("stage", [stage.pk])  # bulk writes send no signals
    return matches
