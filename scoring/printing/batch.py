"""The scorecards of a whole round of play as one PDF, built in the background.

At a WCC a round of play means 200 cards and more. The Celery task
``scoring.render_round_cards`` (``scoring/printing/tasks.py``) calls :func:`build_round_batch`,
which stamps the cards (:func:`~scoring.printing.render.render_round_pdf`) in chunks of
:data:`CHUNK` (reporting progress after each), joins them into one PDF and stores it with
Django's default storage (``MEDIA_ROOT`` by default) under
``print-batches/<tournament slug>/stage-<id>-round-<n>-<task id>.pdf``. The name is derived from
the task id, so the page that started the batch finds the file without a database row, also when
Celery runs eagerly and keeps no result. Files older than :data:`KEEP_FOR` are removed when the
next batch of the tournament is stored. The web process and the workers must share that storage.

A round of more than :data:`PART_CARDS` cards is cut across the workers instead: the task plans
the parts (:func:`plan_round_batch`, runs of whole pages), each part is laid out by a task of its
own (:func:`build_round_part`, stored beside the batch) and a last task joins them in order
(:func:`join_round_parts`) under the batch's name. The batch's progress then counts the parts'
cards (:func:`batch_state` reads each part's result).

Printing a round and printing a batch again are steps (``scoring.printing.actions``); their
preconditions are here (:func:`round_refusal`, :func:`again_refusal`). A batch is not stopped:
it has no row to mark, a worker's task cannot be stopped on every broker (the filesystem queue
of ``make run`` has no control channel), and a batch ends within minutes by itself.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from celery.result import AsyncResult
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.printing.cards import round_cards
from scoring.printing.errors import PrintError
from scoring.printing.lookups import require_round
from scoring.printing.options import PrintOptions
from scoring.printing.render import Progress, card_ranges, join_pdfs, render_round_pdf
from tournaments.actions import Kind, Refused
from tournaments.models import Stage

BATCH_DIR = "print-batches"
#: Cards laid out per WeasyPrint call in a batch: large enough that the fixed cost per call is
#: small, small enough that a 200-card round reports progress eight times.
CHUNK = 25
#: Cards per part when a round is cut across workers: a part's fixed cost (its process reading
#: the round, laying out the kinds of card, writing a PDF) is small beside 100 cards.
PART_CARDS = 100
KEEP_FOR = timedelta(days=1)


@dataclass(frozen=True)
class BatchFile:
    """A finished batch: where it is stored, how many cards it holds, whose it is."""

    name: str
    cards: int
    tournament: str

    def as_result(self) -> dict[str, object]:
        return {"file": self.name, "cards": self.cards, "tournament": self.tournament}


@dataclass(frozen=True)
class BatchState:
    """What the progress bar shows: ``waiting`` (queued), ``running`` (``done`` of ``total``
    cards laid out), ``done`` (the PDF is stored) or ``failed`` (with a message)."""

    state: str
    done: int = 0
    total: int = 0
    cards: int | None = None
    size: int | None = None
    message: str = ""
    #: When the worker last reported progress (seconds since the epoch), while running.
    updated_at: float | None = None

    def stalled_for(self, *, now: float, queued_at: float | None, after: float) -> float | None:
        """Seconds without any sign of the batch moving, once more than ``after``; else None.

        Running, the clock starts at the worker's last progress; waiting, at ``queued_at``, when
        the page that queued the batch knows it. A worker killed mid batch, or a queue no worker
        reads, leaves a batch that would otherwise say "running" or "waiting" for ever.
        """
        since = self.updated_at if self.state == "running" else queued_at
        if self.state not in ("running", "waiting") or since is None:
            return None
        idle = now - since
        return idle if idle > after else None

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed")


def round_refusal(stage: Stage, round_of_play: int) -> Refused | None:
    """Why the round's cards cannot be printed (a round of play without matches, naming the
    rounds that have some: the address asked is wrong, 400), or None."""
    try:
        require_round(stage, round_of_play)
    except PrintError as error:
        return Refused(error.message, kind=Kind.INVALID)
    return None


def again_refusal(batch: BatchState, stalled_for: float | None) -> str | None:
    """Printing a batch again applies once it stalled (``stalled_for``: seconds without a sign
    of moving, None when it moves) or failed; a batch under way or ready is left as it is."""
    if stalled_for is not None or batch.state == "failed":
        return None
    if batch.state == "done":
        return _("This batch is ready: download it.")
    return _("This batch is being made: it is printed again only once it stalled or failed.")


def batch_file_name(tournament_slug: str, stage_id: int, round_of_play: int, batch_id: str) -> str:
    return f"{BATCH_DIR}/{tournament_slug}/stage-{stage_id}-round-{round_of_play}-{batch_id}.pdf"


def round_title(stage: Stage, round_of_play: int) -> str:
    category = stage.category
    return _("%(tournament)s · %(category)s · %(stage)s · round %(round)s") % {
        "tournament": category.tournament.name,
        "category": category.name,
        "stage": stage.name,
        "round": round_of_play,
    }


def build_round_batch(
    *,
    stage_id: int,
    round_of_play: int,
    batch_id: str,
    options: PrintOptions,
    progress: Progress | None = None,
) -> BatchFile:
    """Render one card per entry of the round of play into one stored PDF.

    Raises :class:`PrintError` for an unknown stage (404) or a round without matches (400).
    """
    stage = _stage(stage_id)
    cards = round_cards(stage, round_of_play)
    pdf = render_round_pdf(
        cards, options, title=round_title(stage, round_of_play), chunk=CHUNK, progress=progress
    )
    return _store(stage, round_of_play, batch_id, pdf, len(cards))


def _stage(stage_id: int) -> Stage:
    stage = Stage.objects.select_related("category__tournament").filter(pk=stage_id).first()
    if stage is None:
        raise PrintError(_("There is no stage %(stage)s.") % {"stage": stage_id}, status=404)
    return stage


def _store(stage: Stage, round_of_play: int, batch_id: str, pdf: bytes, cards: int) -> BatchFile:
    slug = stage.category.tournament.slug
    _prune(slug)
    name = batch_file_name(slug, stage.id, round_of_play, batch_id)
    stored = _save(name, pdf)
    return BatchFile(name=stored, cards=cards, tournament=slug)


#: Errors of a disk with no room left (ENOSPC) or over its quota (EDQUOT).
_FULL = {errno.ENOSPC, errno.EDQUOT}
#: Errors of a folder the worker may not write (read-only, wrong owner).
_UNWRITABLE = {errno.EROFS, errno.EACCES, errno.EPERM}


def _media_folder() -> str:
    """Where the storage writes, as the organizer may look for it: the media folder."""
    return str(getattr(default_storage, "location", "") or settings.MEDIA_ROOT)


def _save(name: str, pdf: bytes) -> str:
    """Store ``pdf`` as ``name``; a disk that is full or cannot be written is a
    :class:`PrintError` saying so (the batch page shows it), and what was written of the file
    is removed, so no truncated PDF is left to be handed out."""
    folder = name.rsplit("/", 1)[0]
    before = _files_in(folder)
    try:
        return default_storage.save(name, ContentFile(pdf))
    except OSError as exc:
        for left in _files_in(folder) - before:
            with contextlib.suppress(OSError):
                default_storage.delete(f"{folder}/{left}")
        where = _media_folder()
        if exc.errno in _FULL:
            reason = _("the disk is full: free space for the media folder (%(path)s)") % {
                "path": where
            }
        elif exc.errno in _UNWRITABLE:
            reason = _("the media folder cannot be written: %(path)s") % {"path": where}
        else:
            reason = _("the PDF could not be stored in %(path)s (%(error)s)") % {
                "path": where,
                "error": exc.strerror or type(exc).__name__,
            }
        raise PrintError(reason, status=507) from exc


def _files_in(folder: str) -> set[str]:
    try:
        return set(default_storage.listdir(folder)[1])
    except (FileNotFoundError, NotImplementedError):
        return set()


def plan_round_batch(
    *, stage_id: int, round_of_play: int, options: PrintOptions, size: int | None = None
) -> list[range]:
    """The round's cards cut into parts of whole pages, about ``size`` (:data:`PART_CARDS`)
    cards each, as index ranges into :func:`~scoring.printing.cards.round_cards` (one part for a
    small round)."""
    cards = round_cards(_stage(stage_id), round_of_play)
    return card_ranges(cards, options, size or PART_CARDS)


def part_file_name(name: str, index: int) -> str:
    """Where part ``index`` of the batch stored as ``name`` waits to be joined."""
    return name.removesuffix(".pdf") + f".part-{index}.pdf"


def build_round_part(
    *,
    stage_id: int,
    round_of_play: int,
    batch_id: str,
    index: int,
    cards: range,
    options: PrintOptions,
    progress: Progress | None = None,
) -> str:
    """Lay out one part of a batch cut across workers and store it; returns where."""
    stage = _stage(stage_id)
    part = round_cards(stage, round_of_play)[cards.start : cards.stop]
    pdf = render_round_pdf(
        part, options, title=round_title(stage, round_of_play), chunk=CHUNK, progress=progress
    )
    slug = stage.category.tournament.slug
    name = part_file_name(batch_file_name(slug, stage.id, round_of_play, batch_id), index)
    return _save(name, pdf)


def join_round_parts(
    *, stage_id: int, round_of_play: int, batch_id: str, parts: Sequence[str], cards: int
) -> BatchFile:
    """The parts joined in order into the batch's PDF, stored under the batch's name; the parts
    are removed."""
    stage = _stage(stage_id)
    pdfs = []
    for part in parts:
        with default_storage.open(part, "rb") as file:
            pdfs.append(file.read())
    batch = _store(stage, round_of_play, batch_id, join_pdfs(pdfs), cards)
    for part in parts:
        default_storage.delete(part)
    return batch


def _parts_progress(parts: list, lookup: Callable[[str], AsyncResult]) -> tuple[int, float | None]:
    """Cards laid out by the parts of a batch cut across workers, and when a part last moved:
    a finished part counts all its cards, a running one what it reported."""
    done, moved = 0, None
    for part_id, size in parts:
        part = lookup(part_id)
        info = part.info
        if part.state == "SUCCESS":
            done += int(size)
        elif part.state == "PROGRESS" and isinstance(info, dict):
            done += int(info.get("done", 0))
            at = info.get("at")
            if isinstance(at, int | float):
                moved = max(moved or 0.0, float(at))
    return done, moved


def batch_state(
    result: AsyncResult | None,
    *,
    tournament_slug: str,
    name: str,
    lookup: Callable[[str], AsyncResult] = AsyncResult,
) -> BatchState:
    """The batch's state from its Celery result and the storage.

    A batch cut across workers says so in its progress (``parts``: each part's task id and
    cards); its cards laid out are then the parts', read through ``lookup``.

    ``result`` is None when Celery runs eagerly: the task then ran to its end before the page was
    shown and stored no result, so the stored file alone tells. A stored file also counts as done
    when the result backend no longer knows the task (an expired result). A finished result of
    another tournament's batch is refused.
    """
    if result is None:
        if default_storage.exists(name):
            return BatchState("done", size=default_storage.size(name))
        return BatchState("failed", message=_("No such batch here; start a new one."))
    state, info = result.state, result.info
    if state == "SUCCESS":
        if isinstance(info, dict) and info.get("tournament") not in (None, tournament_slug):
            return BatchState("failed", message=_("This batch belongs to another tournament."))
        if not default_storage.exists(name):
            return BatchState(
                "failed",
                message=_("The PDF was made but is no longer stored; start a new batch."),
            )
        cards = info.get("cards") if isinstance(info, dict) else None
        return BatchState("done", cards=cards, size=default_storage.size(name))
    if state == "FAILURE":
        reason = info.message if isinstance(info, PrintError) else _("see the worker's log")
        return BatchState(
            "failed", message=_("The batch could not be made: %(reason)s") % {"reason": reason}
        )
    if state == "STARTED":
        return BatchState("running")
    if state == "PROGRESS" and isinstance(info, dict):
        at = info.get("at")
        updated = float(at) if isinstance(at, int | float) else None
        done = int(info.get("done", 0))
        if isinstance(info.get("parts"), list):
            done, moved = _parts_progress(info["parts"], lookup)
            updated = max(updated or 0.0, moved) if moved is not None else updated
        return BatchState("running", done=done, total=int(info.get("total", 0)), updated_at=updated)
    if state == "PENDING" and default_storage.exists(name):
        return BatchState("done", size=default_storage.size(name))
    return BatchState("waiting")


def _prune(tournament_slug: str) -> None:
    """Remove the tournament's batches older than :data:`KEEP_FOR`."""
    folder = f"{BATCH_DIR}/{tournament_slug}"
    try:
        _, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return
    cutoff = timezone.now() - KEEP_FOR
    for file in files:
        path = f"{folder}/{file}"
        try:
            if default_storage.get_modified_time(path) < cutoff:
                default_storage.delete(path)
        except (FileNotFoundError, NotImplementedError):
            continue
