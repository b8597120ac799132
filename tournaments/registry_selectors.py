"""Reads of the registry: searching people, one person with their players and events, the two
sides of a merge, and what the public may see of each.

The public sees a person's name always (results are published by name); their club, country,
federation ID and profile only while their visibility is "profile". Record keepers, and the
person themselves, see everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from tournaments.models import Player
from tournaments.models.registry import Person, name_key
from tournaments.permissions import MANAGE_RECORD

#: At most this many people in a list or a search's answer.
PAGE_SIZE = 50


def people() -> QuerySet[Person]:
    """The registry as listed: every person not merged into another, with their player count."""
    return Person.objects.filter(merged_into__isnull=True).annotate(
        player_count=Count("players", distinct=True)
    )


def search(q: str = "") -> QuerySet[Person]:
    """People whose name holds every word of ``q`` (accents, case and punctuation ignored), or
    whose federation ID is one of the words, or whose club holds the words."""
    found = people()
    for word in q.split():
        key = name_key(word)
        if not key:
            continue
        found = found.filter(Q(key__contains=key) | Q(id_number=word) | Q(club__icontains=word))
    return found.order_by("last_name", "first_name", "pk")


def shows_details(user, person: Person) -> bool:
    """Whether ``user`` sees more than ``person``'s name: anyone while the person's profile is
    public; otherwise the person themselves and the record keepers."""
    if person.visibility == Person.Visibility.PROFILE:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return person.user_id == user.pk or user.has_perm(MANAGE_RECORD)


@dataclass(frozen=True)
class PublicRow:
    """A person as the public list shows them: the name always, the rest when shown."""

    person: Person
    details: bool
    #: The public profile page, when the person shows it (the view fills it in).
    profile_url: str = ""

    @property
    def club(self) -> str:
        return self.person.club if self.details else ""

    @property
    def country(self) -> str:
        return self.person.country if self.details else ""

    @property
    def federation_id(self) -> str:
        if not self.details or not self.person.id_number:
            return ""
        return " ".join(p for p in (self.person.federation, self.person.id_number) if p)


def public_rows(user, persons) -> list[PublicRow]:
    return [PublicRow(person=p, details=shows_details(user, p)) for p in persons]


def players_of(person: Person) -> list[Player]:
    """The person's players, newest event first, with their tournaments (one query)."""
    return list(
        Player.objects.filter(person=person)
        .select_related("tournament")
        .order_by("-tournament__starts_on", "tournament__name", "pk")
    )


def history_of(person: Person, limit: int = 20) -> list:
    """The person's last changes (who, when, why), newest first."""
    return list(person.history.select_related("history_user").order_by("-history_date")[:limit])


@dataclass(frozen=True)
class MergeSide:
    """One of the two people of a merge, with their players and events."""

    person: Person
    players: list[Player]
    merged: list[Person]


def merge_side(person: Person) -> MergeSide:
    return MergeSide(
        person=person,
        players=players_of(person),
        merged=list(Person.objects.filter(merged_into=person).order_by("pk")),
    )


def own_person_ids(user) -> set[int]:
    """The people of this login's own players (what "This is me" can be offered for)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(
        Player.objects.filter(user=user, person__isnull=False).values_list("person_id", flat=True)
    )
