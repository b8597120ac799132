"""Printing pages and PDFs, mounted at ``/t/<slug>/print/``.

Everything with names on it (round cards, stage cards, a filled card, standings and bracket
sheets, batches) needs ``scoring.print_cards`` on the tournament: organizer, scoring table or
head referee. Blank cards and the menu page are public. Bad input (an unknown stage or card, a
round of play without matches, a parameter out of range) gets a page saying what is wrong with a
404 or 400, never a server error. A round's batch and printing a batch again are the steps of
``scoring.printing.actions``, which the pages ask and take.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable
from uuid import UUID

from django.conf import settings
from django.contrib import messages
from django.core.files.storage import default_storage
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.text import slugify
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.printing.actions import (
    PRINT_PERMISSION,
    PRINTERS,
    PrintBatch,
    RoundOfPlay,
    print_round,
    print_round_again,
)
from scoring.printing.batch import BatchState, batch_file_name, batch_state, round_title
from scoring.printing.cards import blank_cards, filled_card, round_cards, stage_cards
from scoring.printing.errors import PrintError
from scoring.printing.lookups import (
    print_menu,
    tournament_card,
    tournament_category,
    tournament_stage,
)
from scoring.printing.options import PrintOptions, parse_blank_options, parse_print_options
from scoring.printing.render import render_cards, render_pdf
from scoring.printing.sheets import bracket_sheet, standings_sheet
from scoring.printing.tasks import render_round_cards
from tournaments.actions import Kind, Refused
from tournaments.models import Tournament
from tournaments.views.access import tournament_page
from tournaments.views.progress import Action, Progress, progress_partial

View = Callable[..., HttpResponse]


def _refused(request: HttpRequest, tournament: Tournament, error: PrintError) -> HttpResponse:
    return render(
        request,
        "scoring/print/error.html",
        {"tournament": tournament, "message": error.message, "status": error.status},
        status=error.status,
    )


def _print_errors(view: View) -> View:
    """Turn bad input (a ``PrintError``) into a 400/404 page that says what is wrong."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, tournament: Tournament, **kwargs: object) -> HttpResponse:
        try:
            return view(request, tournament, **kwargs)
        except PrintError as error:
            return _refused(request, tournament, error)

    return wrapper


def _for_everyone(view: View) -> View:
    """Load the tournament (anyone may print blank cards and public sheets)."""
    return tournament_page()(_print_errors(view))


def _for_printers(view: View) -> View:
    """As :func:`_for_everyone`, for the tournament's printers only: anonymous users go to the
    login page, others without ``scoring.print_cards`` get the 403 page."""
    return tournament_page(PRINT_PERMISSION, PRINTERS)(_print_errors(view))


def print_options(request: HttpRequest, query) -> PrintOptions:
    """The options of the query string, with the site the printed QR codes point to."""
    options = parse_print_options(query)
    return dataclasses.replace(options, site=request.build_absolute_uri("/").rstrip("/"))


def _pdf(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'  # untranslated: HTTP
    return response


@require_GET
@_for_everyone
def print_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """What can be printed: per stage its cards, sheets and rounds of play; blank cards."""
    options = print_options(request, request.GET)
    return render(
        request,
        "scoring/print/index.html",
        {
            "tournament": tournament,
            "menu": print_menu(tournament),
            # The named links and the rounds' batches are the printers'; the step says whose.
            "print_refused": print_round.forbidden(request.user, tournament),
            "options": options,
            "query": urlencode(options.as_query()),
        },
    )


@require_GET
@_for_printers
def round_cards_pdf(
    request: HttpRequest, tournament: Tournament, stage_id: int, round_of_play: int
) -> HttpResponse:
    """One card per entry of the round of play, its game pre-filled, in one PDF."""
    options = print_options(request, request.GET)
    stage = tournament_stage(tournament, stage_id)
    cards = round_cards(stage, round_of_play)
    pdf = render_cards(cards, options, title=round_title(stage, round_of_play))
    return _pdf(pdf, f"{tournament.slug}-{slugify(stage.name)}-round-{round_of_play}.pdf")


@require_GET
@_for_printers
def stage_cards_pdf(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """Every entry's card for the stage, with all its games and what the rows say so far."""
    options = print_options(request, request.GET)
    stage = tournament_stage(tournament, stage_id)
    cards = stage_cards(stage)
    if not cards:
        raise PrintError(
            _("{category}, {stage}: nothing is drawn yet.").format(
                category=stage.category.name, stage=stage.name
            )
        )
    title = _("{tournament} · {category} · {stage} · scorecards").format(
        tournament=tournament.name, category=stage.category.name, stage=stage.name
    )
    pdf = render_cards(cards, options, title=title)
    return _pdf(pdf, f"{tournament.slug}-{slugify(stage.name)}-cards.pdf")


@require_GET
@_for_printers
def card_pdf(request: HttpRequest, tournament: Tournament, card_id: int) -> HttpResponse:
    """One filled scorecard: computed totals, statuses, validations, corrections marked."""
    options = print_options(request, request.GET)
    card = tournament_card(tournament, card_id)
    printed = filled_card(card)
    title = _("{tournament} · scorecard of {entry}").format(
        tournament=tournament.name, entry=card.entry
    )
    return _pdf(render_cards([printed], options, title=title), f"scorecard-{card.id}.pdf")


@require_GET
@_for_everyone
def blank_cards_pdf(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Blank cards (no names): ``count``, ``games`` rows, ``rounds`` columns, ``category``."""
    options = print_options(request, request.GET)
    blank = parse_blank_options(request.GET)
    category = tournament_category(tournament, blank.category_id)
    cards = blank_cards(
        tournament, count=blank.count, games=blank.games, rounds=blank.rounds, category=category
    )
    title = _("{tournament} · blank scorecards").format(tournament=tournament.name)
    return _pdf(render_cards(cards, options, title=title), f"{tournament.slug}-blank-cards.pdf")


@require_GET
@_for_printers
def standings_pdf(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """The stage's standings in rank order with the bar chart, to pin up in the hall."""
    options = print_options(request, request.GET)
    stage = tournament_stage(tournament, stage_id)
    context = {"sheet": standings_sheet(stage), "tournament": tournament}
    context["title"] = _("{tournament} · {category} · {stage} · standings").format(
        tournament=tournament.name, category=stage.category.name, stage=stage.name
    )
    pdf = render_pdf("pdf/standings.html", context, options)
    return _pdf(pdf, f"{tournament.slug}-{slugify(stage.name)}-standings.pdf")


@require_GET
@_for_printers
def bracket_pdf(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    """The knockout stage's matches by round with games won."""
    options = print_options(request, request.GET)
    stage = tournament_stage(tournament, stage_id)
    context = {"sheet": bracket_sheet(stage), "tournament": tournament}
    context["title"] = _("{tournament} · {category} · {stage} · bracket").format(
        tournament=tournament.name, category=stage.category.name, stage=stage.name
    )
    pdf = render_pdf("pdf/bracket.html", context, options)
    return _pdf(pdf, f"{tournament.slug}-{slugify(stage.name)}-bracket.pdf")


@require_POST
@_for_printers
def batch_start(
    request: HttpRequest, tournament: Tournament, stage_id: int, round_of_play: int
) -> HttpResponse:
    """Queue the round's cards as a background batch and go to its progress page."""
    # The print page posts its form; an address may carry the options too.
    options = print_options(request, request.POST if "paper" in request.POST else request.GET)
    stage = tournament_stage(tournament, stage_id)
    try:
        batch_id = print_round(
            request.user,
            RoundOfPlay(stage, round_of_play),
            options=options,
            # the worker prints the cards in the language of this page
            language=get_language() or "",
        )
    except Refused as exc:
        if exc.kind != Kind.CONFLICT:  # the address is wrong (a round without matches)
            return _refused(request, tournament, PrintError(exc.text, status=exc.status))
        # said at once on the print page, never a hanging request
        messages.error(request, _("The cards were not printed: {error}").format(error=exc.text))
        return redirect("scoring:print-index", slug=tournament.slug)
    return redirect(_batch_page(tournament, stage.id, round_of_play, batch_id, options))


def _batch_page(
    tournament: Tournament, stage_id: int, round_of_play: int, batch_id: str, options: PrintOptions
) -> str:
    """The new batch's page. It carries when the batch was queued (to tell a batch no worker
    takes) and its options (to print it again): the batch has no row of its own."""
    page = reverse(
        "scoring:print-batch",
        kwargs={
            "slug": tournament.slug,
            "stage_id": stage_id,
            "round_of_play": round_of_play,
            "batch_id": batch_id,
        },
    )
    return f"{page}?{urlencode({'queued': int(time.time()), **options.as_query()})}"


@require_POST
@_for_printers
def batch_again(
    request: HttpRequest, tournament: Tournament, stage_id: int, round_of_play: int, batch_id: UUID
) -> HttpResponse:
    """Print a batch that stalled or failed again, with its options, as a new batch."""
    batch = _batch(request, tournament, stage_id, round_of_play, batch_id)
    options = print_options(request, request.GET)
    try:
        new_id = print_round_again(
            request.user, batch, options=options, language=get_language() or ""
        )
    except Refused as exc:
        messages.error(request, _("The cards were not printed: {error}").format(error=exc.text))
        args = (tournament.slug, batch.stage.id, round_of_play, batch_id)
        carried = request.GET.urlencode()
        page = reverse("scoring:print-batch", args=args)
        return redirect(page + (f"?{carried}" if carried else ""))
    return redirect(_batch_page(tournament, batch.stage.id, round_of_play, new_id, options))


def _queued_at(request: HttpRequest) -> float | None:
    try:
        return float(request.GET["queued"])
    except (KeyError, ValueError):
        return None


def _batch(
    request: HttpRequest,
    tournament: Tournament,
    stage_id: int,
    round_of_play: int,
    batch_id: UUID,
) -> PrintBatch:
    """The batch as its page reads it: its state from its Celery result and the storage, and
    how long it has shown no sign of moving."""
    stage = tournament_stage(tournament, stage_id)
    name = batch_file_name(tournament.slug, stage.id, round_of_play, str(batch_id))
    eager = render_round_cards.app.conf.task_always_eager
    result = None if eager else render_round_cards.AsyncResult(str(batch_id))
    state = batch_state(result, tournament_slug=tournament.slug, name=name)
    stalled = state.stalled_for(
        now=time.time(), queued_at=_queued_at(request), after=settings.PRINT_STALL_SECONDS
    )
    return PrintBatch(RoundOfPlay(stage, round_of_play), str(batch_id), state, stalled)


def _batch_context(
    request: HttpRequest,
    tournament: Tournament,
    stage_id: int,
    round_of_play: int,
    batch_id: UUID,
) -> dict[str, object]:
    batch = _batch(request, tournament, stage_id, round_of_play, batch_id)
    args = {
        "slug": tournament.slug,
        "stage_id": batch.stage.id,
        "round_of_play": round_of_play,
        "batch_id": batch_id,
    }
    carried = f"?{request.GET.urlencode()}" if request.GET else ""
    again = ""
    if print_round_again.refusal(request.user, batch) is None:
        again = reverse("scoring:print-batch-again", kwargs=args) + carried
    return {
        "tournament": tournament,
        "stage": batch.stage,
        "round_of_play": round_of_play,
        "progress": _batch_progress(
            batch.state,
            status_url=reverse("scoring:print-batch-status", kwargs=args) + carried,
            download_url=reverse("scoring:print-batch-download", kwargs=args),
            stalled=batch.stalled_for,
            again_url=again,
        ),
    }


def _batch_progress(
    batch: BatchState,
    *,
    status_url: str,
    download_url: str,
    stalled: float | None = None,
    again_url: str = "",
) -> Progress:
    """The batch as the shared progress partial shows it, polled every second; ``again_url``
    when it may be printed again (its step allows it: stalled or failed)."""
    common = {"element_id": "batch-status", "status_url": status_url, "poll_s": 1}
    again = (Action(label=_("Print it again"), url=again_url),) if again_url else ()
    if stalled is not None:
        minutes = max(1, round(stalled / 60))
        if batch.state == "running":
            since = ngettext(
                "This batch has not moved for {minutes} minute",
                "This batch has not moved for {minutes} minutes",
                minutes,
            )
        else:
            since = ngettext(
                "This batch has not been taken by a worker for {minutes} minute",
                "This batch has not been taken by a worker for {minutes} minutes",
                minutes,
            )
        return Progress(
            **common,
            running=False,
            state=_("Stalled"),
            error=since.format(minutes=minutes)
            + _(
                ": its worker may have stopped, or none is running. Print the round again; the "
                "cards already laid out are not lost, they are made again in a new batch."
            ),
            actions=again,
        )
    if batch.state == "done":
        ready = _("Ready")
        if batch.cards:
            ready = ngettext("Ready: {cards} card", "Ready: {cards} cards", batch.cards).format(
                cards=batch.cards
            )
        if batch.size:
            ready += f" ({filesizeformat(batch.size)})"
        return Progress(
            **common,
            running=False,
            state=ready + ".",
            percent=100,
            download_url=download_url,
            download_label=_("Download the PDF"),
        )
    if batch.state == "failed":
        return Progress(
            **common, running=False, state=_("Failed"), error=batch.message, actions=again
        )
    if batch.state == "running" and batch.total:
        laid = (
            _("{done} of {total} cards laid out…").format(done=batch.done, total=batch.total)
            if batch.done < batch.total
            else _("All {total} cards laid out; writing the PDF…").format(total=batch.total)
        )
        percent = round(100 * batch.done / batch.total)
        return Progress(**common, running=True, state=_("Running"), detail=laid, percent=percent)
    if batch.state == "running":
        return Progress(**common, running=True, state=_("Starting…"))
    return Progress(**common, running=True, state=_("Waiting for a worker to start…"))


@require_GET
@_for_printers
def batch_page(
    request: HttpRequest, tournament: Tournament, stage_id: int, round_of_play: int, batch_id: UUID
) -> HttpResponse:
    """The batch's page: a progress bar polled every second, then the download link."""
    context = _batch_context(request, tournament, stage_id, round_of_play, batch_id)
    return render(request, "scoring/print/batch.html", context)


@require_GET
@_for_printers
def batch_status(
    request: HttpRequest, tournament: Tournament, stage_id: int, round_of_play: int, batch_id: UUID
) -> HttpResponse:
    """The progress fragment that htmx swaps in every second until the batch is finished."""
    context = _batch_context(request, tournament, stage_id, round_of_play, batch_id)
    return progress_partial(request, context["progress"])


@require_GET
@_for_printers
def batch_download(
    request: HttpRequest, tournament: Tournament, stage_id: int, round_of_play: int, batch_id: UUID
) -> HttpResponse:
    """The finished batch's PDF, read from storage."""
    stage = tournament_stage(tournament, stage_id)
    name = batch_file_name(tournament.slug, stage.id, round_of_play, str(batch_id))
    if not default_storage.exists(name):
        raise PrintError(
            _(
                "This batch is not ready, or it was removed (batches are kept for a day); "
                "start a new one from the print page."
            ),
            status=404,
        )
    filename = f"{tournament.slug}-{slugify(stage.name)}-round-{round_of_play}.pdf"
    return FileResponse(
        default_storage.open(name, "rb"), content_type="application/pdf", filename=filename
    )
