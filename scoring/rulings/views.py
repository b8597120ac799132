"""The ruling pages: an entry's withdrawal or disqualification (with a confirm step listing the
games that become walkovers) and the head referee's forfeit of a round or a game.

Views stay thin: they read through ``scoring.rulings.selectors``, write through
``scoring.rulings.services`` (the services the API calls, with the same messages) and only
decide what to show whom; every permission comes from the ``rules`` predicates.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.permissions import conflict_refusal
from scoring.rulings import selectors as select
from scoring.rulings import services
from scoring.rulings.forms import ForfeitGameForm, ForfeitRoundForm, WithdrawForm
from tournaments.models import Entry, Game, Tournament
from tournaments.permissions import entry_conflict_refusal
from tournaments.services import forfeits
from tournaments.views.access import refuse, safe_next, tournament_page

TEMPLATES = "scoring/rulings"
Kind = Entry.WithdrawalKind

ENTRY_REFUSAL = gettext_lazy(
    "Only the tournament's organizers withdraw an entry; the head referee (or an organizer) "
    "disqualifies one."
)


def _words(exc: ValidationError) -> str:
    return " ".join(exc.messages)


# Entries --------------------------------------------------------------------------------------


def _kinds(user: Any, entry: Entry) -> list[str]:
    """The kinds of withdrawal ``user`` may record for ``entry``."""
    return [
        kind for kind, (perm, _who) in forfeits.PERMISSIONS.items() if user.has_perm(perm, entry)
    ]


def _entry_refusal(user: Any, entry: Entry, kind: str = "") -> str:
    """Why ``user`` may record no kind of withdrawal for ``entry`` (or not ``kind``, when the
    form or the entry says which): their own entry or a game they play
    (``tournaments.permissions``), else who may."""
    asked = [forfeits.PERMISSIONS[kind]] if kind in forfeits.PERMISSIONS else []
    for perm, _who in asked or forfeits.PERMISSIONS.values():
        conflict = entry_conflict_refusal(user, perm, entry)
        if conflict:
            return conflict
    return str(ENTRY_REFUSAL)


def _entry_of(tournament: Tournament, entry_id: int) -> Entry:
    entry = (
        Entry.objects.filter(pk=entry_id, category__tournament=tournament)
        .select_related("category__tournament", *forfeits.ENTRY_PEOPLE)
        .first()
    )
    if entry is None:
        raise Http404(_("No such entry at this tournament."))
    return entry


def _entry_page(
    request: HttpRequest,
    tournament: Tournament,
    entry: Entry,
    *,
    form: WithdrawForm | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    kinds = _kinds(request.user, entry)
    if form is None:
        wanted = request.GET.get("kind", "")
        initial = {"kind": wanted} if wanted in kinds else {}
        form = WithdrawForm(kinds=kinds, initial=initial)
    may_reinstate = entry.withdrawn and (entry.withdrawal_kind or Kind.WITHDRAWAL) in kinds
    context = {
        "tournament": tournament,
        "entry": entry,
        "plan": None if entry.withdrawn else forfeits.withdrawal_plan(entry),
        "walkovers": forfeits.walkovers_against(entry) if entry.withdrawn else [],
        "form": form,
        "error": error,
        "may_reinstate": may_reinstate,
        "next": safe_next(request, ""),
    }
    return render(request, f"{TEMPLATES}/entry.html", context, status=status)


@require_GET
@tournament_page()
def entry(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """The confirm step: what withdrawing or disqualifying the entry would do (the games that
    become walkovers), with the reason; or, for an entry withdrawn, its walkovers and the way
    back (reinstate)."""
    entry = _entry_of(tournament, entry_id)
    if not _kinds(request.user, entry):
        return refuse(request, _entry_refusal(request.user, entry), tournament)
    return _entry_page(request, tournament, entry)


def _after(request: HttpRequest, tournament: Tournament, entry: Entry) -> HttpResponse:
    default = reverse("scoring:rulings:entry", args=[tournament.slug, entry.id])
    return redirect(safe_next(request, default))


@require_POST
@tournament_page()
def withdraw(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Withdraw or disqualify the entry, as confirmed."""
    entry = _entry_of(tournament, entry_id)
    kinds = _kinds(request.user, entry)
    if not kinds:
        kind = request.POST.get("kind", "")
        return refuse(request, _entry_refusal(request.user, entry, kind), tournament)
    form = WithdrawForm(request.POST, kinds=list(Kind.values))
    if not form.is_valid():
        return _entry_page(
            request, tournament, entry, form=form, error=" ".join(form.messages()), status=400
        )
    try:
        done = services.withdraw(
            entry=entry,
            kind=form.cleaned_data["kind"],
            reason=form.cleaned_data["reason"],
            user=request.user,
        )
    except PermissionDenied as exc:
        return refuse(request, str(exc), tournament)
    except ValidationError as exc:
        return _entry_page(request, tournament, entry, form=form, error=_words(exc), status=400)
    messages.success(request, done.message)
    return _after(request, tournament, entry)


@require_POST
@tournament_page()
def reinstate(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Take back a withdrawal or a disqualification."""
    entry = _entry_of(tournament, entry_id)
    if not _kinds(request.user, entry):
        kind = entry.withdrawal_kind or Kind.WITHDRAWAL
        return refuse(request, _entry_refusal(request.user, entry, kind), tournament)
    try:
        done = services.reinstate(entry=entry, user=request.user)
    except PermissionDenied as exc:
        return refuse(request, str(exc), tournament)
    except ValidationError as exc:
        return _entry_page(request, tournament, entry, error=_words(exc), status=400)
    messages.success(request, done.message)
    return _after(request, tournament, entry)


# Games ----------------------------------------------------------------------------------------


def _game_of(tournament: Tournament, game_id: int) -> Game:
    try:
        return select.game_of(tournament, game_id)
    except Game.DoesNotExist:
        raise Http404(_("No such game at this tournament.")) from None


def _game_page(
    request: HttpRequest,
    tournament: Tournament,
    game: Game,
    *,
    game_form: ForfeitGameForm | None = None,
    round_form: ForfeitRoundForm | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    rulings = select.game_rulings(game)
    may_rule = request.user.has_perm("scoring.forfeit", game.match)
    open_to_rule = may_rule and not game.forfeited_by and game.match.entry_b_id is not None
    three = game.match.entry_c_id is not None
    if open_to_rule and not three:
        game_form = game_form or ForfeitGameForm(game=game)
        if rulings.rounds_forfeitable and rulings.rounds:
            round_form = round_form or ForfeitRoundForm(game=game, rounds=len(rulings.rounds))
    loser = game.forfeiter
    context = {
        "tournament": tournament,
        "game": game,
        "rulings": rulings,
        "may_rule": may_rule,
        # Staff who play in the game are told why no ruling is offered (another official's).
        "own_game": conflict_refusal(request.user, "scoring.forfeit", game.match),
        "game_form": game_form if open_to_rule and not three else None,
        "round_form": round_form if open_to_rule and not three else None,
        "error": error,
        "may_disqualify": [
            e
            for e in game.match.entries
            if not e.withdrawn and request.user.has_perm("tournaments.disqualify_entry", e)
        ],
        "loser": loser,
    }
    return render(request, f"{TEMPLATES}/game.html", context, status=status)


@require_GET
@tournament_page(
    "tournaments.view_official_pages",
    gettext_lazy("A game's rulings page is for the tournament's officials."),
)
def game(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """A game's official result and rulings; the head referee forfeits a round or the game."""
    return _game_page(request, tournament, _game_of(tournament, game_id))


def _game_url(tournament: Tournament, game: Game) -> str:
    return reverse("scoring:rulings:game", args=[tournament.slug, game.id])


@require_POST
@tournament_page()
def forfeit_game(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """The head referee forfeits the game against one side, with the reason."""
    game = _game_of(tournament, game_id)
    if not request.user.has_perm("scoring.forfeit", game.match):
        return refuse(request, services.forfeit_refusal(request.user, game), tournament)
    form = ForfeitGameForm(request.POST, game=game)
    return _rule(
        request,
        tournament,
        game,
        form,
        "game_form",
        lambda data: services.forfeit_game(
            game=game, side=data["side"], reason=data["reason"], user=request.user
        ),
    )


@require_POST
@tournament_page()
def forfeit_round(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """The head referee forfeits one round of the game against one side, with the reason."""
    game = _game_of(tournament, game_id)
    if not request.user.has_perm("scoring.forfeit", game.match):
        return refuse(request, services.forfeit_refusal(request.user, game), tournament)
    rounds = max(len(select.game_rulings(game).rounds), 1)
    form = ForfeitRoundForm(request.POST, game=game, rounds=rounds)
    return _rule(
        request,
        tournament,
        game,
        form,
        "round_form",
        lambda data: services.forfeit_round(
            game=game,
            number=data["round"],
            side=data["side"],
            reason=data["reason"],
            user=request.user,
        ),
    )


def _rule(
    request: HttpRequest, tournament: Tournament, game: Game, form, form_name: str, ruling
) -> HttpResponse:
    """Apply a head referee's ruling from its form: a refused form or ruling stays on the
    game's page with its words (400); a done one goes back with its message."""
    if not form.is_valid():
        error = " ".join(form.messages())
        return _game_page(request, tournament, game, error=error, status=400, **{form_name: form})
    try:
        done = ruling(form.cleaned_data)
    except PermissionDenied as exc:
        return refuse(request, str(exc), tournament)
    except ValidationError as exc:
        return _game_page(
            request, tournament, game, error=_words(exc), status=400, **{form_name: form}
        )
    messages.success(request, done.message)
    return redirect(safe_next(request, _game_url(tournament, game)))


# The list -------------------------------------------------------------------------------------


@require_GET
@tournament_page(
    "tournaments.view_official_pages",
    gettext_lazy("The rulings page is for the tournament's officials."),
)
def index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Every withdrawal, disqualification, walkover and forfeit of the tournament."""
    context = {"tournament": tournament, "rulings": select.tournament_rulings(tournament)}
    return render(request, f"{TEMPLATES}/index.html", context)
