"""The registry's steps (``tournaments.registry_actions``): adding and merging people are the
site's record keepers' alone (staff accounts; no tournament role reaches them, so nobody of the
matrix may); correcting an unclaimed person is also the organizers' of a tournament they play
at; claiming a person is their own player's (the owner's login, whatever staff role it holds,
or a login whose browser holds the owner's private link; the link alone is no account); what
the public sees is the claimed person's own choice; linking players is the organizers'."""

from __future__ import annotations

from tournaments.models.registry import Person
from tournaments.services import registry

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})
#: The owner's own login (with or without a staff role).
OWNER_LOGIN = frozenset(
    {
        "owner",
        "organizer-who-plays",
        "head-referee-who-plays",
        "referee-who-plays",
        "scoring-table-who-plays",
    }
)


def owner_person(world) -> Person:
    """The person of the card owner's player, unclaimed."""
    player = world.owner.player
    if player.person_id is None:
        registry.register_person_for(player=player)
    return Person.objects.get(pk=player.person_id)


def claimed_owner_person(world) -> Person:
    person = owner_person(world)
    return registry.claim_person(person=person, user=world.users["owner"])


def owner_player(world):
    owner_person(world)
    return world.owner.player


ROWS = {
    "tournaments.add_person": Row(frozenset(), lambda world: None),
    "tournaments.merge_people": Row(frozenset(), owner_person),
    "tournaments.edit_person": Row(ORGANIZERS, owner_person),
    "tournaments.claim_person": Row(OWNER_LOGIN | {"owner-link-referee"}, owner_person),
    "tournaments.set_person_visibility": Row(OWNER_LOGIN, claimed_owner_person),
    "tournaments.link_person": Row(ORGANIZERS, owner_player),
    "tournaments.unlink_person": Row(ORGANIZERS, owner_player),
}
