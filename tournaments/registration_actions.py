"""The organizer's steps on the requests of the public entry form, each declared once
(``tournaments.actions``): accepting a request (with the registry's person it is matched to),
refusing it with a reason, withdrawing it, and a category's form settings (open, deadline,
capacity).

The organizer's list of requests and the API (``/api/entry-requests/...``) take these steps; the
preconditions live with their service (``services.entry_requests``), which asks them again
under the category's lock, so a step taken from anywhere refuses the same things in the same
words. The applicant's own steps (submitting, withdrawing on their request's page) and the
partner's (accepting the invitation) are taken with the secret link they were sent, not with a
role: they call the service directly.

Every step's ``site`` is the site's address, for the links of the e-mails it sends (the page's
or the API request's own), not a form field.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext_lazy

from tournaments.actions import Action
from tournaments.models import Category, EntryRequest
from tournaments.permissions import MANAGE_TOURNAMENT
from tournaments.services import entry_requests

__all__ = [
    "accept_request",
    "refuse_request",
    "set_registration",
    "withdraw_request",
]

WHO = gettext_lazy("Only the tournament's organizers decide the requests to enter it.")


def _accept(user: AbstractBaseUser, request: EntryRequest, **inputs: Any) -> EntryRequest:
    return entry_requests.accept(request=request, by=user, **inputs)


def _refuse(user: AbstractBaseUser, request: EntryRequest, **inputs: Any) -> EntryRequest:
    return entry_requests.refuse(request=request, **inputs)


def _withdraw(user: AbstractBaseUser, request: EntryRequest, **inputs: Any) -> EntryRequest:
    return entry_requests.withdraw(request=request, by_organizer=True, **inputs)


def _settings(user: AbstractBaseUser, category: Category, **inputs: Any) -> Category:
    return entry_requests.update_settings(category=category, **inputs)


accept_request = Action(
    name="tournaments.accept_entry_request",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    when=(entry_requests.is_pending, entry_requests.has_room),
    fields=("person", "partner_person", "site"),
    run=_accept,
)

refuse_request = Action(
    name="tournaments.refuse_entry_request",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    when=(entry_requests.is_undecided,),
    fields=("reason", "site"),
    run=_refuse,
)

withdraw_request = Action(
    name="tournaments.withdraw_entry_request",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    when=(entry_requests.is_live, entry_requests.not_drawn),
    fields=("site",),
    run=_withdraw,
)

set_registration = Action(
    name="tournaments.set_registration",
    permission=MANAGE_TOURNAMENT,
    who=WHO,
    fields=(*entry_requests.SETTINGS_FIELDS, "site"),
    run=_settings,
)
