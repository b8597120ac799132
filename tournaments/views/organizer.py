"""Organizer pages: the dashboard, categories, registration and CSV import, doubles teams,
check-in, stages with their draws, and boards; plus creating a tournament.

Every page needs ``tournaments.manage_tournament`` on its tournament: anonymous visitors are
sent to log in, everyone else gets a 403 page. Views are thin: reads are the small query
functions below, writes go through ``tournaments.services``; a service's ``ValidationError``
comes back as a form error or a message, never as a server error.
"""

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from scoring.progression.services import advance
from tournaments import csv_import
from tournaments.forms import (
    BoardCountForm,
    CategoryForm,
    CsvConfirmForm,
    CsvUploadForm,
    EnterPlayerForm,
    PlayerForm,
    PresetCategoriesForm,
    StageForm,
    StageRunForm,
    TeamForm,
    TournamentForm,
)
from tournaments.models import Board, Category, Entry, Player, Pool, Stage, Tournament
from tournaments.services import registration
from tournaments.services.draws import draw_stage
from tournaments.services.setup import create_tournament

logger = logging.getLogger(__name__)

TEMPLATES = "tournaments/organizer"

OrganizerView = Callable[..., HttpResponse]


def organizer_page(view: OrganizerView) -> Callable[..., HttpResponse]:
    """Load the tournament of the URL and let only its organizers in.

    The wrapped view receives the tournament instead of its slug.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not request.user.has_perm("tournaments.manage_tournament", tournament):
            return render(
                request, f"{TEMPLATES}/forbidden.html", {"tournament": tournament}, status=403
            )
        return view(request, tournament, **kwargs)

    return wrapper


def _form_errors_from(form: Form, exc: ValidationError) -> None:
    """Put a service's error next to the field it names, or above the form."""
    if hasattr(exc, "error_dict"):
        for name, errors in exc.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def _error_text(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def _safe_next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return default


# Reads ------------------------------------------------------------------------------------------


def _categories_with_counts(tournament: Tournament) -> QuerySet[Category]:
    """Categories with their entry counts and their stages with match counts (two queries)."""
    stages = Stage.objects.annotate(match_count=Count("matches")).order_by("order")
    return (
        tournament.categories.annotate(
            entry_count=Count("entries", filter=Q(entries__withdrawn=False)),
            checked_in_count=Count(
                "entries", filter=Q(entries__checked_in=True, entries__withdrawn=False)
            ),
            withdrawn_count=Count("entries", filter=Q(entries__withdrawn=True)),
        )
        .prefetch_related(Prefetch("stages", queryset=stages))
        .order_by("name")
    )


def _entries(tournament: Tournament) -> QuerySet[Entry]:
    """Entries with everything their names need, ordered by last name (one query)."""
    return (
        Entry.objects.filter(category__tournament=tournament)
        .select_related("category", "player", "team__player_one", "team__player_two")
        .order_by(
            Coalesce("player__last_name", "team__player_one__last_name"),
            Coalesce("player__first_name", "team__player_one__first_name"),
            "category__name",
            "id",
        )
    )


def _search(entries: QuerySet[Entry], q: str) -> QuerySet[Entry]:
    """Every word of ``q`` must match a name, an ID number, a club or the team name."""
    for word in q.split():
        match = (
            Q(player__first_name__icontains=word)
            | Q(player__last_name__icontains=word)
            | Q(player__club__icontains=word)
            | Q(team__name__icontains=word)
            | Q(team__player_one__first_name__icontains=word)
            | Q(team__player_one__last_name__icontains=word)
            | Q(team__player_two__first_name__icontains=word)
            | Q(team__player_two__last_name__icontains=word)
        )
        if word.isdigit():
            number = int(word)
            match |= (
                Q(player__number=number)
                | Q(team__player_one__number=number)
                | Q(team__player_two__number=number)
            )
        entries = entries.filter(match)
    return entries


@dataclass
class PlayerLine:
    """A registered player with the categories they play, alone or with a partner."""

    player: Player
    singles: list[Entry] = field(default_factory=list)
    doubles: list[tuple[Entry, Player]] = field(default_factory=list)


def _player_lines(tournament: Tournament, q: str = "") -> list[PlayerLine]:
    """The registration list (three queries whatever its length)."""
    players = tournament.players.order_by("number")
    for word in q.split():
        match = (
            Q(first_name__icontains=word)
            | Q(last_name__icontains=word)
            | Q(club__icontains=word)
            | Q(country__icontains=word)
        )
        if word.isdigit():
            match |= Q(number=int(word))
        players = players.filter(match)
    lines = {
        p.pk: PlayerLine(player=p)
        for p in players.prefetch_related(
            Prefetch(
                "entries",
                queryset=Entry.objects.select_related("category").order_by("category__name"),
            )
        )
    }
    for line in lines.values():
        line.singles = list(line.player.entries.all())
    team_entries = (
        Entry.objects.filter(category__tournament=tournament, team__isnull=False)
        .select_related("category", "team__player_one", "team__player_two")
        .order_by("category__name")
    )
    for entry in team_entries:
        one, two = entry.team.player_one, entry.team.player_two
        if one.pk in lines:
            lines[one.pk].doubles.append((entry, two))
        if two.pk in lines:
            lines[two.pk].doubles.append((entry, one))
    return list(lines.values())


def _stages_with_state(category: Category) -> list[Stage]:
    """The category's stages in play order, with their match count and whether entries were
    seeded into their pools (by an advance or a draw), in one query."""
    seeded = Pool.entries.through.objects.filter(pool__stage=OuterRef("pk"))
    return list(
        category.stages.annotate(match_count=Count("matches"), has_entries=Exists(seeded)).order_by(
            "order"
        )
    )


def _checkin_summary(tournament: Tournament) -> dict[str, int]:
    return Entry.objects.filter(category__tournament=tournament).aggregate(
        total=Count("id", filter=Q(withdrawn=False)),
        checked_in=Count("id", filter=Q(withdrawn=False, checked_in=True)),
        withdrawn=Count("id", filter=Q(withdrawn=True)),
    )


# Creating a tournament --------------------------------------------------------------------------


@login_required
def create_tournament_view(request: HttpRequest) -> HttpResponse:
    """Whoever creates a tournament becomes its organizer (``services.setup``)."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            tournament = create_tournament(
                name=data.pop("name"), slug=data.pop("slug"), user=request.user, **data
            )
        except ValidationError as exc:
            _form_errors_from(form, exc)
        else:
            messages.success(request, f"{tournament.name} is created; add its categories next.")
            return redirect("tournaments:manage", tournament.slug)
    return render(request, f"{TEMPLATES}/tournament_create.html", {"form": form})


# Dashboard and categories -----------------------------------------------------------------------


@organizer_page
def dashboard(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Categories with their entries and stages, and links to every organizer page."""
    boards = tournament.boards.aggregate(
        total=Count("id"), in_service=Count("id", filter=Q(in_service=True))
    )
    return render(
        request,
        f"{TEMPLATES}/dashboard.html",
        {
            "tournament": tournament,
            "categories": _categories_with_counts(tournament),
            "player_count": tournament.players.count(),
            "boards": boards,
            "checkin": _checkin_summary(tournament),
        },
    )


@organizer_page
def category_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Categories from the WCC presets (several at once) or one set up by hand."""
    which = request.POST.get("form")
    preset_form = PresetCategoriesForm(request.POST if which == "presets" else None)
    manual_form = CategoryForm(request.POST if which == "manual" else None)
    if request.method == "POST":
        try:
            if which == "presets" and preset_form.is_valid():
                created = registration.create_categories_from_presets(
                    tournament=tournament, keys=preset_form.cleaned_data["presets"]
                )
                names = ", ".join(c.name for c in created)
                messages.success(request, f"Added {names}.")
                return redirect("tournaments:manage", tournament.slug)
            if which == "manual" and manual_form.is_valid():
                category = registration.create_category(
                    tournament=tournament, **manual_form.cleaned_data
                )
                messages.success(request, f"Added {category.name}.")
                return redirect("tournaments:manage-category", tournament.slug, category.pk)
        except ValidationError as exc:
            _form_errors_from(preset_form if which == "presets" else manual_form, exc)
    return render(
        request,
        f"{TEMPLATES}/category_create.html",
        {"tournament": tournament, "preset_form": preset_form, "manual_form": manual_form},
    )


def _category_page(
    request: HttpRequest,
    tournament: Tournament,
    category: Category,
    *,
    stage_form: StageForm | None = None,
    enter_form: EnterPlayerForm | None = None,
    status: int = 200,
) -> HttpResponse:
    stages = _stages_with_state(category)
    played = [s for s in stages if s.kind != Stage.Kind.SHOOTOUT]
    for stage in stages:
        # Shoot-outs settle ties; the entries go from one played stage to the next.
        earlier = [s for s in played if s.order < stage.order]
        following = next((s for s in played if s.order > stage.order), None)
        stage.filled_by = earlier[-1] if earlier else None
        # A shoot-out stage is not drawn: it is created when a tie sits on the cut line. A
        # stage after another is filled by that stage's Advance (its top entries, seeded): a
        # draw of its own would take every entry of the category.
        stage.can_draw = stage.kind != Stage.Kind.SHOOTOUT and stage.filled_by is None
        # A knockout's winners go on inside its bracket; the last stage has nowhere to go; a
        # stage whose next one already has its entries has advanced.
        stage.can_advance = (
            following is not None
            and stage.kind != Stage.Kind.KNOCKOUT
            and not (following.match_count or following.has_entries)
        )
        stage.next_kind = following.kind if following is not None else ""
    return render(
        request,
        f"{TEMPLATES}/category.html",
        {
            "tournament": tournament,
            "category": category,
            "entries": _entries(tournament).filter(category=category),
            "stages": stages,
            "stage_form": stage_form
            or StageForm(next_order=registration.next_stage_order(category)),
            "enter_form": enter_form
            or (
                EnterPlayerForm(category=category)
                if category.kind == Category.Kind.SINGLES
                else None
            ),
        },
        status=status,
    )


@organizer_page
def category_detail(request: HttpRequest, tournament: Tournament, category_id: int) -> HttpResponse:
    """A category's entries (withdraw, reinstate, enter more) and its stages (add, draw)."""
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    return _category_page(request, tournament, category)


@require_POST
@organizer_page
def category_enter_player(
    request: HttpRequest, tournament: Tournament, category_id: int
) -> HttpResponse:
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    form = EnterPlayerForm(request.POST, category=category)
    if form.is_valid():
        try:
            entry = registration.enter_player(player=form.cleaned_data["player"], category=category)
        except ValidationError as exc:
            _form_errors_from(form, exc)
        else:
            messages.success(request, f"{entry.name} entered in {category.name}.")
            return redirect("tournaments:manage-category", tournament.slug, category.pk)
    return _category_page(request, tournament, category, enter_form=form, status=400)


@require_POST
@organizer_page
def stage_create(request: HttpRequest, tournament: Tournament, category_id: int) -> HttpResponse:
    category = get_object_or_404(Category, pk=category_id, tournament=tournament)
    form = StageForm(request.POST, next_order=registration.next_stage_order(category))
    if form.is_valid():
        try:
            stage = registration.add_stage(category=category, **form.stage_fields())
        except ValidationError as exc:
            _form_errors_from(form, exc)
        else:
            messages.success(request, f"Added the stage {stage.name}.")
            return redirect("tournaments:manage-category", tournament.slug, category.pk)
    return _category_page(request, tournament, category, stage_form=form, status=400)


#: The options of ``StageRunForm`` each stage service takes.
DRAW_OPTIONS = ("method", "pool_count", "double", "third_place")
ADVANCE_OPTIONS = ("pool_count", "double", "third_place")


def _run_stage_service(
    request: HttpRequest, stage: Stage, service: Callable, accepted: tuple[str, ...], done: str
) -> None:
    """Run a draw or an advance with the options the organizer gave; a refusal becomes a
    message.

    A refusal keeps what the service saved on purpose before refusing (an advance blocked by a
    tie on the cut line creates the shoot-out stage that settles it); a database error undoes
    everything the call wrote.
    """
    form = StageRunForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[k].label}: {' '.join(v)}" for k, v in form.errors.items()
        )
        messages.error(request, f"{stage.name}: {problems}")
        return
    options = {k: v for k, v in form.options().items() if k in accepted}
    refusal: str | None = None
    try:
        with transaction.atomic():
            try:
                result = service(stage, **options)
            except ValidationError as exc:
                refusal = _error_text(exc)
            except (ValueError, NotImplementedError) as exc:
                refusal = str(exc)
    except DatabaseError:
        logger.exception("stage service failed on stage %s", stage.pk)
        messages.error(
            request, f"{stage.name}: the database refused the change; nothing was saved."
        )
        return
    if refusal is not None:
        messages.error(request, f"{stage.name}: {refusal}")
    elif isinstance(result, Stage):
        messages.success(request, f"{stage.name}: {done}; next: {result.name}.")
    elif isinstance(result, list | tuple):
        messages.success(request, f"{stage.name}: {done} ({len(result)} matches).")
    else:
        messages.success(request, f"{stage.name}: {done}.")


def _stage_of(tournament: Tournament, stage_id: int) -> Stage:
    return get_object_or_404(
        Stage.objects.select_related("category__tournament"),
        pk=stage_id,
        category__tournament=tournament,
    )


@require_POST
@organizer_page
def stage_draw(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage_of(tournament, stage_id)
    _run_stage_service(request, stage, draw_stage, DRAW_OPTIONS, "drawn")
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


@require_POST
@organizer_page
def stage_advance(request: HttpRequest, tournament: Tournament, stage_id: int) -> HttpResponse:
    stage = _stage_of(tournament, stage_id)
    _run_stage_service(request, stage, advance, ADVANCE_OPTIONS, "entries advanced")
    return redirect("tournaments:manage-category", tournament.slug, stage.category_id)


# Players ----------------------------------------------------------------------------------------


@organizer_page
def players(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The registration list and the form to register one more player."""
    if request.method == "POST":
        form = PlayerForm(request.POST, tournament=tournament)
        if form.is_valid():
            try:
                player = registration.register_player(tournament=tournament, **form.cleaned_data)
            except ValidationError as exc:
                _form_errors_from(form, exc)
            else:
                messages.success(request, f"Registered {player.full_name} with ID {player.number}.")
                return redirect("tournaments:manage-players", tournament.slug)
    else:
        form = PlayerForm(
            tournament=tournament, initial={"number": registration.next_free_number(tournament)}
        )
    q = request.GET.get("q", "").strip()
    return render(
        request,
        f"{TEMPLATES}/players.html",
        {"tournament": tournament, "form": form, "lines": _player_lines(tournament, q), "q": q},
        status=400 if form.errors else 200,
    )


@organizer_page
def import_upload(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Upload a CSV file and see every row with its errors; nothing is written yet."""
    form = CsvUploadForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {"tournament": tournament, "form": form, **_format_help(tournament)}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        try:
            preview = registration.import_preview(tournament=tournament, data=data)
        except csv_import.CsvFileError as exc:
            form.add_error("file", str(exc))
        else:
            return _preview_page(request, tournament, preview, data)
    return render(request, f"{TEMPLATES}/import.html", context, status=400 if form.errors else 200)


def _format_help(tournament: Tournament) -> dict[str, Any]:
    return {
        "columns": [
            (c, csv_import.COLUMN_HELP[c], c in csv_import.REQUIRED) for c in csv_import.COLUMNS
        ],
        "example": _example_csv(tournament),
        "separator": csv_import.CATEGORY_SEPARATOR,
        "max_rows": csv_import.MAX_ROWS,
    }


def _preview_page(
    request: HttpRequest, tournament: Tournament, preview: csv_import.ImportPreview, data: bytes
) -> HttpResponse:
    confirm = CsvConfirmForm(
        initial={"data": registration.encode_upload(data), "fingerprint": preview.fingerprint}
    )
    return render(
        request,
        f"{TEMPLATES}/import_preview.html",
        {"tournament": tournament, "preview": preview, "confirm": confirm},
    )


@require_POST
@organizer_page
def import_confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Import the valid rows of the previewed file (rows with errors are skipped)."""
    form = CsvConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The confirmation lost the previewed file; upload it again.")
        return redirect("tournaments:manage-import", tournament.slug)
    try:
        data = registration.decode_upload(form.cleaned_data["data"])
        result = registration.import_players(
            tournament=tournament, data=data, fingerprint=form.cleaned_data["fingerprint"]
        )
    except csv_import.CsvFileError as exc:
        messages.error(request, str(exc))
        return redirect("tournaments:manage-import", tournament.slug)
    except registration.ImportChangedError as exc:
        messages.error(request, _error_text(exc))
        return _preview_page(request, tournament, exc.preview, data)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect("tournaments:manage-import", tournament.slug)
    skipped = len(result.preview.invalid_rows)
    messages.success(
        request,
        f"Imported {len(result.players)} players and {result.entries} entries"
        + (f"; skipped {skipped} rows with errors." if skipped else "."),
    )
    return redirect("tournaments:manage-players", tournament.slug)


def _example_csv(tournament: Tournament) -> str:
    names = list(
        tournament.categories.filter(kind=Category.Kind.SINGLES)
        .order_by("name")
        .values_list("name", flat=True)
    )
    return csv_import.example_csv(names)


@organizer_page
def import_example(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """An example file with the right header, naming this tournament's categories."""
    response = HttpResponse(_example_csv(tournament), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-players.csv"'
    return response


# Teams ------------------------------------------------------------------------------------------


@organizer_page
def teams(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Doubles teams by category, and the form to pair two registered players."""
    form = TeamForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            entry = registration.pair_team(**form.cleaned_data)
        except ValidationError as exc:
            _form_errors_from(form, exc)
        else:
            messages.success(request, f"{entry.name} entered in {entry.category.name}.")
            return redirect("tournaments:manage-teams", tournament.slug)
    return render(
        request,
        f"{TEMPLATES}/teams.html",
        {
            "tournament": tournament,
            "form": form,
            "entries": _entries(tournament).filter(team__isnull=False),
            "has_doubles": tournament.categories.filter(kind=Category.Kind.DOUBLES).exists(),
        },
        status=400 if form.errors else 200,
    )


# Check-in and withdrawals -----------------------------------------------------------------------


@organizer_page
def checkin(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every entry with a check-in toggle; the search box narrows the list as one types."""
    q = request.GET.get("q", "").strip()
    category_id = request.GET.get("category", "")
    entries = _search(_entries(tournament), q)
    if category_id.isdigit():
        entries = entries.filter(category_id=int(category_id))
    context = {
        "tournament": tournament,
        "entries": entries,
        "q": q,
        "category_id": category_id,
        "categories": tournament.categories.order_by("name"),
        "checkin": _checkin_summary(tournament),
        "back": request.get_full_path(),
        "with_summary": True,
    }
    if request.htmx and request.htmx.target == "checkin-rows":
        return render(request, f"{TEMPLATES}/_checkin_rows.html", context)
    return render(request, f"{TEMPLATES}/checkin.html", context)


def _entry_of(tournament: Tournament, entry_id: int) -> Entry:
    return get_object_or_404(_entries(tournament), pk=entry_id)


def _entry_row(
    request: HttpRequest, tournament: Tournament, entry: Entry, error: str = ""
) -> HttpResponse:
    """The entry's table row for htmx; from the check-in page (``summary=1``), with the fresh
    count for the top of the page as an out-of-band swap.

    The count comes in the same response as the row, counted after this toggle was saved:
    a second request to refresh it could be answered before a later click's toggle, or
    after it, and leave the count behind.
    """
    with_summary = request.POST.get("summary") == "1"
    context = {
        "tournament": tournament,
        "entry": entry,
        "row_error": error,
        "back": _safe_next(request, ""),
        "with_summary": with_summary,
    }
    if with_summary:
        context["checkin"] = _checkin_summary(tournament)
    return render(request, f"{TEMPLATES}/_checkin_row_response.html", context)


@require_POST
@organizer_page
def entry_checkin(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Toggle an entry's check-in; an htmx request gets its table row back."""
    entry = _entry_of(tournament, entry_id)
    error = ""
    try:
        registration.set_checked_in(entry=entry, checked_in=request.POST.get("checked_in") == "1")
    except ValidationError as exc:
        error = _error_text(exc)
    if request.htmx:
        return _entry_row(request, tournament, entry, error)
    if error:
        messages.error(request, error)
    return redirect(
        _safe_next(request, reverse("tournaments:manage-checkin", args=[tournament.slug]))
    )


@require_POST
@organizer_page
def entry_withdraw(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Withdraw an entry (``withdrawn=1``) or reinstate it (``withdrawn=0``)."""
    entry = _entry_of(tournament, entry_id)
    withdrawn = request.POST.get("withdrawn", "1") == "1"
    registration.set_withdrawn(entry=entry, withdrawn=withdrawn)
    if request.htmx:
        return _entry_row(request, tournament, entry)
    messages.success(request, f"{entry.name} {'withdrawn' if withdrawn else 'reinstated'}.")
    default = reverse("tournaments:manage-category", args=[tournament.slug, entry.category_id])
    return redirect(_safe_next(request, default))


# Boards -----------------------------------------------------------------------------------------


@organizer_page
def boards(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """How many boards the hall has, and which are out of service."""
    form = BoardCountForm(request.POST or None, initial={"count": tournament.boards.count()})
    if request.method == "POST" and form.is_valid():
        try:
            registration.set_board_count(tournament=tournament, count=form.cleaned_data["count"])
        except ValidationError as exc:
            _form_errors_from(form, exc)
        else:
            messages.success(request, f"The hall has {form.cleaned_data['count']} boards.")
            return redirect("tournaments:manage-boards", tournament.slug)
    return render(
        request,
        f"{TEMPLATES}/boards.html",
        {"tournament": tournament, "form": form, "boards": tournament.boards.order_by("number")},
        status=400 if form.errors else 200,
    )


@require_POST
@organizer_page
def board_service(request: HttpRequest, tournament: Tournament, board_id: int) -> HttpResponse:
    """Take a board out of service or back (with an optional note why)."""
    board = get_object_or_404(Board, pk=board_id, tournament=tournament)
    registration.set_board_in_service(
        board=board,
        in_service=request.POST.get("in_service") == "1",
        note=request.POST.get("note"),
    )
    if request.htmx:
        return render(
            request, f"{TEMPLATES}/_board_row.html", {"tournament": tournament, "board": board}
        )
    return redirect("tournaments:manage-boards", tournament.slug)
