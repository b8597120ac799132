"""Who may do what at a tournament, as ``rules`` predicates and permissions.

Roles are per tournament (``TournamentRole``); a player acts through ``Player.user``. The public
needs no permission: every public page is readable by anyone. Each object a permission is asked
about (a tournament, category, stage, match, game, card or card row) leads to its tournament.
"""

import rules
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from tournaments.models import Entry, Game, TournamentRole, played_by
from tournaments.private_links import linked_entry_ids

Role = TournamentRole.Role


def tournament_of(obj) -> object | None:
    """Walk from any tournament object up to its tournament."""
    for path in (
        (),
        ("tournament",),
        ("category", "tournament"),
        ("stage", "category", "tournament"),
        ("match", "stage", "category", "tournament"),
        ("card", "stage", "category", "tournament"),
    ):
        target = obj
        try:
            for attr in path:
                target = getattr(target, attr)
        except AttributeError:
            continue
        if target.__class__.__name__ == "Tournament":
            return target
    return None


def has_role(*roles: str):
    names = "_or_".join(r.replace("-", "_") for r in roles)

    @rules.predicate(name=f"has_role_{names}")
    def predicate(user, obj) -> bool:
        if not user.is_authenticated or obj is None:
            return False
        if user.is_superuser:
            return True
        tournament = tournament_of(obj)
        cache = getattr(user, "_tournament_roles", None)
        if cache is None:
            cache = {}
            user._tournament_roles = cache
        if tournament.pk not in cache:
            cache[tournament.pk] = set(
                TournamentRole.objects.filter(user=user, tournament=tournament).values_list(
                    "role", flat=True
                )
            )
        return bool(cache[tournament.pk] & set(roles))

    return predicate


#: A co-organizer has every permission of the organizer (the staff page gives the role).
is_organizer = has_role(Role.ORGANIZER, Role.CO_ORGANIZER)
#: The organizer role itself, which stays with whoever created (or imported) the tournament and
#: is never given on the staff page: what only the tournament's owner may do.
is_the_organizer = has_role(Role.ORGANIZER)
is_head_referee = has_role(Role.HEAD_REFEREE)
is_referee = has_role(Role.REFEREE, Role.HEAD_REFEREE)
is_scoring_table = has_role(Role.SCORING_TABLE)
is_official = has_role(
    Role.ORGANIZER, Role.CO_ORGANIZER, Role.HEAD_REFEREE, Role.REFEREE, Role.SCORING_TABLE
)


def played_entry_ids(user) -> frozenset[int]:
    """The entries ``user`` plays for, in any tournament: as the player of a singles entry or
    either partner of a team, on their login, or through a private link this browser holds.

    This is the one answer to "does this person play in that game" that every conflict-of-
    interest check asks (``scoring.permissions.plays_in`` and the entry rulings below): staff at
    a club night often play too, and nobody rules on their own game. The login's part is read
    once per user object (one query a request, as the roles are); the links' part is
    ``tournaments.private_links``'s, kept current per request.
    """
    linked = linked_entry_ids(user)
    if not user.is_authenticated:
        return linked
    cached = getattr(user, "_played_entry_ids", None)
    if cached is None:
        cached = frozenset(Entry.objects.filter(played_by(user)).values_list("pk", flat=True))
        user._played_entry_ids = cached
    return cached | linked


@rules.predicate
def is_own_entry(user, entry) -> bool:
    """``entry`` is one ``user`` plays for (see :func:`played_entry_ids`)."""
    return isinstance(entry, Entry) and entry.pk in played_entry_ids(user)


def _open_game_against(user, entry: Entry) -> Game | None:
    """A game of ``entry`` against an entry ``user`` plays for that withdrawing ``entry`` would
    make a walkover, or reinstating it would give back to play: no official rounds, and no
    forfeit other than a withdrawal's walkover. Three-player games are played on by the two
    others, so they are left out."""
    mine = played_entry_ids(user) - {entry.pk}
    if not mine:
        return None
    Kind = Game.ForfeitKind
    return (
        Game.objects.filter(
            Q(match__entry_a=entry) | Q(match__entry_b=entry),
            Q(match__entry_a_id__in=mine) | Q(match__entry_b_id__in=mine),
            match__entry_c__isnull=True,
            match__stage__category_id=entry.category_id,
            rounds__isnull=True,
        )
        .filter(Q(forfeited_by="") | Q(forfeit_kind__in=[Kind.WITHDRAWAL, Kind.DISQUALIFICATION]))
        .select_related("match__entry_a", "match__entry_b")
        .order_by("match__round_of_play", "number")
        .first()
    )


@rules.predicate
def meets_entry(user, entry) -> bool:
    """``user`` plays for an opponent of ``entry`` in a game a withdrawal (or reinstatement) of
    ``entry`` would decide (see :func:`_open_game_against`)."""
    return isinstance(entry, Entry) and _open_game_against(user, entry) is not None


rules.add_perm("tournaments.manage_tournament", is_organizer)
rules.add_perm("tournaments.view_official_pages", is_official)
# The staff page: giving and taking back roles, creating staff accounts, and letting a user
# create tournaments of their own (the site permission below).
rules.add_perm("tournaments.manage_staff", is_organizer)
# Deleting the tournament and everything played in it: its organizer's alone. A co-organizer
# runs the event with every other permission, but the event is not theirs to remove.
rules.add_perm("tournaments.delete_tournament", is_the_organizer)

#: The site permission to create tournaments: Django's model permission, held per user (not per
#: tournament), given by a superuser or by an organizer of any tournament on its staff page.
ADD_TOURNAMENT = "tournaments.add_tournament"
#: The organizer pages' permission (organizers and co-organizers), and the staff page's.
MANAGE_TOURNAMENT = "tournaments.manage_tournament"
MANAGE_STAFF = "tournaments.manage_staff"
ADD_TOURNAMENT_REFUSAL = gettext_lazy(
    "Creating a tournament needs the permission “may create tournaments”: ask a superuser, or "
    "the organizer of any tournament, to give it to your login on their staff page."
)

# The round clock (start, pause, resume, reset, its duration): whoever runs the hall during play.
# WCC: "A buzzer will be used to begin and end play."; players only watch it.
rules.add_perm("tournaments.run_clock", is_official)

# Withdrawals after the draw turn the entry's remaining games into walkovers: withdrawing is the
# organizers' (they run the entries), disqualifying the head referee's (WCC: "possible
# disqualification from the tournament" for a breach of the rules). Organizers may disqualify
# too: they run the event, and some events have no head referee with a login of their own.
#
# Nobody rules on a game they play in (see ``played_entry_ids``): disqualifying one's own entry,
# or withdrawing or disqualifying (or reinstating) an opponent one still has a game to play
# against, which the walkovers would decide, is another official's. Withdrawing one's own entry
# (and taking that withdrawal back) stays allowed: it is the player's own choice to leave, and
# its walkovers go against them, never in their favour.
# Calls to a phone ("your match is on board 7"): the entry's own players follow them, on their
# login or the entry's private link; nobody else, staff included (a call is the player's own).
FOLLOW_CALLS = "tournaments.follow_calls"
rules.add_perm(FOLLOW_CALLS, is_own_entry)

rules.add_perm("tournaments.withdraw_entry", is_organizer & ~meets_entry)
rules.add_perm(
    "tournaments.disqualify_entry", (is_organizer | is_head_referee) & ~is_own_entry & ~meets_entry
)


@rules.predicate
def may_take_back(user, entry) -> bool:
    """Taking back a withdrawal is for whoever may record its kind: a withdrawal the organizers'
    (``withdraw_entry``), a disqualification the head referee's too (``disqualify_entry``)."""
    if not isinstance(entry, Entry):
        return False
    kind = entry.withdrawal_kind or Entry.WithdrawalKind.WITHDRAWAL
    if kind == Entry.WithdrawalKind.DISQUALIFICATION:
        return user.has_perm("tournaments.disqualify_entry", entry)
    return user.has_perm("tournaments.withdraw_entry", entry)


rules.add_perm("tournaments.reinstate_entry", may_take_back)

#: The staff predicate of each entry ruling, before the conflict of interest is taken out (so
#: that a refusal can tell "not your role" from "your own game").
ENTRY_RULINGS = {
    "tournaments.withdraw_entry": is_organizer,
    "tournaments.disqualify_entry": is_organizer | is_head_referee,
}


def entry_conflict_refusal(user, perm: str, entry: Entry) -> str | None:
    """Why ``user``, who holds the staff role ``perm`` needs, may still not act on ``entry``:
    their own entry, or an opponent whose walkovers would decide a game they play. None when
    there is no such conflict (``user`` may act, or lacks the role: the usual refusal says who
    may)."""
    staff = ENTRY_RULINGS.get(perm)
    if staff is None or user.has_perm(perm, entry) or not staff.test(user, entry):
        return None
    if is_own_entry.test(user, entry):
        return gettext("%(entry)s is your own entry: another official must rule on it.") % {
            "entry": entry.name
        }
    game = _open_game_against(user, entry)
    if game is None:
        return None
    return gettext(
        "You play %(entry)s in %(match)s, a game this would decide: another official must do it."
    ) % {"entry": entry.name, "match": game.match}


# The site's record (the registry of people, imports of past results, the ranking) ----------------


@rules.predicate
def is_record_keeper(user) -> bool:
    """The site's record keepers: its staff accounts (``is_staff``, given in the admin). The
    registry and the record are the site's, not any tournament's: no tournament role reaches
    them, so another event's organizer cannot rename, merge or import over someone's record."""
    return bool(user.is_authenticated and (user.is_staff or user.is_superuser))


#: Edit any person, merge duplicates, import past results, recompute the ranking.
MANAGE_RECORD = "tournaments.manage_record"
rules.add_perm(MANAGE_RECORD, is_record_keeper)
