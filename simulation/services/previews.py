"""Match previews: many simulated games of a scheduled match, summed up as probabilities.

The games themselves are played by parallel Celery tasks (``playing.play_summaries``, no
database); this module prepares the job from the match and its entries' skill profiles and turns
the per-game figures into what the match page shows: the chance of each game result (win, tie,
loss for entry A; every split of the points, 8-0 to 0-8), the expected points and 20s, and for a
best-of-N match the chance of winning the match.

A preview goes queued -> running (``start``) -> done (``store_result``) or failed (``fail``);
each transition locks the preview's row and checks where it stands, so a task delivered twice
changes nothing. The tasks around them are the same whether they travel through a broker or
run eagerly (``simulation.transport``).
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from simulation.models import MatchPreview, Status
from simulation.services import playing
from simulation.services.background import (
    UNDER_WAY,
    error_message,
    locked,
    refuse_unless,
    stop_refusal,
)
from simulation.services.profiles import check_players, entry_players
from tournaments.actions import Refused
from tournaments.models import Match

logger = logging.getLogger(__name__)

MIN_GAMES = 10
MAX_GAMES = 2000
DEFAULT_GAMES = 200


class PreviewError(Refused):
    """A preview that cannot be made; the message says why."""


def preview_refusal(match: Match) -> str | None:
    """Why ``match`` cannot be previewed (a bye, or three-player games), or None: what the match
    page says instead of the preview's form, and :func:`create_preview` asks again."""
    if match.entry_b_id is None:
        return _("%(match)s is a bye: there is nothing to preview.") % {"match": match}
    category = match.stage.category
    return (
        playing.cannot_preview(
            category.scoring_system, category.name, _("preview %(match)s") % {"match": match}
        )
        or None
    )


def stalled_since(preview: MatchPreview) -> datetime | None:
    """When a preview under way started, once its games have been out for the stall time
    (``settings.SIMULATION_STALL_SECONDS``) without its result; else None. A preview is one
    chord of games: nothing of it is sent again, so a stalled one is stopped and made anew."""
    if preview.status not in UNDER_WAY:
        return None
    stall_after = settings.SIMULATION_STALL_SECONDS
    if (timezone.now() - preview.created_at).total_seconds() < stall_after:
        return None
    return preview.created_at


def create_preview(
    *,
    match: Match,
    games: int = DEFAULT_GAMES,
    players: Mapping[str, Any] | None = None,
    seed: int | None = None,
    user: Any = None,
) -> MatchPreview:
    """A queued preview of ``match``. ``players`` may override either side's profiles
    (``{"a": "top"}``); the others come from ``simulation.services.profiles``."""
    refused = preview_refusal(match)
    if refused:
        raise PreviewError(refused)
    category = match.stage.category
    if isinstance(games, bool) or not isinstance(games, int) or not MIN_GAMES <= games <= MAX_GAMES:
        raise PreviewError(
            _("Number of games: %(games)r is not allowed; choose %(low)s to %(high)s.")
            % {"games": games, "low": MIN_GAMES, "high": MAX_GAMES}
        )
    resolved = entry_players([match.entry_a, match.entry_b], category)
    chosen: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for side, entry in (("a", match.entry_a), ("b", match.entry_b)):
        override = (players or {}).get(side)
        if override:
            try:
                chosen[side] = check_players(
                    override,
                    category.players_per_side,
                    _("entry %(side)s") % {"side": side.upper()},
                )
            except ValueError as exc:
                raise PreviewError(str(exc)) from None
            labels[side] = _("%(profiles)s (chosen for this preview)") % {
                "profiles": _names(chosen[side])
            }
        else:
            chosen[side] = resolved[entry.id].players
            labels[side] = resolved[entry.id].label
    return MatchPreview.objects.create(
        match=match,
        games=games,
        players={**chosen, "labels": labels},
        seed=seed if seed is not None else playing.derive_seed(timezone.now().isoformat()) % 10**9,
        requested_by=user if user is not None and user.is_authenticated else None,
    )


def _names(players: Sequence[Any]) -> str:
    # On first use: the players package loads the compiled physics.
    from simulation.players.profiles import get_profile, level_label

    return " / ".join(level_label(get_profile(p).name) for p in players)


@dataclass(frozen=True)
class PreviewJob:
    """The games of a preview to play: one spec, one seed per game."""

    spec: dict[str, Any]
    seeds: list[int]


def start(preview_id: int) -> PreviewJob | None:
    """queued -> running: the game spec and the seeds of the preview's games; None when the
    preview has started already (a task delivered twice) or cannot be played (then failed)."""
    try:
        with transaction.atomic():
            preview = locked(MatchPreview, preview_id, Status.QUEUED)
            if preview is None:
                return None
            match = preview.match
            category = match.stage.category
            spec = {
                "players": playing.seat_players(preview.players["a"], preview.players["b"]),
                "rounds": category.rounds_per_game,
                "discs_per_player": category.discs_per_player,
                "scoring": category.scoring_system,
                "target": category.target_points,
                "playoff": match.games.filter(is_playoff=True).exists(),
                **playing.category_play(category),
            }
            seeds = [playing.derive_seed(preview.seed, "preview", n) for n in range(preview.games)]
            preview.status = Status.RUNNING
            preview.save(update_fields=["status"])
    except Exception as exc:  # recorded on the preview for the organizer
        logger.exception("preview %s could not start", preview_id)
        fail(preview_id, error_message(exc))
        return None
    return PreviewJob(spec=spec, seeds=seeds)


def summarise(rows: Sequence[Sequence[int]], rounds: int, best_of: int = 1) -> dict[str, Any]:
    """Probabilities from per-game ``[points a, points b, 20s a, 20s b, shots]`` rows."""
    n = len(rows)
    if not n:
        raise PreviewError(_("No game was played."))
    splits = Counter((int(r[0]), int(r[1])) for r in rows)
    total = 2 * rounds
    keys = [(a, total - a) for a in range(total, -1, -1)]
    keys += sorted((k for k in splits if k not in keys), key=lambda k: (-k[0], k[1]))
    wins, ties, losses = outcome_counts(rows)
    win, tie, loss = wins / n, ties / n, losses / n
    result = {
        "games": n,
        "rounds": rounds,
        "win": win,
        "tie": tie,
        "loss": loss,
        "points": [{"a": a, "b": b, "p": splits.get((a, b), 0) / n} for a, b in keys],
        "expected_points": [sum(r[0] for r in rows) / n, sum(r[1] for r in rows) / n],
        "expected_twenties": [sum(r[2] for r in rows) / n, sum(r[3] for r in rows) / n],
        "shots": int(sum(r[4] for r in rows)),
        "best_of": best_of,
    }
    if best_of > 1:
        result["match_win"] = playing.match_win_probability(win, loss, best_of)
    return result


def outcome_counts(rows: Sequence[Sequence[int]]) -> tuple[int, int, int]:
    """Entry A's wins, ties and losses among per-game ``[points a, points b, ...]`` rows."""
    win = sum(1 for r in rows if r[0] > r[1])
    tie = sum(1 for r in rows if r[0] == r[1])
    return win, tie, len(rows) - win - tie


def margin_points(count: int, total: int) -> int:
    """How far, in percentage points, a chance of ``count`` in ``total`` games may still be from
    the true one (95 % of the time): what shrinks as a preview's parts come back."""
    p = count / total
    return max(1, round(100 * 1.96 * math.sqrt(max(p * (1 - p), 0.25 / total) / total)))


def record_part(preview_id: int, part: int, rows: Sequence[Sequence[int]]) -> None:
    """One part of a running preview's games is back: its games and entry A's wins, ties and
    losses join the figures its page shows while the rest are played, so the probabilities
    firm up as the parts arrive. A preview no longer running is left as it is."""
    with transaction.atomic():
        preview = locked(MatchPreview, preview_id, Status.RUNNING)
        if preview is None:
            return
        preview.parts = {**preview.parts, str(part): [len(rows), *outcome_counts(rows)]}
        preview.save(update_fields=["parts"])


def store_result(preview_id: int, rows: Sequence[Sequence[int]]) -> None:
    """running -> done with the games summed up; a preview that is not running (done already,
    or failed) is left as it is."""
    try:
        with transaction.atomic():
            preview = locked(MatchPreview, preview_id, Status.RUNNING)
            if preview is None:
                return
            match = preview.match
            # The chance of winning a best of N follows from the games' (``match_win``); a fixed
            # match is decided by its points, which that figure does not say: games only.
            best_of = 1 if match.stage.fixed_match else match.best_of
            preview.result = summarise(rows, match.stage.category.rounds_per_game, best_of)
            preview.status = Status.DONE
            preview.finished_at = timezone.now()
            preview.save(update_fields=["result", "status", "finished_at"])
    except Exception as exc:  # recorded on the preview for the organizer
        logger.exception("preview %s could not be summed up", preview_id)
        fail(preview_id, error_message(exc))


def fail(preview_id: int, error: str) -> None:
    """queued or running -> failed with ``error``."""
    with transaction.atomic():
        preview = locked(MatchPreview, preview_id, Status.QUEUED, Status.RUNNING)
        if preview is None:
            return
        preview.status = Status.FAILED
        preview.error = error[:2000]
        preview.finished_at = timezone.now()
        preview.save(update_fields=["status", "error", "finished_at"])


def stop(preview_id: int, who: str) -> None:
    """The organizer stops a preview (stalled, or no longer wanted): it fails with who stopped
    it. Refused (``Refused``) when it has ended already."""
    with transaction.atomic():
        preview = MatchPreview.objects.select_for_update().filter(pk=preview_id).first()
        if preview is None:
            return
        refuse_unless(stop_refusal(preview))
        fail(preview_id, _("Stopped by %(user)s.") % {"user": who})
