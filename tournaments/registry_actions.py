"""The registry's steps, each declared once (``tournaments.actions``): adding a person, correcting
one, merging duplicates, claiming one's own person ("This is me"), choosing what the public sees,
and linking (or unlinking) a tournament's player to a person.

Who may, and why the registry is not any tournament's:

- the site's record keepers (``MANAGE_RECORD``: staff accounts) add, correct and merge anyone;
- a person who claimed their record (their account) corrects their own details and chooses what
  the public sees;
- a tournament's organizers correct an unclaimed person who plays at their tournament, but not
  their name or ID number once they also play elsewhere: other events' results rest on it. They
  link and unlink their own tournament's players (``MANAGE_TOURNAMENT`` on the player);
- a player claims the person of their own player, logged in as that player's account or holding
  their singles entry's private link while logged in (a claim is kept on an account; a doubles
  link is the pair's, so it cannot tell which of the two is claiming).

The registry pages and the API (``/people/``, ``/api/people/``) take these steps; the services
(``services.registry``) check the data.
"""

from __future__ import annotations

from typing import Any

import rules
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from tournaments.actions import Action, Forbidden
from tournaments.models import Entry, Player, TournamentRole
from tournaments.models.registry import Person
from tournaments.permissions import MANAGE_RECORD, MANAGE_TOURNAMENT, is_record_keeper
from tournaments.private_links import linked_entry_ids
from tournaments.services import registry

__all__ = [
    "PERSON_FIELDS",
    "add_person",
    "claim_person",
    "edit_person",
    "link_person",
    "merge_people",
    "set_person_visibility",
    "unlink_person",
]

#: A person's details, as the registry's form and the API's serializer take them.
PERSON_FIELDS = (
    "first_name",
    "last_name",
    "id_number",
    "federation",
    "club",
    "country",
    "discipline",
)
ORGANIZER_ROLES = (TournamentRole.Role.ORGANIZER, TournamentRole.Role.CO_ORGANIZER)

CLAIM_PERSON = "tournaments.claim_person"
EDIT_PERSON = "tournaments.edit_person"
SPEAK_FOR_PERSON = "tournaments.speak_for_person"


# Predicates -------------------------------------------------------------------------------------


def own_players(user, person: Person):
    """The players of ``person`` that ``user`` is: their login's, or the player of a singles
    entry whose private link this browser holds."""
    found = Q(user=user) if user.is_authenticated else Q(pk__in=[])
    linked = linked_entry_ids(user)
    if linked:
        found |= Q(
            pk__in=Entry.objects.filter(pk__in=linked, player__isnull=False).values("player_id")
        )
    return Player.objects.filter(found, person=person)


@rules.predicate
def plays_as(user, person) -> bool:
    """``user`` is logged in and is one of ``person``'s players (login or private link)."""
    if not isinstance(person, Person) or not user.is_authenticated:
        return False
    return own_players(user, person).exists()


@rules.predicate
def claimed_by(user, person) -> bool:
    """``person`` was claimed by ``user``'s account."""
    return isinstance(person, Person) and user.is_authenticated and person.user_id == user.pk


@rules.predicate
def organizes_where_unclaimed_plays(user, person) -> bool:
    """``person`` is unclaimed and plays at a tournament ``user`` organizes (or co-organizes)."""
    if not isinstance(person, Person) or not user.is_authenticated or person.user_id:
        return False
    return TournamentRole.objects.filter(
        user=user, role__in=ORGANIZER_ROLES, tournament__players__person=person
    ).exists()


rules.add_perm(CLAIM_PERSON, plays_as)
rules.add_perm(EDIT_PERSON, is_record_keeper | claimed_by | organizes_where_unclaimed_plays)
rules.add_perm(SPEAK_FOR_PERSON, is_record_keeper | claimed_by)


def elsewhere(user, person: Person) -> list[str]:
    """The tournaments ``person`` plays at that ``user`` does not organize (names)."""
    mine = TournamentRole.objects.filter(user=user, role__in=ORGANIZER_ROLES).values(
        "tournament_id"
    )
    return sorted(
        set(
            Player.objects.filter(person=person)
            .exclude(tournament_id__in=mine)
            .values_list("tournament__name", flat=True)
        )
    )


def identity_refusal(user, person: Person, fields: dict[str, Any]) -> Forbidden | None:
    """An organizer changing the name or ID number of a person who also plays at tournaments
    not theirs: refused in words (they may still link or unlink their own players)."""
    if user.has_perm(SPEAK_FOR_PERSON, person):
        return None
    changed = sorted(
        name
        for name in registry.IDENTITY_FIELDS & set(fields)
        if (fields[name] or "").strip() != getattr(person, name)
    )
    if not changed:
        return None
    others = elsewhere(user, person)
    if not others:
        return None
    return Forbidden(
        gettext(
            "%(person)s also plays at %(tournaments)s: only the site's record keepers, or "
            "%(person)s once they claim their person, may change their name or ID number. "
            "You may link or unlink your own tournament's players."
        )
        % {"person": person, "tournaments": ", ".join(others)},
        field=changed[0],
    )


def claim_refusal_words(user, perm: str, person) -> str | None:
    """Why a claim is refused: not logged in, or not this person's player."""
    if not user.is_authenticated:
        return gettext(
            "Log in (or create an account) first, then say “This is me”: a claim is kept on "
            "an account."
        )
    return None


def unclaimed(person: Person):
    if person.user_id is None:
        return None
    return gettext(
        "%(person)s was already claimed by an account; if that is wrong, ask the site's record "
        "keepers."
    ) % {"person": person}


def not_merged(person: Person):
    if person.merged_into_id is None:
        return None
    return gettext("%(person)s was merged into %(kept)s: use that person instead.") % {
        "person": person,
        "kept": registry.kept(person),
    }


# Steps --------------------------------------------------------------------------------------------


def _add(user: AbstractBaseUser, obj: Any, **fields: Any) -> Person:
    return registry.create_person(by=user, **fields)


def _edit(user: AbstractBaseUser, person: Person, **fields: Any) -> Person:
    refused = identity_refusal(user, person, fields)
    if refused is not None:
        raise refused
    return registry.update_person(person=person, by=user, **fields)


def _merge(user: AbstractBaseUser, keep: Person, *, duplicate: Person) -> Person:
    return registry.merge_people(keep=keep, duplicate=duplicate, by=user)


def _claim(user: AbstractBaseUser, person: Person) -> Person:
    return registry.claim_person(person=person, user=user)


def _visibility(user: AbstractBaseUser, person: Person, *, visibility: str) -> Person:
    return registry.set_visibility(person=person, visibility=visibility, user=user)


def _link(user: AbstractBaseUser, player: Player, *, person: Person | None) -> Player:
    return registry.register_person_for(player=player, person=person, by=user)


def _unlink(user: AbstractBaseUser, player: Player) -> Player:
    return registry.unlink_player(player=player, by=user)


RECORD_KEEPERS = gettext_lazy("Only the site's record keepers (its staff accounts) may do this.")

add_person = Action(
    name="tournaments.add_person",
    permission=MANAGE_RECORD,
    who=gettext_lazy(
        "Only the site's record keepers add people to the registry directly; organizers add "
        "them by registering players."
    ),
    fields=PERSON_FIELDS,
    run=_add,
    form="tournaments.registry_forms.PersonForm",
)

edit_person = Action(
    name="tournaments.edit_person",
    permission=EDIT_PERSON,
    who=gettext_lazy(
        "Only the site's record keepers, the person themselves once they claimed their person, "
        "or the organizers of a tournament they play at (while unclaimed) may change a person."
    ),
    when=(not_merged,),
    fields=PERSON_FIELDS,
    run=_edit,
    form="tournaments.registry_forms.PersonForm",
)

merge_people = Action(
    name="tournaments.merge_people",
    permission=MANAGE_RECORD,
    who=gettext_lazy("Only the site's record keepers (its staff accounts) merge people."),
    when=(not_merged,),
    fields=("duplicate",),
    run=_merge,
)

claim_person = Action(
    name="tournaments.claim_person",
    permission=CLAIM_PERSON,
    who=gettext_lazy(
        "Only the player themselves claims their person: on their own login, or with their "
        "private link while logged in."
    ),
    denied=claim_refusal_words,
    when=(not_merged, unclaimed),
    run=_claim,
)

set_person_visibility = Action(
    name="tournaments.set_person_visibility",
    permission=SPEAK_FOR_PERSON,
    who=gettext_lazy(
        "Only the person themselves, once they claimed their person, or the site's record "
        "keepers choose what the public sees of them."
    ),
    when=(not_merged,),
    fields=("visibility",),
    run=_visibility,
)

link_person = Action(
    name="tournaments.link_person",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers link its players to the registry."),
    fields=("person",),
    run=_link,
)

unlink_person = Action(
    name="tournaments.unlink_person",
    permission=MANAGE_TOURNAMENT,
    who=gettext_lazy("Only the tournament's organizers link its players to the registry."),
    run=_unlink,
)
