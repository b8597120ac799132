"""Scorecard pages: a player's card at the board, the scoring table, the dispute queue.

Views stay thin: they read through ``scoring.scorecards.selectors``, write through
``scoring.scorecards.services`` and only decide what to show whom. Every page needs a login
(a player's card pages also open in a browser holding the entry's private link);
every action asks ``user.has_perm`` (the ``rules`` permissions in ``scoring.permissions``) before
calling the service, which asks again. A refusal is a readable 403 page, a mistake in the input
is shown next to the row in words with what the person typed still in the boxes, and a row
changed by someone else meanwhile is shown beside what they typed, never overwritten.

With htmx, a row's forms swap just that row and the game total follows the boxes as they are
typed in (computed on the server by the same checks that saving runs); without JavaScript the
same forms post and redirect as plain HTML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from scoring.engine import judge_row, round_lines
from scoring.models import CardRow, ScoreCard
from scoring.permissions import is_card_owner
from scoring.rulings import actions as rulings
from scoring.scorecards import actions as row_actions
from scoring.scorecards import conditions, offline
from scoring.scorecards import selectors as select
from scoring.scorecards import table_actions as table_steps
from scoring.scorecards.codes import signing_path
from scoring.scorecards.diff_words import card_of, diff_lines
from scoring.scorecards.diffs import round_diffs
from scoring.scorecards.forms import (
    VOID_REASONS,
    CorrectionForm,
    RoundsForm,
    RulingForm,
    SeenRowForm,
    TableFilterForm,
    ValidateForm,
    VoidForm,
    seen_versions,
)
from scoring.scorecards.plausible import with_doubts
from scoring.scorecards.services import (
    ContradictionError,
    ScorecardError,
    StaleRowError,
    card_for,
    mark_seen,
    normalise_rounds,
)
from scoring.scorecards.to_sign import Signing, signing
from tournaments.actions import Action, Forbidden, Kind, Refused, refusal_text
from tournaments.actions import refusals as refusals_of
from tournaments.models import Entry, Game, Stage, Tournament
from tournaments.private_links import label_device, linked_entry_ids, login_or_link_required
from tournaments.views.access import refuse, safe_next, tournament_page

Status = CardRow.Status
CORRECTABLE = row_actions.CORRECTABLE
#: The answer to an entry sent again by a phone's outbox after it was applied.
ALREADY_SAVED = gettext_lazy(
    "Already saved: this entry reached the server before; nothing was written again."
)
ALREADY_SIGNED = gettext_lazy(
    "Already validated: this signature reached the server before; nothing was written again."
)


# A player's card -----------------------------------------------------------------------------


@dataclass
class RowPanel:
    """Everything one game's line on the card shows: the saved row, and the forms this user
    may use on it, bound to what they typed when a save was refused."""

    page: select.CardPage
    line: select.CardLine
    form: RoundsForm | None = None
    mode: str = ""
    validate_form: ValidateForm | None = None
    error: str = ""
    stale_rounds: list[dict[str, Any]] | None = None
    stale_version: int | None = None
    notice: str = ""
    #: How the notice reads: "ok" (green: done) or "notice" (amber: done, but look again).
    notice_tone: str = "ok"
    messages: list[str] = field(default_factory=list)
    #: The row's form is shown open: the next game to fill. The others stay folded, so that a
    #: card of several games is not a phone's length of boxes per game.
    expanded: bool = False
    #: The card read through its printed code by a phone that acts for nobody at this board:
    #: the rows only, no links into pages it may not open.
    read_only: bool = False
    #: On the owner's phone, next to a row waiting for the opponent: the address of the
    #: short-lived code the opponent scans with their own phone (``scoring.scorecards.codes``).
    sign_url: str = ""
    #: Why a step this user's role allows is not offered on the row now, in words.
    why_not: str = ""
    #: The player's row was seen by someone else since it was saved: a change needs a
    #: referee's initials (WCC), and the form asks for them.
    needs_initials: bool = False
    #: The re-open step (``table_actions.reopen_row``) takes this user on this row: the page
    #: offers its button (a voided row is written again once re-opened).
    offers_reopen: bool = False
    #: The row as typed contradicts the game's validated or official result (the fill step's
    #: refusal, with the other version's rounds): shown side by side, with the box that saves
    #: it anyway and opens a dispute.
    contradiction: ContradictionError | None = None
    #: The row's stage is closed: the row is read only, and ``why_not`` says why.
    closed: bool = False
    #: Beside the validation form: who this phone signs as (one "Agree"), and what looks
    #: wrong on the row (``scoring.scorecards.to_sign``).
    signing: Signing | None = None

    @property
    def game(self):
        return self.line.game

    @property
    def row(self) -> CardRow | None:
        return self.line.row

    def url(self, name: str) -> str:
        page = self.page
        return reverse(
            f"scoring:cards:{name}",
            args=[page.tournament.slug, page.stage.id, page.entry.id, self.game.id],
        )

    @property
    def fill_url(self) -> str:
        return self.url("fill_row")

    @property
    def correct_url(self) -> str:
        return self.url("correct_row")

    @property
    def validate_url(self) -> str:
        return self.url("validate_row")

    @property
    def reopen_url(self) -> str:
        return reverse("scoring:cards:reopen_row", args=[self.page.tournament.slug, self.row.pk])

    @property
    def total_url(self) -> str:
        return self.url("row_total")

    @property
    def history_url(self) -> str:
        return self.url("row_history")

    @property
    def card_url(self) -> str:
        return _card_url(self.page, self.game.id if self.game else None)

    @property
    def stale_totals(self) -> select.Totals | None:
        return select.totals(self.stale_rounds) if self.stale_rounds is not None else None


def _sides(page: select.CardPage, line: select.CardLine) -> tuple[str, ...]:
    """The names over a row's boxes: the card owner, then the others at the board in the
    match's order (the order of the row's figures; two others in a three-player game)."""
    others = [entry.name for entry in line.opponents] or [_("opponent")]
    return (page.entry.name, *others)


def _why_not(refusals: dict[str, Refused | None]) -> str:
    """Why a step this user's role allows on the row is not offered now (the row was validated,
    the game is not over on it ...): the first such refusal, in its words; "" when every step
    their role allows is offered, or their role allows none (nothing to explain)."""
    for refused in refusals.values():
        if refused is not None and refused.kind != Kind.FORBIDDEN:
            return refused.text
    return ""


def _panel(request: HttpRequest, page: select.CardPage, line: select.CardLine, **kw) -> RowPanel:
    """The line with fresh forms for whatever the user may do, unless bound ones are given."""
    panel = RowPanel(page=page, line=line, **kw)
    if line.game is None or line.game.forfeited_by:
        return panel  # a bye, or a forfeited game: nothing more is written on the row
    user = request.user
    row = line.row
    version = row.version if row else 0
    rounds = row.rounds if row else []
    probe = line.probe
    refusals = refusals_of(user, probe, row_actions.ROW_STEPS)
    # The player's row seen by someone else since it was saved: a change needs initials.
    seen = row is not None and conditions.change_needs_initials(row) is not None
    if panel.form is None:
        if refusals["fill_row"] is None:
            panel.form = (SeenRowForm if seen else RoundsForm)(
                game=line.game,
                sides=_sides(page, line),
                rounds=rounds,
                version=version,
                prefix=f"g{line.game.id}",
            )
            panel.mode = "fill"
        elif refusals["correct_row"] is None:
            panel.form = CorrectionForm(
                game=line.game,
                sides=_sides(page, line),
                rounds=rounds,
                version=version,
                prefix=f"g{line.game.id}",
            )
            panel.mode = "correct"
    # A row short of the game's end cannot be signed (the judge says what is missing on it).
    if refusals["validate_row"] is None:
        panel.signing = signing(user, row, line.opponents)
        if panel.validate_form is None:
            panel.validate_form = ValidateForm(
                initial={"version": version},
                prefix=f"v{line.game.id}",
                typed=not panel.signing.agree,
            )
    # The code the opponent scans to sign: only for a row their signature can be taken on now
    # (the game over on it, its stage open).
    if (
        row is not None
        and is_card_owner.test(user, row)
        and row_actions.validate_row.unmet(row) is None
    ):
        panel.sign_url = request.build_absolute_uri(signing_path(page.tournament.slug, row.pk))
    panel.needs_initials = seen and panel.form is not None and panel.mode == "fill"
    panel.closed = conditions.stage_open(probe) is not None
    if row is not None and not panel.closed:
        panel.offers_reopen = table_steps.reopen_row.allows(user, row)
    if panel.form is None and panel.validate_form is None:
        panel.why_not = _why_not(refusals)
    if line.not_needed and panel.why_not == line.not_needed:
        panel.why_not = ""  # the row says it in place of a result (``_official.html``)
    return panel


def _open_next_to_fill(panels: list[RowPanel]) -> list[RowPanel]:
    """Open the form of the first game on the card nobody has filled yet (in the order of
    play), the one the player is about to write: not a game already decided from another
    card or on paper, whose official result the row shows."""
    for panel in panels:
        if panel.mode == "fill" and panel.row is None and panel.line.official is None:
            panel.expanded = True
            break
    return panels


def _may_view(user, page: select.CardPage) -> bool:
    """Officials see every card; players see their own cards and their opponents' (they sign
    them)."""
    if user.has_perm("tournaments.view_official_pages", page.stage):
        return True
    if is_card_owner.test(user, CardRow(card=page.card)):
        return True
    return any(
        user.has_perm("scoring.validate_row", line.probe) for line in page.lines if line.game
    )


def _load_page(slug: str, stage_id: int, entry_id: int) -> select.CardPage:
    try:
        stage = select.stage_of(slug, stage_id)
        entry = select.entry_of(stage, entry_id)
    except (Stage.DoesNotExist, Entry.DoesNotExist):
        raise Http404(_("No such card in this tournament.")) from None
    return select.card_page(stage, entry)


def _load_line(page: select.CardPage, game_id: int) -> select.CardLine:
    line = page.line(game_id)
    if line is None:
        raise Http404(_("This game is not on this card."))
    return line


def _card_url(page: select.CardPage, game_id: int | None = None) -> str:
    url = reverse("scoring:cards:card", args=[page.tournament.slug, page.stage.id, page.entry.id])
    return f"{url}#game-{game_id}" if game_id else url


def _show(request: HttpRequest, page: select.CardPage, panel: RowPanel) -> HttpResponse:
    """The row alone for htmx, else the whole card with this row as it was left."""
    if request.htmx:
        return render(request, "scoring/cards/_row.html", {"panel": panel})
    panels = [panel if line is panel.line else _panel(request, page, line) for line in page.lines]
    return _card_page(request, page, _open_next_to_fill(panels))


def _card_page(request: HttpRequest, page: select.CardPage, panels: list) -> HttpResponse:
    """The whole card; above it, a closed stage's notice (read here, not while rendering), with
    the link to the stage's closed results for the officials who may open them."""
    found = conditions.stage_closure(page.stage)
    closed_page = None
    if found is not None and request.user.has_perm(
        "tournaments.view_official_pages", page.tournament
    ):
        closed_page = reverse("scoring:closed_stage", args=[page.tournament.slug, found.stage.pk])
    context = {"page": page, "panels": panels, "closure": found, "closed_page": closed_page}
    return render(request, "scoring/cards/card.html", context)


def _after_save(
    request: HttpRequest,
    page: select.CardPage,
    game_id: int,
    notice: str,
    *,
    warning: bool = False,
):
    """Post/redirect/get without htmx; with htmx, the row re-read and drawn again. A
    ``warning`` is a step done that still needs someone's eye (not the green of a result)."""
    if not request.htmx:
        (messages.warning if warning else messages.success)(request, notice)
        return redirect(_card_url(page, game_id))
    fresh = select.card_page(page.stage, page.entry)
    line = _load_line(fresh, game_id)
    tone = "notice" if warning else "ok"
    return render(
        request,
        "scoring/cards/_row.html",
        {"panel": _panel(request, fresh, line, notice=notice, notice_tone=tone)},
    )


@login_or_link_required
@require_GET
@tournament_page()
def index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Where a player finds their cards and an official every card and the queues."""
    official = request.user.has_perm("tournaments.view_official_pages", tournament)
    context = {
        "tournament": tournament,
        "mine": select.cards_of_user(tournament, request.user, linked_entry_ids(request.user)),
        "to_sign": select.rows_to_sign(
            tournament,
            select.entry_ids_of(tournament, request.user, linked_entry_ids(request.user)),
        ),
        "everyone": select.all_cards(tournament) if official else [],
        "official": official,
        "can_view_disputes": request.user.has_perm("scoring.view_disputes", tournament),
    }
    return render(request, "scoring/cards/index.html", context)


@login_or_link_required
@require_GET
def card(request: HttpRequest, slug: str, stage_id: int, entry_id: int) -> HttpResponse:
    page = _load_page(slug, stage_id, entry_id)
    if not _may_view(request.user, page):
        return refuse(request, _("Only the player, their opponents and officials see a card."))
    panels = _open_next_to_fill([_panel(request, page, line) for line in page.lines])
    # The opponent has the rows to sign in front of them: from now on a change is a correction.
    mark_seen([panel.row for panel in panels if panel.validate_form is not None])
    return _card_page(request, page, panels)


@login_or_link_required
@require_POST
def fill(request: HttpRequest, slug: str, stage_id: int, entry_id: int, game_id: int):
    """The card owner (or a referee) fills the row of a game not yet validated."""
    page = _load_page(slug, stage_id, entry_id)
    line = _load_line(page, game_id)
    forbidden = row_actions.fill_row.forbidden(request.user, line.probe)
    if forbidden is not None:
        return refuse(request, forbidden.text)
    # A phone's outbox sends an entry again when it never saw the answer: a key already applied
    # is answered with the row as it is now, and nothing is written (scoring.scorecards.offline).
    try:
        key = offline.key_of(request.POST, request.headers)
        if key and offline.applied(key, card_for(page.stage, page.entry), line.game):
            return _after_save(request, page, game_id, ALREADY_SAVED)
    except Refused as exc:
        return _show(request, page, _panel(request, page, line, error=exc.text))
    seen = line.row is not None and conditions.change_needs_initials(line.row) is not None
    form = (SeenRowForm if seen else RoundsForm)(
        request.POST, game=line.game, sides=_sides(page, line), prefix=f"g{game_id}"
    )
    return _save_rounds(request, page, line, form, step=row_actions.fill_row, key=key)


@login_required
@require_POST
def correct(request: HttpRequest, slug: str, stage_id: int, entry_id: int, game_id: int):
    """A referee corrects a row after validation, with their initials (a new version)."""
    page = _load_page(slug, stage_id, entry_id)
    line = _load_line(page, game_id)
    forbidden = (
        row_actions.correct_row.forbidden(request.user, line.row)
        if line.row is not None
        else Refused(str(row_actions.correct_row.who), kind=Kind.FORBIDDEN)
    )
    if forbidden is not None:
        return refuse(request, forbidden.text)
    form = CorrectionForm(
        request.POST, game=line.game, sides=_sides(page, line), prefix=f"g{game_id}"
    )
    return _save_rounds(request, page, line, form, step=row_actions.correct_row)


def _save_rounds(
    request, page, line, form: RoundsForm, *, step: Action, key: str = ""
) -> HttpResponse:
    mode = "correct" if step is row_actions.correct_row else "fill"
    panel = _panel(request, page, line, form=form, mode=mode)
    if not form.is_valid():
        panel.messages = form.messages()
        return _show(request, page, panel)
    version = form.cleaned_data["version"]
    card = card_for(page.stage, page.entry)
    probe = line.row or CardRow(card=card, game=line.game)
    # The fill step saves a row that contradicts the game's result once the player says so.
    confirm = {"confirm_contradiction": form.cleaned_data["confirm_contradiction"]}
    try:
        saved = offline.once(
            key,
            partial(
                step,
                request.user,
                probe,
                rounds=form.rounds(),
                version=version,
                referee_initials=form.cleaned_data.get("referee_initials", ""),
                **(confirm if mode == "fill" else {}),
            ),
            card=card,
            game=line.game,
            based_on=version,
        )
    except offline.AlreadyApplied:
        return _after_save(request, page, line.game.id, ALREADY_SAVED)
    except PermissionDenied as exc:
        return refuse(request, str(exc))
    except ContradictionError as exc:
        # Both versions side by side, the differing rounds marked, and the box that saves it.
        panel.error, panel.contradiction = exc.text, exc
        form.bad_rounds.update(diff.number for diff in exc.diffs)
        return _show(request, page, panel)
    except StaleRowError as exc:
        current = select.row_of(card, line.game)
        panel.error = _("Changed by someone else — reload. %(error)s") % {
            "error": refusal_text(exc)
        }
        panel.stale_rounds = current.rounds if current else []
        panel.stale_version = current.version if current else None
        return _show(request, page, panel)
    except Refused as exc:
        panel.error = exc.text
        if exc.round:
            form.bad_rounds.add(exc.round)
        return _show(request, page, panel)
    if mode == "correct":
        done = _("Correction saved, initialled by the referee.")
    elif saved.status == Status.DISPUTED:
        disputed = _(
            "Row saved, but another card of this game says otherwise: the game went to the "
            "head referee, who rules on it."
        )
        return _after_save(request, page, line.game.id, disputed, warning=True)
    elif saved.validated_how == CardRow.ValidatedHow.AGREEMENT:
        done = _("Row saved, and validated: %(entry)s's own card says the same.") % {
            "entry": saved.validated_entry
        }
    else:
        done = _("Row saved.")
    return _after_save(request, page, line.game.id, done)


@login_or_link_required
@require_POST
def validate(request: HttpRequest, slug: str, stage_id: int, entry_id: int, game_id: int):
    """The opponent signs the row with their player ID and initials."""
    page = _load_page(slug, stage_id, entry_id)
    line = _load_line(page, game_id)
    if line.row is None:
        raise Http404(_("Nothing has been filled on this row yet."))
    forbidden = row_actions.validate_row.forbidden(request.user, line.row)
    if forbidden is not None:
        return refuse(request, forbidden.text)
    label_device(request)
    # An "Agree" kept in a phone's outbox and sent again when its answer was lost: a key already
    # applied is answered as signed, and nothing is written (scoring.scorecards.offline).
    card = card_for(page.stage, page.entry)
    try:
        key = offline.key_of(request.POST, request.headers)
        if key and offline.applied(key, card, line.game, offline.VALIDATE):
            return _after_signed(request, page, game_id, ALREADY_SIGNED)
    except Refused as exc:
        return _show(request, page, _panel(request, page, line, error=exc.text))
    agree = signing(request.user, line.row, line.opponents).agree
    form = ValidateForm(request.POST, prefix=f"v{game_id}", typed=not agree)
    panel = _panel(request, page, line, validate_form=form)
    if not form.is_valid():
        panel.messages = form.messages()
        return _show(request, page, panel)
    version = form.cleaned_data["version"]
    try:
        signed = offline.once(
            key,
            partial(
                row_actions.validate_row,
                request.user,
                line.row,
                opponent_number=form.cleaned_data["opponent_number"],
                initials=form.cleaned_data["initials"],
                version=version,
            ),
            card=card,
            game=line.game,
            based_on=version,
            kind=offline.VALIDATE,
        )
    except offline.AlreadyApplied:
        return _after_signed(request, page, game_id, ALREADY_SIGNED)
    except PermissionDenied as exc:
        return refuse(request, str(exc))
    except StaleRowError as exc:
        panel.error = _("Changed by someone else — reload before you sign. %(error)s") % {
            "error": refusal_text(exc)
        }
        return _show(request, page, panel)
    except Refused as exc:
        panel.error = exc.text
        return _show(request, page, panel)
    if signed.status == Status.DISPUTED:
        # Signed, but the other card of the game says otherwise: no green "validated" above the
        # Disputed badge; the head referee rules on the game now.
        disputed = _(
            "Row signed, but the other card of this game does not agree: the game went to the "
            "head referee, who rules on it."
        )
        return _after_signed(request, page, game_id, disputed, warning=True)
    return _after_signed(request, page, game_id, _("Row validated by the opponent."))


def _after_signed(request, page, game_id: int, notice: str, *, warning: bool = False):
    """Back to the page the signature came from when it says so (the private-link page's
    "Agree"), else as any save of the row."""
    if not request.htmx and request.POST.get("next"):
        (messages.warning if warning else messages.success)(request, notice)
        return redirect(safe_next(request, _card_url(page, game_id)))
    return _after_save(request, page, game_id, notice, warning=warning)


@login_or_link_required
@require_POST
def total(request: HttpRequest, slug: str, stage_id: int, entry_id: int, game_id: int):
    """The game total of the boxes as typed so far: htmx asks while the player types.

    It runs the same checks as saving (without saving), so a mistake shows as soon as it is
    typed, with the round named. While the rounds typed do not finish the game, it says what is
    missing and adds the line for the next round to the form when the page has none (a game to
    100 takes as many rounds as it takes; a tied championship game plays on).
    """
    page = _load_page(slug, stage_id, entry_id)
    line = _load_line(page, game_id)
    if not _may_view(request.user, page):
        return refuse(request, _("Only the player, their opponents and officials see a card."))
    form = RoundsForm(request.POST, game=line.game, sides=_sides(page, line), prefix=f"g{game_id}")
    context: dict[str, Any] = {"totals": None, "problem": "", "missing": "", "key": game_id}
    if not form.is_valid():
        # Only the boxes matter here: the version is checked when the row is saved.
        problems = [m for m in form.messages() if "version" not in m]
        context["problem"] = problems[0] if problems else ""
    if not context["problem"]:
        try:
            clean = normalise_rounds(line.game, form.cleaned_data["rounds"], page.entry)
        except ScorecardError as exc:
            context["problem"] = refusal_text(exc)
        else:
            context["totals"] = select.totals(clean)
            verdict = judge_row(clean, form.rules)
            context["missing"] = verdict.missing
            needed, shown = round_lines(form.rules, verdict.rounds, verdict.over), form.shown_lines
            if needed > shown:
                more = RoundsForm(
                    game=line.game, sides=form.sides, prefix=form.prefix, lines=needed
                )
                context["new_lines"] = more.round_rows[shown:needed]
    return render(request, "scoring/cards/_total.html", context)


@login_or_link_required
@require_GET
def history(request: HttpRequest, slug: str, stage_id: int, entry_id: int, game_id: int):
    """Every version of a row: who saved it, when, why, what changed."""
    page = _load_page(slug, stage_id, entry_id)
    line = _load_line(page, game_id)
    if not _may_view(request.user, page):
        return refuse(request, _("Only the player, their opponents and officials see a card."))
    if line.row is None:
        raise Http404(_("Nothing has been filled on this row yet."))
    context = {
        "page": page,
        "line": line,
        "versions": select.row_versions(line.row),
        "card_url": _card_url(page, game_id),
    }
    return render(request, "scoring/cards/history.html", context)


# The scoring table ---------------------------------------------------------------------------


def _table_context(request: HttpRequest, tournament: Tournament, query=None) -> dict[str, Any]:
    filters = TableFilterForm(
        query if query is not None else (request.GET or None), tournament=tournament
    )
    stage, round_of_play = filters.filters()
    here = request.get_full_path() if query is None else _table_next(request, tournament)
    queue = select.table_queue(tournament, stage=stage, round_of_play=round_of_play)
    roles = _table_roles(request, tournament)
    voided = []
    if roles["roles"]["enter_paper_row"] is None:
        # Staff who enter paper cards see the voided rows, to re-open one to enter it again.
        voided = select.voided_rows(tournament, stage=stage, round_of_play=round_of_play)
    return {
        **roles,
        "filters": filters,
        "queue": _ask_steps(request.user, queue),
        "voided": _ask_reopen(request.user, voided),
        "here": here,
    }


def _ask_steps(user, queue: list[select.TableCard]) -> list[select.TableCard]:
    """Each card's steps asked for the user (``item.refusals``: verify and void, None where the
    button applies, else why not), and each row waiting for a second staff member's confirmation
    asked too (``row.confirm_refused``). The card's rows shown are what the steps read, so the
    queue costs no query more per card (a staff member who plays: one per card, for the games
    on it)."""
    # What looks wrong on each row, before the table verifies it (one query for the queue).
    with_doubts([row for item in queue for row in item.rows])
    for item in queue:
        item.refusals = refusals_of(user, item.card, table_steps.CARD_STEPS)
        for row in item.rows:
            row.confirm_refused = table_steps.confirm_paper_row.refusal(user, row)
    return queue


def _ask_reopen(user, rows: list[CardRow]) -> list[CardRow]:
    for row in rows:
        row.reopen_refused = table_steps.reopen_row.refusal(user, row)
    return rows


def _table_roles(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """Whether the user's role takes each of the table's steps at all (asked of the tournament:
    roles are per tournament, so this answers for every card on it); a step the role takes
    but a card refuses says why beside that card."""
    user = request.user
    steps = (*table_steps.CARD_STEPS, table_steps.enter_paper_row, table_steps.confirm_paper_row)
    roles = {step.name.rsplit(".", 1)[-1]: step.forbidden(user, tournament) for step in steps}
    return {"tournament": tournament, "void_reasons": VOID_REASONS, "roles": roles}


@require_GET
@tournament_page(
    "tournaments.view_official_pages",
    gettext_lazy("The scoring table's page is for the tournament's officials."),
)
def table(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Cards waiting for verification, by stage and round of play."""
    return render(request, "scoring/cards/table.html", _table_context(request, tournament))


def _table_next(request: HttpRequest, tournament: Tournament) -> str:
    """Where the table was (its filters), if the form said so and it is the table."""
    default = reverse("scoring:cards:table", args=[tournament.slug])
    return safe_next(request, default, within=default)


def _cards_waiting(request: HttpRequest, tournament: Tournament) -> int:
    """How many cards the table's queue holds now, with the filters the table was showing
    (carried in the form's ``next``)."""
    query = QueryDict(urlsplit(_table_next(request, tournament)).query)
    filters = TableFilterForm(query or None, tournament=tournament)
    stage, round_of_play = filters.filters()
    return len(select.table_queue(tournament, stage=stage, round_of_play=round_of_play))


def _table_result(request, tournament, card: ScoreCard, *, ok: bool, text: str) -> HttpResponse:
    """What replaces a card that left the queue, with the queue's new count for the top of the
    table (an out-of-band swap: the count is outside the card that was swapped)."""
    context = {"card": card, "ok": ok, "text": text, "waiting": _cards_waiting(request, tournament)}
    return render(request, "scoring/cards/_table_result.html", context)


def _table_done(request, tournament, card: ScoreCard, text: str) -> HttpResponse:
    if request.htmx:
        return _table_result(request, tournament, card, ok=True, text=text)
    messages.success(request, text)
    return redirect(_table_next(request, tournament))


def _table_failed(request, tournament, card: ScoreCard, text: str, form=None) -> HttpResponse:
    """Say what went wrong on the card itself, with the void reason as it was typed."""
    failed = {"card_id": card.id, "error": text, "form": form}
    if not request.htmx:
        query = QueryDict(urlsplit(_table_next(request, tournament)).query)
        context = _table_context(request, tournament, query=query or None)
        if not any(item.card.id == card.id for item in context["queue"]):
            messages.error(request, text)
        return render(request, "scoring/cards/table.html", {**context, "failed": failed})
    found = _ask_steps(request.user, select.table_queue(tournament, card=card))
    if not found:
        return _table_result(request, tournament, card, ok=False, text=text)
    context = {
        **_table_roles(request, tournament),
        "item": found[0],
        "failed": failed,
        "here": _table_next(request, tournament),
    }
    return render(request, "scoring/cards/_table_card.html", context)


def _table_card(slug: str, card_id: int) -> ScoreCard:
    try:
        return select.card_of(slug, card_id)
    except ScoreCard.DoesNotExist:
        raise Http404(_("No such card in this tournament.")) from None


@login_required
@require_POST
def verify(request: HttpRequest, slug: str, card_id: int) -> HttpResponse:
    """The scoring table verifies every validated row of a card: the rows count from now."""
    card = _table_card(slug, card_id)
    tournament = card.stage.category.tournament
    forbidden = table_steps.verify_card.forbidden(request.user, card)
    if forbidden is not None:
        return refuse(request, forbidden.text)
    try:
        seen = seen_versions(request.POST)
        rows = table_steps.verify_card(request.user, card, versions=seen)
    except PermissionDenied as exc:
        return refuse(request, refusal_text(exc))
    except Refused as exc:
        return _table_failed(request, tournament, card, exc.text)
    text = ngettext(
        "Verified the card of %(name)s (%(count)s row).",
        "Verified the card of %(name)s (%(count)s rows).",
        len(rows),
    ) % {"name": card.entry.name, "count": len(rows)}
    return _table_done(request, tournament, card, text)


@login_required
@require_POST
def void(request: HttpRequest, slug: str, card_id: int) -> HttpResponse:
    """The scoring table voids a card, saying why (WCC: name, ID, category missing, illegible)."""
    card = _table_card(slug, card_id)
    tournament = card.stage.category.tournament
    forbidden = table_steps.void_card.forbidden(request.user, card)
    if forbidden is not None:
        return refuse(request, forbidden.text)
    form = VoidForm(request.POST)
    if not form.is_valid():
        text = _("The card of %(name)s was not voided: %(why)s") % {
            "name": card.entry.name,
            "why": " ".join(form.messages()),
        }
        return _table_failed(request, tournament, card, text, form)
    try:
        seen = seen_versions(request.POST)
        rows = table_steps.void_card(
            request.user, card, reason=form.reason_text(), rows=list(seen), versions=seen
        )
    except PermissionDenied as exc:
        return refuse(request, refusal_text(exc))
    except Refused as exc:
        return _table_failed(request, tournament, card, exc.text, form)
    text = ngettext(
        "Voided the card of %(name)s (%(reason)s; %(count)s row).",
        "Voided the card of %(name)s (%(reason)s; %(count)s rows).",
        len(rows),
    ) % {"name": card.entry.name, "reason": form.reason_text(), "count": len(rows)}
    return _table_done(request, tournament, card, text)


@login_or_link_required
@require_POST
def reopen(request: HttpRequest, slug: str, row_id: int) -> HttpResponse:
    """A voided row is re-opened, to be written again: by its card's player (from the card
    page) or by staff who enter paper cards (from the card page or the scoring table). Back
    where the button was (``next``), else the card."""
    row = select.row_by_id(slug, row_id)
    if row is None:
        raise Http404(_("No such row in this tournament."))
    card_url = reverse("scoring:cards:card", args=[slug, row.card.stage_id, row.card.entry_id])
    back = safe_next(request, f"{card_url}#game-{row.game_id}")
    forbidden = table_steps.reopen_row.forbidden(request.user, row)
    if forbidden is not None:
        return refuse(request, forbidden.text)
    version = request.POST.get("version", "")
    try:
        table_steps.reopen_row(
            request.user, row, version=int(version) if version.isdigit() else None
        )
    except PermissionDenied as exc:
        return refuse(request, refusal_text(exc))
    except Refused as exc:
        messages.error(request, exc.text)
        return redirect(back)
    messages.success(
        request,
        _(
            "Re-opened the row of %(entry)s, %(where)s: write it again; it waits for the "
            "opponent's signature."
        )
        % {"entry": row.card.entry.name, "where": conditions.where(row.game)},
    )
    return redirect(back)


# The dispute queue ---------------------------------------------------------------------------


@dataclass
class DisputePanel:
    dispute: select.Dispute
    form: RulingForm | None
    error: str = ""
    messages: list[str] = field(default_factory=list)
    #: Why no ruling is offered here: the step's words (who may, or another official's game).
    refused: str = ""

    @property
    def differences(self) -> list[str]:
        """The rounds the cards in dispute tell differently, each in words with what every card
        says ("Round 3: Anna's card 2-0, ...; Ben's card 0-2, ..."), in the match's order of
        sides (``diffs.round_diffs``): what the head referee rules on."""
        cards = [card for card in self.dispute.cards if card.row is not None]
        found = round_diffs([card.rounds for card in cards])
        return diff_lines(found, [card_of(card.entry.name) for card in cards])


def _ruling_form(dispute: select.Dispute, data=None) -> RulingForm:
    """The ruling's boxes, a column per entry in the match's order (entry A first), started
    from the first card's rounds."""
    return RulingForm(
        data,
        game=dispute.game,
        sides=tuple(card.entry.name for card in dispute.cards),
        rounds=dispute.start,
        prefix=f"d{dispute.game.id}",
    )


def _disputes_page(request, tournament, *, bound: DisputePanel | None = None) -> HttpResponse:
    """Each disputed game with the ruling's form where the step applies
    (``scoring.rulings.actions.resolve_dispute``), else its words."""
    panels = []
    for dispute in select.dispute_queue(tournament):
        if bound is not None and dispute.game.id == bound.dispute.game.id:
            panels.append(bound)
            continue
        game = dispute.game
        game.rows_disputed = [card.row for card in dispute.cards if card.row is not None]
        refused = rulings.resolve_dispute.refusal(request.user, game)
        if refused is None:
            panels.append(DisputePanel(dispute, _ruling_form(dispute)))
        else:
            panels.append(DisputePanel(dispute, None, refused=refused.text))
    context = {"tournament": tournament, "panels": panels}
    return render(request, "scoring/cards/disputes.html", context)


@require_GET
@tournament_page(
    "scoring.view_disputes",
    gettext_lazy("The dispute queue is for referees and the scoring table."),
)
def disputes(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The head referee's queue: each disputed game with its cards side by side."""
    return _disputes_page(request, tournament)


@login_required
@require_POST
@tournament_page()
def resolve(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """The head referee's ruling on a disputed game: every card of it takes it, verified (the
    step ``scoring.rulings.actions.resolve_dispute``)."""
    try:
        game = select.disputed_game(tournament, game_id)
    except Game.DoesNotExist:
        raise Http404(_("No such game in this tournament.")) from None
    step = rulings.resolve_dispute
    refused = step.refusal(request.user, game)
    if isinstance(refused, Forbidden):
        return refuse(request, refused.text)
    found = select.dispute_queue(tournament, game_id=game.id)
    if refused is not None or not found:  # settled since the queue was drawn
        messages.error(request, refused.text if refused is not None else _("No dispute is open."))
        return redirect("scoring:cards:disputes", slug=tournament.slug)
    dispute = found[0]
    form = _ruling_form(dispute, request.POST)
    panel = DisputePanel(dispute, form)
    if not form.is_valid():
        panel.messages = form.messages()
        return _disputes_page(request, tournament, bound=panel)
    try:
        step(
            request.user,
            game,
            rounds=form.rounds(),
            initials=form.cleaned_data["initials"],
            versions=seen_versions(request.POST),
        )
    except Forbidden as exc:
        return refuse(request, exc.text)
    except Refused as exc:
        panel.error = exc.text
        if exc.round:
            form.bad_rounds.add(exc.round)
        return _disputes_page(request, tournament, bound=panel)
    messages.success(request, _("Dispute settled: %(game)s.") % {"game": conditions.where(game)})
    return redirect("scoring:cards:disputes", slug=tournament.slug)
