"""The organizer's steps on the simulation's long work, each declared once
(``tournaments.actions``): start a match preview, an auto-play run or a dry run; send a stalled
or failed run or dry run to the workers again (Retry); stop any of them while under way (Stop).

The pages ask each step whether its button applies and, if not, why (``simulation.views``: the
forms of the hub, stage and match pages, and the Retry and Stop buttons under a progress bar);
their posts take the same steps. A start acts on the tournament (a dry run, auto-play) or on the
match (a preview); Retry and Stop act on the work itself, as a :class:`Work`. The preconditions
live with the services (``simulation.services.runs``, ``previews``, ``background``), which ask
them again on the row they lock, so that a Stop pressed twice, or a Retry of work that moved
again meanwhile, does nothing twice.

Starting and retrying need the task queue: each asks it first (``config.celery.check_queue``, a
second or two at most) and is refused in words when it cannot be reached, so nothing is written
that no worker will ever see; its task is sent once the transaction committed.

:data:`LONG_WORK` declares each kind of work for the pages (where its row is found, its steps,
its words), so that one set of views serves the three.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from config.celery import QueueUnreachable, check_queue
from simulation import selectors, tasks
from simulation.models import AutoPlay, DryRun, MatchPreview
from simulation.services import autoplay, background, dryrun, previews, runs
from tournaments.actions import Action, Kind, Refused
from tournaments.models import Match, Tournament
from tournaments.permissions import MANAGE_TOURNAMENT

__all__ = [
    "LONG_WORK",
    "LongWork",
    "Work",
    "retry_autoplay",
    "retry_dry_run",
    "start_autoplay",
    "start_dry_run",
    "start_preview",
    "stop_autoplay",
    "stop_dry_run",
    "stop_preview",
]

logger = logging.getLogger(__name__)

#: Who starts the simulation's work, said to anyone else.
STARTERS = gettext_lazy(
    "Organizers only: only the organizers of a tournament start previews, auto-play and dry "
    "runs; the results and replays stay open to everyone."
)
#: Who sends it again or stops it.
RUNNERS = gettext_lazy(
    "Only the tournament's organizers send its simulation work again or stop it."
)

Row = DryRun | AutoPlay | MatchPreview


@dataclass(frozen=True)
class Work:
    """A piece of long work as its Retry and Stop see it: its row, and the tournament whose
    organizers may act on it (a dry run's source, or its copy when it rehearses a format)."""

    row: Row

    @property
    def tournament(self) -> Tournament | None:
        row = self.row
        if isinstance(row, DryRun):
            return row.source or row.copy
        if isinstance(row, AutoPlay):
            return row.tournament
        return row.match.stage.category.tournament


def _of_the_row(precondition: Callable[[Any], str | None]) -> Callable[[Work], str | None]:
    """A service's precondition on a row, asked of the work around it."""

    def asked(work: Work) -> str | None:
        return precondition(work.row)

    asked.__doc__ = precondition.__doc__
    return asked


def _queue_answers() -> None:
    """Refused in words (the broker and what to start) when the task queue cannot be reached."""
    try:
        check_queue()
    except QueueUnreachable as exc:
        raise Refused(str(exc), kind=Kind.CONFLICT) from None


def _profiles(profile_a: str, profile_b: str) -> dict[str, str] | None:
    """The skill profiles chosen for sides A and B (none chosen: each entry's own)."""
    chosen = {side: p for side, p in (("a", profile_a), ("b", profile_b)) if p}
    return chosen or None


def _sent_again(task: Any) -> Callable[[Work], None]:
    """Send ``task`` for the work's row once the step committed; a queue gone meanwhile leaves
    the work as it stood (stalled or failed, with its Retry), and the log says so."""

    def send(work: Work) -> None:
        tasks.send(
            task,
            work.row.pk,
            on_unreachable=lambda error: logger.warning(
                "%s %s was not sent again: %s", type(work.row).__name__, work.row.pk, error
            ),
        )

    return send


# --- starting ------------------------------------------------------------------------------------


def _start_dry_run(
    user: AbstractBaseUser,
    tournament: Tournament,
    *,
    preset: str = "",
    field: str = "",
    category: Any = None,
    players: int | None = None,
    boards: int | None = None,
    seed: int | None = None,
) -> DryRun:
    _queue_answers()
    # Registered players play unless generated ones are asked for, or none are registered.
    generated = (
        field == "generated" or not tournament.categories.filter(entries__isnull=False).exists()
    )
    return dryrun.create_dry_run(
        source=tournament,
        category=category,
        preset=preset or None,
        entries=players,
        boards=boards,
        seed=seed,
        user=user,
        generated=generated,
    )


def _start_autoplay(
    user: AbstractBaseUser,
    tournament: Tournament,
    *,
    scope: str,
    category: int | None = None,
    stage: int | None = None,
    round_of_play: int | None = None,
    match: int | None = None,
    profile_a: str = "",
    profile_b: str = "",
) -> AutoPlay:
    _queue_answers()
    found = autoplay.targets(
        tournament, category=category, stage=stage, match=match, round_of_play=round_of_play
    )
    return autoplay.create_autoplay(
        tournament=tournament,
        scope=scope,
        players=_profiles(profile_a, profile_b),
        user=user,
        **found,
    )


def _start_preview(
    user: AbstractBaseUser, match: Match, *, games: int, profile_a: str = "", profile_b: str = ""
) -> MatchPreview:
    _queue_answers()
    return previews.create_preview(
        match=match, games=games, players=_profiles(profile_a, profile_b), user=user
    )


start_dry_run = Action(
    name="simulation.start_dry_run",
    permission=MANAGE_TOURNAMENT,
    who=STARTERS,
    fields=("preset", "field", "category", "players", "boards", "seed"),
    run=_start_dry_run,
    after=(
        lambda dry: tasks.send(
            tasks.run_dry_run,
            dry.pk,
            on_unreachable=lambda error: runs.fail_dry_run(dry.pk, error),
        ),
    ),
    form="simulation.views.DryRunForm",
)

start_autoplay = Action(
    name="simulation.start_autoplay",
    permission=MANAGE_TOURNAMENT,
    who=STARTERS,
    fields=("scope", "category", "stage", "round_of_play", "match", "profile_a", "profile_b"),
    run=_start_autoplay,
    after=(
        lambda run: tasks.send(
            tasks.run_autoplay, run.pk, on_unreachable=lambda error: runs.fail(run.pk, error)
        ),
    ),
    form="simulation.views.AutoPlayForm",
)

start_preview = Action(
    name="simulation.start_preview",
    permission=MANAGE_TOURNAMENT,
    who=STARTERS,
    when=(previews.preview_refusal,),
    fields=("games", "profile_a", "profile_b"),
    run=_start_preview,
    after=(
        lambda preview: tasks.send(
            tasks.run_preview,
            preview.pk,
            on_unreachable=lambda error: previews.fail(preview.pk, error),
        ),
    ),
    form="simulation.views.PreviewForm",
)


# --- sending again and stopping ------------------------------------------------------------------


def _send_again(user: AbstractBaseUser, work: Work) -> Work:
    """The workers do the retry itself (``runs.retry``, which asks the precondition again on
    the locked row): here the queue is asked, and the task is sent once this commits."""
    _queue_answers()
    return work


def _stop_autoplay(user: AbstractBaseUser, work: Work) -> None:
    runs.stop(work.row.pk, user.get_username())


def _stop_dry_run(user: AbstractBaseUser, work: Work) -> None:
    runs.stop_dry_run(work.row.pk, user.get_username())


def _stop_preview(user: AbstractBaseUser, work: Work) -> None:
    previews.stop(work.row.pk, user.get_username())


retry_autoplay = Action(
    name="simulation.retry_autoplay",
    permission=MANAGE_TOURNAMENT,
    who=RUNNERS,
    when=(_of_the_row(runs.played_for_a_dry_run), _of_the_row(runs.run_retry_refusal)),
    run=_send_again,
    after=(_sent_again(tasks.retry_run),),
)

retry_dry_run = Action(
    name="simulation.retry_dry_run",
    permission=MANAGE_TOURNAMENT,
    who=RUNNERS,
    when=(_of_the_row(runs.dry_run_retry_refusal),),
    run=_send_again,
    after=(_sent_again(tasks.retry_dry_run),),
)

stop_autoplay = Action(
    name="simulation.stop_autoplay",
    permission=MANAGE_TOURNAMENT,
    who=RUNNERS,
    when=(_of_the_row(background.stop_refusal),),
    run=_stop_autoplay,
)

stop_dry_run = Action(
    name="simulation.stop_dry_run",
    permission=MANAGE_TOURNAMENT,
    who=RUNNERS,
    when=(_of_the_row(background.stop_refusal),),
    run=_stop_dry_run,
)

stop_preview = Action(
    name="simulation.stop_preview",
    permission=MANAGE_TOURNAMENT,
    who=RUNNERS,
    when=(_of_the_row(background.stop_refusal),),
    run=_stop_preview,
)


# --- the kinds of long work, for the pages -------------------------------------------------------


@dataclass(frozen=True)
class LongWork:
    """A kind of long work as the pages take it: where its row is found, its steps, its words.

    ``name`` is the prefix of its pages' URL names (``simulation:<name>_status``, ``_retry``,
    ``_stop``); ``find(slug, id)`` its row at that tournament, or None; ``missing`` the words
    for an id that is not there (``%(number)s``); ``what`` how a message names it
    ("%(what)s was sent to the workers again."); ``stopped`` what a Stop says
    (``%(number)s``); ``not_started`` what a start refused says (``%(problem)s``); ``retry``
    None when the work is not sent again (a preview is stopped and made anew).
    """

    name: str
    find: Callable[[str, int], Row | None]
    start: Action
    stop: Action
    missing: Promise
    stopped: Promise
    not_started: Promise
    retry: Action | None = None
    what: Promise | None = None


#: Each kind of long work, by the name its URLs carry.
LONG_WORK: dict[str, LongWork] = {
    kind.name: kind
    for kind in (
        LongWork(
            name="dry_run",
            find=selectors.dry_run_for,
            start=start_dry_run,
            retry=retry_dry_run,
            stop=stop_dry_run,
            missing=gettext_lazy("There is no dry run %(number)s here."),
            what=gettext_lazy("The dry run"),
            stopped=gettext_lazy("Dry run %(number)s was stopped."),
            not_started=gettext_lazy("The dry run was not started: %(problem)s"),
        ),
        LongWork(
            name="autoplay",
            find=selectors.autoplay_for,
            start=start_autoplay,
            retry=retry_autoplay,
            stop=stop_autoplay,
            missing=gettext_lazy("There is no auto-play run %(number)s here."),
            what=gettext_lazy("Auto-play"),
            stopped=gettext_lazy("Auto-play was stopped."),
            not_started=gettext_lazy("Auto-play was not started: %(problem)s"),
        ),
        LongWork(
            name="preview",
            find=selectors.preview_for,
            start=start_preview,
            stop=stop_preview,
            missing=gettext_lazy("There is no preview %(number)s here."),
            stopped=gettext_lazy("The preview was stopped."),
            not_started=gettext_lazy("The preview was not started: %(problem)s"),
        ),
    )
}
