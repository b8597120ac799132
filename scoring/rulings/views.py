"""The ruling pages: an entry's withdrawal or disqualification (with a confirm step listing the
games that become walkovers) and the head referee's forfeit of a round or a game.

Views stay thin: they read through ``scoring.rulings.selectors`` and take the steps of
``scoring.rulings.actions`` (the ones the API takes, with the same words). Whether a form is
offered, and why not, is the steps' answer (``refusal``): the page shows those words where the
form would be.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from scoring.rulings import actions as steps
from scoring.rulings import selectors as select
from scoring.rulings.forms import ForfeitGameForm, ForfeitRoundForm, WithdrawForm
from tournaments.actions import Action, Forbidden, Refused, refusals
from tournaments.models import ENTRY_PEOPLE, Entry, Game, Tournament
from tournaments.services import forfeits
from tournaments.views.access import refuse, safe_next, tournament_page

TEMPLATES = "scoring/rulings"
Kind = Entry.WithdrawalKind


# Entries --------------------------------------------------------------------------------------


def _entry_of(tournament: Tournament, entry_id: int) -> Entry:
    entry = (
        Entry.objects.filter(pk=entry_id, category__tournament=tournament)
        .select_related("category__tournament", *ENTRY_PEOPLE)
        .first()
    )
    if entry is None:
        raise Http404(_("No such entry at this tournament."))
    return entry


def _shut_out(found: dict[str, Refused | None], names: tuple[str, ...]) -> Forbidden | None:
    """The refusal of the role when ``user`` may take none of the steps ``names`` on the entry
    (the last one's words: the widest role, disqualifying, says who may), else None."""
    asked = [found[name] for name in names]
    if all(isinstance(refused, Forbidden) for refused in asked):
        return asked[-1]
    return None


def _page_steps(entry: Entry) -> tuple[str, ...]:
    """The steps the entry's page offers: taking back what was recorded, or recording it."""
    return ("reinstate_entry",) if entry.withdrawn else ("withdraw_entry", "disqualify_entry")


def _entry_page(
    request: HttpRequest,
    tournament: Tournament,
    entry: Entry,
    found: dict[str, Refused | None],
    *,
    form: WithdrawForm | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    kinds = [kind for kind, step in steps.WITHDRAWAL_STEPS.items() if found[_name(step)] is None]
    if form is None:
        wanted = request.GET.get("kind", "")
        initial = {"kind": wanted} if wanted in kinds else {}
        form = WithdrawForm(kinds=kinds, initial=initial)
    context = {
        "tournament": tournament,
        "entry": entry,
        "plan": None if entry.withdrawn else forfeits.withdrawal_plan(entry),
        "walkovers": forfeits.walkovers_against(entry) if entry.withdrawn else [],
        "form": form if kinds else None,
        # The kinds not offered, each with why (a form offering one kind says why not the other).
        "kinds_refused": [
            (label, found[_name(steps.WITHDRAWAL_STEPS[kind])])
            for kind, label in Kind.choices
            if found[_name(steps.WITHDRAWAL_STEPS[kind])] is not None
        ],
        "steps": found,
        "error": error,
        "next": safe_next(request, ""),
    }
    return render(request, f"{TEMPLATES}/entry.html", context, status=status)


def _name(step: Action) -> str:
    return step.name.rsplit(".", 1)[-1]


@require_GET
@tournament_page()
def entry(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """The confirm step: what withdrawing or disqualifying the entry would do (the games that
    become walkovers), with the reason; or, for an entry withdrawn, its walkovers and the way
    back (reinstate)."""
    entry = _entry_of(tournament, entry_id)
    found = refusals(request.user, entry, steps.ENTRY_STEPS)
    shut = _shut_out(found, _page_steps(entry))
    if shut is not None:
        return refuse(request, shut.text, tournament)
    return _entry_page(request, tournament, entry, found)


def _after(request: HttpRequest, tournament: Tournament, entry: Entry) -> HttpResponse:
    default = reverse("scoring:rulings:entry", args=[tournament.slug, entry.id])
    return redirect(safe_next(request, default))


@require_POST
@tournament_page()
def withdraw(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Withdraw or disqualify the entry, as confirmed: the step of the kind chosen."""
    entry = _entry_of(tournament, entry_id)
    form = WithdrawForm(request.POST, kinds=list(Kind.values))
    if not form.is_valid():
        found = refusals(request.user, entry, steps.ENTRY_STEPS)
        shut = _shut_out(found, ("withdraw_entry", "disqualify_entry"))
        if shut is not None:
            return refuse(request, shut.text, tournament)
        error = " ".join(form.messages())
        return _entry_page(request, tournament, entry, found, form=form, error=error, status=400)
    step = steps.WITHDRAWAL_STEPS[form.cleaned_data["kind"]]
    try:
        done = step(request.user, entry, reason=form.cleaned_data["reason"])
    except Forbidden as exc:
        return refuse(request, exc.text, tournament)
    except Refused as exc:
        found = refusals(request.user, entry, steps.ENTRY_STEPS)
        return _entry_page(request, tournament, entry, found, form=form, error=exc.text, status=400)
    messages.success(request, done.message)
    return _after(request, tournament, entry)


@require_POST
@tournament_page()
def reinstate(request: HttpRequest, tournament: Tournament, entry_id: int) -> HttpResponse:
    """Take back a withdrawal or a disqualification."""
    entry = _entry_of(tournament, entry_id)
    try:
        done = steps.reinstate_entry(request.user, entry)
    except Forbidden as exc:
        return refuse(request, exc.text, tournament)
    except Refused as exc:
        found = refusals(request.user, entry, steps.ENTRY_STEPS)
        return _entry_page(request, tournament, entry, found, error=exc.text, status=400)
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
    found = refusals(request.user, game, steps.GAME_STEPS)
    if found["forfeit_game"] is None:
        game_form = game_form or ForfeitGameForm(game=game)
    if found["forfeit_round"] is None:
        round_form = round_form or ForfeitRoundForm(game=game, rounds=len(rulings.rounds))
    context = {
        "tournament": tournament,
        "game": game,
        "rulings": rulings,
        "steps": found,
        "game_form": game_form if found["forfeit_game"] is None else None,
        "round_form": round_form if found["forfeit_round"] is None else None,
        "error": error,
        # Each entry still in, with why it may not be disqualified from here (or None).
        "disqualify": [
            (e, steps.disqualify_entry.refusal(request.user, e))
            for e in game.match.entries
            if not e.withdrawn
        ],
        "loser": game.forfeiter,
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
    form = ForfeitGameForm(request.POST, game=game)
    return _rule(request, tournament, game, steps.forfeit_game, form, "game_form")


@require_POST
@tournament_page()
def forfeit_round(request: HttpRequest, tournament: Tournament, game_id: int) -> HttpResponse:
    """The head referee forfeits one round of the game against one side, with the reason."""
    game = _game_of(tournament, game_id)
    rounds = max(len(select.game_rulings(game).rounds), 1)
    form = ForfeitRoundForm(request.POST, game=game, rounds=rounds)
    return _rule(request, tournament, game, steps.forfeit_round, form, "round_form")


def _rule(
    request: HttpRequest,
    tournament: Tournament,
    game: Game,
    step: Action,
    form: ForfeitGameForm,
    form_name: str,
) -> HttpResponse:
    """Take a head referee's ruling from its form: refused for the role, the 403 page with the
    step's words; a refused form or ruling stays on the game's page with its words (400); a
    done one goes back with its message."""
    forbidden = step.forbidden(request.user, game)
    if forbidden is not None:
        return refuse(request, forbidden.text, tournament)
    if not form.is_valid():
        error = " ".join(form.messages())
        return _game_page(request, tournament, game, error=error, status=400, **{form_name: form})
    try:
        done = step(request.user, game, **form.cleaned_data)
    except Forbidden as exc:
        return refuse(request, exc.text, tournament)
    except Refused as exc:
        return _game_page(
            request, tournament, game, error=exc.text, status=400, **{form_name: form}
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
