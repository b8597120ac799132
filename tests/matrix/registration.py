"""The organizer's decisions on the public entry form's requests
(``tournaments.registration_actions``): the organizers and co-organizers, whether they play or
not (deciding who enters decides no game). The applicant and the partner act with their secret
links, never with a role: they are no row here."""

from __future__ import annotations

from tests.factories import CategoryFactory
from tournaments.models import Category, EntryRequest

from . import Row

ORGANIZERS = frozenset({"organizer", "co-organizer", "organizer-who-plays"})


def open_category(world) -> Category:
    """A category of the matrix's tournament whose entry form is open."""
    return CategoryFactory(
        tournament=world.tournament, name="Matrix entry form", registration_open=True
    )


def pending(world) -> EntryRequest:
    """A request waiting for the organizer's decision."""
    return EntryRequest.objects.create(
        category=open_category(world),
        first_name="Ada",
        last_name="Applicant",
        email="ada@example.org",
        status=EntryRequest.Status.PENDING,
    )


ROWS = {
    "tournaments.accept_entry_request": Row(ORGANIZERS, pending),
    "tournaments.refuse_entry_request": Row(ORGANIZERS, pending),
    "tournaments.withdraw_entry_request": Row(ORGANIZERS, pending),
    "tournaments.set_registration": Row(ORGANIZERS, open_category),
}
