"""Withdrawals and disqualifications after the draw: the entry's remaining games become walkovers.

WCC Tournament Rules: "Careless or deliberate contravention of the rules may result in the
forfeiture of a round or a game and possible disqualification from the tournament." An entry
that withdraws (or is disqualified) after the draw leaves its opponents at the board with nobody
to play, so each game of its matches that has no official result yet becomes a walkover against
it: no rounds, the side present credited what a bye is worth under the category's scoring
system (``scoring.results.rules.unplayed_game``; what a walkover adds up to is read by
``scoring.results.outcomes``). Games already played stay as played. Nothing here knows results
beyond "has official rounds"; the knockout matches a walkover decides are opened by
``scoring.rulings.services``, which calls these functions.

Reinstating the entry takes its walkovers back, unless their result was already used: the next
stage drawn from the standings, the next knockout match or Swiss round drawn from the winner.

The steps that call these functions (``scoring.rulings.actions``) read their preconditions here
(:func:`not_withdrawn`, :func:`is_withdrawn`, :func:`walkovers_unused`) and their refusal of the
permission (:func:`permission_refusal`); the functions ask them again under the entry's lock.
Every refusal is a ``tournaments.actions.Refused``, with its kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.actions import Forbidden, Refused
from tournaments.actions import Kind as Refusal
from tournaments.models import ENTRY_PEOPLE, Entry, Game, Match, Pool, Round, Stage, people_paths
from tournaments.permissions import entry_conflict_refusal
from tournaments.services.game_locks import lock_games

Kind = Entry.WithdrawalKind
Side = Game.Side

#: The permission each kind needs (``tournaments.permissions``), and who holds it, in words.
PERMISSIONS = {
    Kind.WITHDRAWAL: ("tournaments.withdraw_entry", gettext_lazy("the tournament's organizers")),
    Kind.DISQUALIFICATION: (
        "tournaments.disqualify_entry",
        gettext_lazy("the head referee or the tournament's organizers"),
    ),
}
#: The reason is stored and printed on cards; a long text belongs in the event's report.
REASON_MAX = 300


@dataclass(frozen=True)
class WithdrawalPlan:
    """What withdrawing the entry now would do: ``walkovers`` become walkovers against it (no
    official result yet); ``kept`` are its games that have one and stay as played;
    ``three_player`` are games of three-player matches, which the two others play on."""

    entry: Entry
    walkovers: list[Game]
    kept: list[Game]
    three_player: list[Game]


def check_kind(kind: str) -> Kind:
    """``kind`` as a withdrawal kind, or a refusal that names the choices."""
    if kind not in Kind.values:
        raise Refused(
            _("“%(kind)s” is not a kind of withdrawal: choose withdrawal or disqualification.")
            % {"kind": kind},
            field="kind",
        )
    return Kind(kind)


def permission_of(entry: Entry) -> str:
    """The permission that takes back ``entry``'s withdrawal: the one its kind needed."""
    return PERMISSIONS[Kind(entry.withdrawal_kind or Kind.WITHDRAWAL)][0]


def permission_refusal(user: AbstractBaseUser, entry: Entry, kind: str) -> str | None:
    """Why ``user`` may not record (or take back) a ``kind`` of withdrawal for ``entry``, in
    words: their own entry or a game they play (``tournaments.permissions``), else who may; None
    when they may."""
    perm, _who = PERMISSIONS[Kind(kind)]
    if user.has_perm(perm, entry):
        return None
    conflict = entry_conflict_refusal(user, perm, entry)
    if conflict:  # the role, but their own entry or a game they play (see the permission)
        return conflict
    if kind == Kind.WITHDRAWAL:
        return _("Only the tournament's organizers may withdraw an entry or reinstate it.")
    return _(
        "Only the head referee or the tournament's organizers may disqualify an entry or "
        "reinstate it."
    )


def check_permission(user: AbstractBaseUser | None, entry: Entry, kind: str) -> None:
    """Only the organizers withdraw an entry; the head referee (or an organizer) disqualifies
    one, and never their own entry nor an opponent whose walkovers would decide a game they play
    (``tournaments.permissions``). Without ``user`` (the loader, a data import) nothing is
    checked."""
    if user is None:
        return
    refusal = permission_refusal(user, entry, kind)
    if refusal:
        raise Forbidden(refusal)


# Preconditions: each the words of its refusal, or None ---------------------------------------


def not_withdrawn(entry: Entry) -> Refused | None:
    """A withdrawal (or disqualification) is recorded once: changing it is reinstating first."""
    if not entry.withdrawn:
        return None
    if entry.withdrawal_kind == Kind.DISQUALIFICATION:
        words = _("%(entry)s was disqualified already; reinstate the entry first to change that.")
    else:
        words = _("%(entry)s has withdrawn already; reinstate the entry first to change that.")
    return Refused(words % {"entry": entry.name}, kind=Refusal.CONFLICT)


def is_withdrawn(entry: Entry) -> Refused | None:
    """Only a withdrawn (or disqualified) entry is reinstated."""
    if entry.withdrawn:
        return None
    return Refused(
        _("%(entry)s has not withdrawn; there is nothing to reinstate.") % {"entry": entry.name},
        kind=Refusal.CONFLICT,
    )


def walkovers_unused(entry: Entry) -> Refused | None:
    """A walkover whose result a later draw used stays (see :func:`result_used`): reinstating
    the entry would change what that draw was made from."""
    for game in walkovers_against(entry):
        because = _("%(entry)s's walkover in %(match)s") % {
            "entry": entry.name,
            "match": game.match,
        }
        used = result_used(game.match, because=because)
        if used:
            return Refused(
                _("%(entry)s cannot be reinstated: %(reason)s")
                % {"entry": entry.name, "reason": used},
                kind=Refusal.CONFLICT,
            )
    return None


def _refuse(found: Refused | None) -> None:
    if found is not None:
        raise found


def _entry_matches(entry: Entry) -> Q:
    return Q(match__entry_a=entry) | Q(match__entry_b=entry) | Q(match__entry_c=entry)


def _lock_entry_games(entry: Entry) -> None:
    """The entry's games, locked before anything is read of them (``lock_games``): a row
    validated at the same moment either lands first, and its game keeps its result, or waits."""
    lock_games(
        Game.objects.filter(
            _entry_matches(entry), match__stage__category_id=entry.category_id
        ).values_list("pk", flat=True)
    )


def withdrawal_plan(entry: Entry) -> WithdrawalPlan:
    """The entry's games in every stage of its category, sorted into what a withdrawal would do
    with them (one query)."""
    games = (
        Game.objects.filter(_entry_matches(entry), match__stage__category_id=entry.category_id)
        .select_related(
            "match__stage",
            "match__board",
            *people_paths("match__entry_a", "match__entry_b", "match__entry_c"),
        )
        .annotate(has_rounds=Exists(Round.objects.filter(game=OuterRef("pk"))))
        .order_by("match__stage__order", "match__round_of_play", "match_id", "number")
    )
    walkovers, kept, three = [], [], []
    for game in games:
        if game.match.entry_c_id is not None:
            three.append(game)
        elif game.has_rounds or game.forfeited_by:
            kept.append(game)
        else:
            walkovers.append(game)
    return WithdrawalPlan(entry=entry, walkovers=walkovers, kept=kept, three_player=three)


def _side_of(game: Game, entry: Entry) -> str:
    return Side.A if game.match.entry_a_id == entry.id else Side.B


def check_reason_length(reason: str) -> None:
    """A ruling's reason is printed on the cards: refused past :data:`REASON_MAX` characters
    (the one wording, for withdrawals and the head referee's forfeits alike)."""
    if len(reason) > REASON_MAX:
        raise Refused(
            _("Keep the reason to %(max)s characters (it is printed on cards).")
            % {"max": REASON_MAX},
            field="reason",
        )


def _clean_reason(reason: str, kind: str, entry: Entry) -> str:
    reason = (reason or "").strip()
    if kind == Kind.DISQUALIFICATION and not reason:
        raise Refused(
            _("Say why %(entry)s is disqualified (the rule that was broken).")
            % {"entry": entry.name},
            field="reason",
        )
    check_reason_length(reason)
    return reason


@transaction.atomic
def withdraw_entry(
    *,
    entry: Entry,
    kind: str = Kind.WITHDRAWAL,
    reason: str = "",
    user: AbstractBaseUser | None = None,
) -> list[Game]:
    """Withdraw or disqualify ``entry``: it is left out of every draw from now on, and each of
    its games without an official result becomes a walkover against it. Returns those games.

    A disqualification needs its reason. Refused (``Refused``, a conflict) for an entry
    already withdrawn (:func:`not_withdrawn`); ``Forbidden`` when ``user`` may not (see
    :func:`check_permission`).
    """
    kind = check_kind(kind)
    check_permission(user, entry, kind)
    _lock_entry_games(entry)
    locked = Entry.objects.select_related(*ENTRY_PEOPLE).select_for_update(of=("self",))
    locked = locked.get(pk=entry.pk)
    _refuse(not_withdrawn(locked))
    reason = _clean_reason(reason, kind, entry)
    plan = withdrawal_plan(entry)
    now = timezone.now()
    who = user if user is not None and user.is_authenticated else None
    note = _("%(kind)s of %(entry)s") % {"kind": kind.label, "entry": entry.name}
    if reason:
        note = f"{note}: {reason}"
    games = []
    for game in plan.walkovers:
        game.forfeited_by = _side_of(game, entry)
        game.forfeit_kind = kind.value
        game.forfeit_reason = reason
        game.forfeited_at = now
        game.forfeit_ruled_by = who
        game._change_reason = _("walkover: %(note)s") % {"note": note}
        game.save()
        games.append(game)
    entry.withdrawn = True
    entry.checked_in = False
    entry.withdrawal_kind = kind.value
    entry.withdrawal_reason = reason
    entry._change_reason = note
    entry.save(update_fields=["withdrawn", "checked_in", "withdrawal_kind", "withdrawal_reason"])
    return games


def walkovers_against(entry: Entry) -> list[Game]:
    """The walkovers the entry's withdrawal or disqualification made (one query)."""
    side_a = Q(match__entry_a=entry, forfeited_by=Side.A)
    side_b = Q(match__entry_b=entry, forfeited_by=Side.B)
    return list(
        Game.objects.filter(side_a | side_b)
        .filter(forfeit_kind__in=[Kind.WITHDRAWAL, Kind.DISQUALIFICATION])
        .select_related("match__stage__category", "match__entry_a", "match__entry_b")
        .order_by("match__stage__order", "match__round_of_play", "number")
    )


@transaction.atomic
def reinstate_entry(*, entry: Entry, user: AbstractBaseUser | None = None) -> list[Game]:
    """Take back a withdrawal or a disqualification: the entry may be checked in and drawn
    again, and its walkovers become games to play. Returns those games.

    Refused (nothing changed) for an entry that is not withdrawn (:func:`is_withdrawn`) and
    when a walkover's result has been used since (:func:`walkovers_unused`).
    """
    _lock_entry_games(entry)
    locked = Entry.objects.select_related(*ENTRY_PEOPLE).select_for_update(of=("self",))
    locked = locked.get(pk=entry.pk)
    _refuse(is_withdrawn(locked))
    check_permission(user, entry, locked.withdrawal_kind or Kind.WITHDRAWAL)
    _refuse(walkovers_unused(locked))
    games = walkovers_against(entry)
    for game in games:
        if game.rounds.exists():  # a walkover never takes rounds; kept should one ever have
            continue
        game.forfeited_by = ""
        game.forfeit_kind = ""
        game.forfeit_reason = ""
        game.forfeited_at = None
        game.forfeit_ruled_by = None
        game._change_reason = _("walkover taken back: %(entry)s reinstated") % {"entry": entry.name}
        game.save()
    entry.withdrawn = False
    entry.withdrawal_kind = ""
    entry.withdrawal_reason = ""
    entry._change_reason = _("reinstated")
    entry.save(update_fields=["withdrawn", "withdrawal_kind", "withdrawal_reason"])
    return games


def result_used(match: Match, *, because: str) -> str:
    """Whether the match's result has been used by a later draw, in words ("" if not): the next
    stage drawn or seeded from the stage's standings; in a knockout, a later match of the
    winner; in a Swiss stage, a later round paired from the standings. ``because`` names what
    would change ("Bob's walkover in Ann v Bob")."""
    stage = match.stage
    later = (
        Stage.objects.filter(category_id=stage.category_id, order__gt=stage.order)
        .exclude(kind=Stage.Kind.SHOOTOUT)
        .order_by("order")
    )
    for following in later:
        drawn = following.matches.exists()
        seeded = Pool.objects.filter(stage=following, entries__isnull=False).exists()
        if drawn or seeded:
            return _(
                "%(change)s counts in the standings of %(stage)s, from which %(next)s is drawn; "
                "undo that draw first."
            ) % {"change": because, "stage": stage.name, "next": following.name}
    entries = [e for e in (match.entry_a_id, match.entry_b_id) if e is not None]
    after = Match.objects.filter(stage=stage, round_of_play__gt=match.round_of_play)
    if stage.kind == Stage.Kind.KNOCKOUT:
        nxt = after.filter(Q(entry_a_id__in=entries) | Q(entry_b_id__in=entries)).first()
        if nxt is not None:
            return _(
                "%(change)s sent the winner on to %(match)s in the bracket; that match has to be "
                "undone first."
            ) % {"change": because, "match": nxt}
    if stage.kind == Stage.Kind.SWISS and after.exists():
        return _("%(change)s counts in the standings that paired round %(round)s of %(stage)s.") % {
            "change": because,
            "round": match.round_of_play + 1,
            "stage": stage.name,
        }
    return ""


def stages_of(games: Iterable[Game]) -> list[Stage]:
    """The stages the games are in, each once, in order."""
    found: dict[int, Stage] = {}
    for game in games:
        found.setdefault(game.match.stage_id, game.match.stage)
    return sorted(found.values(), key=lambda s: s.order)


def describe(games: Sequence[Game]) -> str:
    """How many walkovers, in words: "no game", "1 game", "3 games"."""
    if not games:
        return _("no game")
    return ngettext("%(count)s game", "%(count)s games", len(games)) % {"count": len(games)}
