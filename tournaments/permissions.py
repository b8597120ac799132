"""Who may do what at a tournament, as ``rules`` predicates and permissions.

Roles are per tournament (``TournamentRole``); a player acts through ``Player.user``. The public
needs no permission: every public page is readable by anyone. Each object a permission is asked
about (a tournament, category, stage, match, game, card or card row) leads to its tournament.
"""

import rules
from django.utils.translation import gettext_lazy

from tournaments.models import TournamentRole

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
is_head_referee = has_role(Role.HEAD_REFEREE)
is_referee = has_role(Role.REFEREE, Role.HEAD_REFEREE)
is_scoring_table = has_role(Role.SCORING_TABLE)
is_official = has_role(
    Role.ORGANIZER, Role.CO_ORGANIZER, Role.HEAD_REFEREE, Role.REFEREE, Role.SCORING_TABLE
)

rules.add_perm("tournaments.manage_tournament", is_organizer)
rules.add_perm("tournaments.view_official_pages", is_official)
# The staff page: giving and taking back roles, creating staff accounts, and letting a user
# create tournaments of their own (the site permission below).
rules.add_perm("tournaments.manage_staff", is_organizer)

#: The site permission to create tournaments: Django's model permission, held per user (not per
#: tournament), given by a superuser or by an organizer of any tournament on its staff page.
ADD_TOURNAMENT = "tournaments.add_tournament"
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
rules.add_perm("tournaments.withdraw_entry", is_organizer)
rules.add_perm("tournaments.disqualify_entry", is_organizer | is_head_referee)
