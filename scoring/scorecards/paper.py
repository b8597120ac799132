"""Paper cards at the scoring table: WCC scorecards are paper, so a referee or a volunteer at
the table types a card's row in, with the opponent's ID number and initials as written on it.

The page is made for a pile of cards: choose the stage and round of play once, type the ID
number printed on the card, tab through the boxes, press enter; the page comes back ready for
the next card. The row goes through the same form and the same service checks as a row
filled on a phone (``services.enter_paper_row``); where the event asks for it, a second staff
member confirms it from the scoring table before it counts. A card whose player already saved
the game on their phone, saying otherwise, is not replaced unseen: the page shows the phone
row beside the paper card's and asks whether the paper card replaces it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.models import CardRow, ScoreCard
from scoring.scorecards import selectors as select
from scoring.scorecards import table_actions as table_steps
from scoring.scorecards.conditions import paper_enterable
from scoring.scorecards.forms import PaperFindForm, PaperRowForm
from scoring.scorecards.services import ContradictionError, StaleRowError, card_for
from tournaments.actions import Kind, Refused, refusal_text
from tournaments.models import Game, Stage, Tournament
from tournaments.views.access import refuse, safe_next, tournament_page

Status = CardRow.Status
STAFF_ONLY = table_steps.enter_paper_row.who


def _row_form(item: select.PaperGame, data: Any = None, *, lines: int = 0) -> PaperRowForm:
    names = (item.entry.name, *(o.name for o in item.opponents))
    row = item.row
    # The boxes start from the row when it may be entered again (a phone's row, a paper entry
    # awaiting confirmation); a signed or voided row's rounds are not the paper card's.
    enterable = row is None or paper_enterable(row) is None
    form = PaperRowForm(
        data,
        game=item.game,
        sides=names,
        rounds=row.rounds if row is not None and enterable else None,
        version=row.version if row is not None else 0,
        prefix="paper",
        lines=lines,
    )
    if form.by_difference:
        first = "r1_score_own"
    else:
        first = "r1_winner" if form.by_winner else "r1_points_own"
    form.fields[first].widget.attrs["autofocus"] = True
    return form


def _probe(item: select.PaperGame) -> CardRow:
    """The game's row on the card, or an unsaved one standing for it, which the step is asked
    about."""
    probe = item.row or CardRow(card=ScoreCard(stage=item.game.match.stage, entry=item.entry))
    probe.game = item.game
    return probe


def _refused(user, item: select.PaperGame) -> str:
    """Why the user may not enter this paper card's row (``table_actions.enter_paper_row``):
    they play in its game (another official enters it), or the row is signed or voided. The
    page then shows these words instead of the boxes; "" when the boxes are offered."""
    refused = table_steps.enter_paper_row.refusal(user, _probe(item))
    return refused.text if refused is not None else ""


def _entry_url(tournament: Tournament, stage: Stage, round_of_play: int) -> str:
    """The paper page, ready for the next card of the same stage and round of play."""
    query = urlencode({"stage": stage.id, "round_of_play": round_of_play})
    return f"{reverse('scoring:cards:paper', args=[tournament.slug])}?{query}"


def _context(tournament: Tournament, finder: PaperFindForm, **extra: Any) -> dict[str, Any]:
    if extra.get("item") is not None:
        # The row's first box takes the cursor, not the search box above it.
        finder.fields["who"].widget.attrs.pop("autofocus", None)
    base = {"tournament": tournament, "finder": finder, "found": None, "item": None}
    # ``phone_row``: the card's phone row shown beside the paper card's, when the two differ.
    return {**base, "phone_row": None, **extra}


@login_required
@tournament_page("scoring.enter_paper_row", STAFF_ONLY)
def paper_entry(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Find a paper card's game: stage, round of play, and the owner by ID number or name."""
    if request.method != "GET":
        return HttpResponse(status=405)
    complete = {"stage", "round_of_play", "who"} <= set(request.GET)
    finder = PaperFindForm(
        request.GET if complete else None,
        tournament=tournament,
        initial={k: request.GET.get(k) for k in ("stage", "round_of_play")},
    )
    context = _context(tournament, finder)
    if complete and finder.is_valid():
        stage, number = finder.cleaned_data["stage"], finder.cleaned_data["round_of_play"]
        found = select.paper_games(stage, number, finder.cleaned_data["who"])
        context["found"] = found
        if len(found) == 1:
            context = _context(tournament, finder, found=found, item=found[0])
            context["form"] = _row_form(found[0])
            context["refused"] = _refused(request.user, found[0])
    return render(request, "scoring/cards/paper.html", context)


@login_required
@tournament_page("scoring.enter_paper_row", STAFF_ONLY)
def paper_row(
    request: HttpRequest, tournament: Tournament, stage_id: int, entry_id: int, game_id: int
) -> HttpResponse:
    """One paper card's row: shown with the row's boxes, saved as validated on paper."""
    stage = Stage.objects.filter(pk=stage_id, category__tournament=tournament).first()
    if stage is None:
        raise Http404(_("No such stage in this tournament."))
    try:
        item = select.paper_game(stage, entry_id, game_id)
    except Game.DoesNotExist:
        raise Http404(_("That game is not on this card.")) from None
    number = item.game.match.round_of_play
    finder = PaperFindForm(
        tournament=tournament,
        initial={"stage": stage.id, "round_of_play": number, "who": item.entry.number},
    )
    if request.method != "POST":
        form = _row_form(item)
        context = _context(tournament, finder, item=item, form=form)
        context["refused"] = _refused(request.user, item)
        return render(request, "scoring/cards/paper.html", context)
    form = _row_form(item, request.POST)
    context = _context(tournament, finder, item=item, form=form)
    if not form.is_valid():
        context["errors"] = form.messages()
        return render(request, "scoring/cards/paper.html", context, status=400)
    card = card_for(stage, item.entry)
    probe = item.row or CardRow(card=card, game=item.game)
    try:
        row = table_steps.enter_paper_row(
            request.user,
            probe,
            rounds=form.rounds(),
            opponent_number=form.cleaned_data["opponent_number"],
            initials=form.cleaned_data["initials"],
            version=form.cleaned_data["version"],
            confirm_replace=form.cleaned_data["confirm_replace"],
        )
    except PermissionDenied as exc:
        return refuse(request, refusal_text(exc), tournament)
    except ContradictionError as exc:
        # The card's phone row says otherwise: both shown, the differing rounds marked, and the
        # question whether the paper card replaces it.
        form.bad_rounds.update(diff.number for diff in exc.diffs)
        context["errors"] = [exc.text]
        context["phone_row"] = exc.against
        context["phone_totals"] = select.totals(exc.against)
        return render(request, "scoring/cards/paper.html", context, status=409)
    except StaleRowError as exc:
        context["errors"] = [
            _("Changed by someone else — reload. %(problem)s") % {"problem": exc.text}
        ]
        return render(request, "scoring/cards/paper.html", context, status=409)
    except Refused as exc:
        if exc.round and exc.round > form.round_count:
            # A tied game needs another round: offer its line, with what was typed kept.
            form = _row_form(item, request.POST, lines=exc.round)
            form.is_valid()
            context["form"] = form
        if exc.round:
            form.bad_rounds.add(exc.round)
        context["errors"] = [exc.text]
        status = 409 if exc.kind == Kind.CONFLICT else 400
        return render(request, "scoring/cards/paper.html", context, status=status)
    state = (
        _("awaiting a second staff member's confirmation")
        if row.status == Status.AWAITING
        else _("validated on paper")
    )
    messages.success(
        request,
        _(
            "Entered the paper card of %(entry)s (ID %(number)s), round of play %(round)s: "
            "%(state)s."
        )
        % {"entry": item.entry.name, "number": item.entry.number, "round": number, "state": state},
    )
    return redirect(_entry_url(tournament, stage, number))


@login_required
@require_POST
@tournament_page(
    "scoring.confirm_paper_row",
    gettext_lazy("Only referees and the scoring table confirm paper cards."),
)
def confirm(request: HttpRequest, tournament: Tournament, row_id: int) -> HttpResponse:
    """A second staff member confirms a row entered from paper, from the scoring table."""
    table = reverse("scoring:cards:table", args=[tournament.slug])
    back = safe_next(request, table, within=table)
    row = (
        CardRow.objects.filter(pk=row_id, card__stage__category__tournament=tournament)
        .select_related("card__entry")
        .first()
    )
    if row is None:
        raise Http404(_("No such row in this tournament."))
    version = request.POST.get("version", "")
    try:
        table_steps.confirm_paper_row(
            request.user, row, version=int(version) if version.isdigit() else None
        )
    except PermissionDenied as exc:
        return refuse(request, refusal_text(exc), tournament)
    except Refused as exc:
        messages.error(request, exc.text)
        return redirect(back)
    messages.success(
        request,
        _("Confirmed the paper entry of %(entry)s's row.") % {"entry": row.card.entry.name},
    )
    return redirect(back)
