"""Requests to enter a category through its public entry form, from the form to the entry.

A request goes through these states (``EntryRequest.Status``)::

    submit ──> awaiting-partner ──partner_accept──> pending ──accept──> accepted
          └──────────────────────────────────────> pending ──refuse──> refused
          └──> waitlisted ──(a place frees)──> pending           (withdraw: any live one)

A category's *places* are its capacity. A place is held by each of its entries that has not
withdrawn (accepted requests and the players the organizer entered by hand alike) and by each
request waiting for the organizer's decision: the organizer then never has more to accept than
there is room for, and the waitlist is exactly who came after the room ran out, in their order
of arrival. A doubles request holds no place until the partner has accepted the invitation,
which is when it joins the queue.

When a place frees (a request withdrawn or refused, a capacity raised), the first waitlisted
request moves to "pending", for the organizer's decision, and the organizer is told.

Each request is matched to the registry (``tournaments.services.registry``): the form records a
person found by the ID number given, the organizer's list shows every candidate, and accepting
takes the organizer's choice (a person, or a new one), so the player is linked to whom the
organizer chose and never to a guess made while registering.

Every refusal is a ``tournaments.actions.Refused`` with the field at fault, the same words on
the form, the organizer's list and the API. E-mails go once the transaction commits
(``entry_request_mail``), so a refused step sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournaments.actions import Kind, Refused
from tournaments.models import Category, Entry, EntryRequest, Person, Player, Pool, name_key
from tournaments.services import entries, entry_request_mail, registration, registry

Status = EntryRequest.Status

#: A request still in play: it counts against duplicates and can be withdrawn.
LIVE = (Status.AWAITING_PARTNER, Status.PENDING, Status.WAITLISTED, Status.ACCEPTED)
#: Requests the organizer may still refuse (an accepted one is withdrawn instead).
UNDECIDED = (Status.AWAITING_PARTNER, Status.PENDING, Status.WAITLISTED)
#: What the form takes from the applicant, and from the partner for doubles.
APPLICANT_FIELDS = ("first_name", "last_name", "email", "id_number", "club", "country")
PARTNER_FIELDS = ("partner_first_name", "partner_last_name", "partner_email", "partner_id_number")
SUBMIT_FIELDS = ("category", *APPLICANT_FIELDS, *PARTNER_FIELDS)
#: What the partner confirms on their invitation page.
PARTNER_CONFIRM_FIELDS = ("first_name", "last_name", "id_number")
#: The category's registration settings, on the organizer's list.
SETTINGS_FIELDS = ("registration_open", "registration_deadline", "capacity")
REASON_MAX = 500
#: Stands for "keep the person the request is matched to" in :func:`accept`.
KEEP: Any = object()

_MAX_LENGTHS = {
    name: EntryRequest._meta.get_field(name).max_length
    for name in (*APPLICANT_FIELDS, *PARTNER_FIELDS)
}


# Reading the state ------------------------------------------------------------------------------


def form_refusal(category: Category, now: datetime | None = None) -> Refused | None:
    """Why the category's public form takes no request now (closed, or past its deadline), in
    the words the form and the API show; None when it is open."""
    if not category.registration_open:
        return Refused(
            _("The entry form of %(category)s is closed: ask the organizer.")
            % {"category": category.name},
            kind=Kind.CONFLICT,
            field="category",
        )
    deadline = category.registration_deadline
    if deadline is not None and (now or timezone.now()) >= deadline:
        local = formats.date_format(timezone.localtime(deadline), "SHORT_DATETIME_FORMAT")
        return Refused(
            _("The entry form of %(category)s closed on %(deadline)s.")
            % {"category": category.name, "deadline": local},
            kind=Kind.CONFLICT,
            field="category",
        )
    return None


def open_categories(tournament) -> list[Category]:
    """The tournament's categories whose form takes requests now, by name."""
    now = timezone.now()
    return [
        category
        for category in tournament.categories.filter(registration_open=True).order_by("name")
        if form_refusal(category, now) is None
    ]


def places_taken(category: Category) -> int:
    """Entries that have not withdrawn, plus requests waiting for the organizer's decision."""
    live_entries = category.entries.filter(withdrawn=False).count()
    return live_entries + category.entry_requests.filter(status=Status.PENDING).count()


def free_places(category: Category) -> int | None:
    """How many more may join the queue for the organizer's decision (None: no capacity)."""
    if category.capacity is None:
        return None
    return max(0, category.capacity - places_taken(category))


def waiting_for_organizer(tournament) -> int:
    """How many requests of the tournament wait for the organizer's decision (the dashboard's
    count)."""
    return EntryRequest.objects.filter(
        category__tournament=tournament, status=Status.PENDING
    ).count()


def requests_of(tournament) -> QuerySet[EntryRequest]:
    """The tournament's requests, by category and in order of arrival (the waitlist's order)."""
    return (
        EntryRequest.objects.filter(category__tournament=tournament)
        .select_related("category__tournament", "person", "partner_person", "entry")
        .order_by("category__name", "created_at", "id")
    )


def waitlist_position(request: EntryRequest) -> int | None:
    """The request's place on its category's waitlist (1 is next), or None when not on it."""
    if request.status != Status.WAITLISTED:
        return None
    ahead = request.category.entry_requests.filter(status=Status.WAITLISTED).filter(
        Q(created_at__lt=request.created_at) | Q(created_at=request.created_at, id__lt=request.id)
    )
    return ahead.count() + 1


@dataclass(frozen=True)
class Candidates:
    """The registry's people a request could be: the applicant's and, for doubles, the
    partner's (``registry.PersonMatch``: the person and how they matched)."""

    applicant: list
    partner: list


def candidates(request: EntryRequest) -> Candidates:
    """Whom the registry finds for the request's applicant and partner."""
    applicant = registry.find_matches(
        first_name=request.first_name,
        last_name=request.last_name,
        id_number=request.id_number,
        club=request.club,
    )
    partner = []
    if request.partner_last_name:
        partner = registry.find_matches(
            first_name=request.partner_first_name,
            last_name=request.partner_last_name,
            id_number=request.partner_id_number,
        )
    return Candidates(applicant=list(applicant), partner=list(partner))


def _matched_by_id(
    first_name: str, last_name: str, id_number: str, club: str = ""
) -> Person | None:
    """The registry's person holding this ID number, when the registry finds one first: the
    form's own guess, which the organizer sees and may change before accepting."""
    if not id_number:
        return None
    found = registry.find_matches(
        first_name=first_name, last_name=last_name, id_number=id_number, club=club
    )
    for match in found:
        if match.person.id_number == id_number:
            return match.person
    return None


# Preconditions of the organizer's steps (each the words of its refusal, or None) -------------


def is_pending(request: EntryRequest) -> Refused | None:
    """Only a request waiting for the organizer is accepted."""
    if request.status == Status.PENDING:
        return None
    words = {
        Status.AWAITING_PARTNER: _(
            "%(request)s waits for the partner to accept the invitation; accept it after that."
        ),
        Status.WAITLISTED: _(
            "%(request)s is on the waitlist: it comes up for a decision when a place frees."
        ),
        Status.ACCEPTED: _("%(request)s is accepted already."),
        Status.REFUSED: _("%(request)s was refused."),
        Status.WITHDRAWN: _("%(request)s was withdrawn."),
    }[Status(request.status)]
    return Refused(words % {"request": request}, kind=Kind.CONFLICT)


def is_undecided(request: EntryRequest) -> Refused | None:
    """Only a request not decided yet is refused (an accepted one is withdrawn instead)."""
    if request.status in UNDECIDED:
        return None
    if request.status == Status.ACCEPTED:
        return Refused(
            _("%(request)s is accepted already: withdraw it instead.") % {"request": request},
            kind=Kind.CONFLICT,
        )
    return Refused(
        _("%(request)s is %(status)s already.")
        % {"request": request, "status": request.get_status_display().lower()},
        kind=Kind.CONFLICT,
    )


def is_live(request: EntryRequest) -> Refused | None:
    """Only a request still in play is withdrawn."""
    if request.status in LIVE:
        return None
    return Refused(
        _("%(request)s is %(status)s already.")
        % {"request": request, "status": request.get_status_display().lower()},
        kind=Kind.CONFLICT,
    )


def _drawn(entry: Entry) -> bool:
    return (
        entry.matches_as_a.exists()
        or entry.matches_as_b.exists()
        or Pool.objects.filter(entries=entry).exists()
    )


def not_drawn(request: EntryRequest) -> Refused | None:
    """An accepted request is withdrawn here only while its entry is not drawn: after the draw,
    withdrawing is the organizer's ruling (its games become walkovers), taken on the check-in
    page."""
    entry = request.entry
    if request.status != Status.ACCEPTED or entry is None or not _drawn(entry):
        return None
    return Refused(
        _(
            "%(request)s is drawn in %(category)s already: the organizer withdraws the entry on "
            "the check-in page (its games become walkovers)."
        )
        % {"request": request, "category": request.category.name},
        kind=Kind.CONFLICT,
    )


def has_room(request: EntryRequest) -> Refused | None:
    """Accepting needs a place: the category's entries (not withdrawn) below its capacity."""
    category = request.category
    if category.capacity is None:
        return None
    live_entries = category.entries.filter(withdrawn=False).count()
    if live_entries < category.capacity:
        return None
    return Refused(
        _(
            "%(category)s is full (%(capacity)s entries): raise its capacity, or wait until "
            "someone withdraws."
        )
        % {"category": category.name, "capacity": category.capacity},
        kind=Kind.CONFLICT,
    )


def _raise(found: Refused | None) -> None:
    if found is not None:
        raise found


# Submitting -------------------------------------------------------------------------------------


def _clean(fields: dict[str, Any], names: tuple[str, ...]) -> dict[str, str]:
    cleaned = {}
    for name in names:
        value = fields.get(name)
        value = "" if value is None else str(value).strip()
        limit = _MAX_LENGTHS.get(name)
        if limit and len(value) > limit:
            raise Refused(_("Keep this to %(max)s characters.") % {"max": limit}, field=name)
        cleaned[name] = value
    return cleaned


def _require(fields: dict[str, str], name: str, words: str) -> None:
    if not fields.get(name):
        raise Refused(words, field=name)


def _check_email(value: str, field: str) -> None:
    try:
        validate_email(value)
    except ValidationError:
        raise Refused(
            _("“%(email)s” is not an e-mail address.") % {"email": value}, field=field
        ) from None


def _check_applicant(data: dict[str, str]) -> None:
    _require(data, "first_name", _("Give your first name."))
    _require(data, "last_name", _("Give your last name."))
    _require(data, "email", _("Give your e-mail address: your confirmation is sent there."))
    _check_email(data["email"], "email")


def _check_partner(category: Category, data: dict[str, str]) -> None:
    given = [name for name in PARTNER_FIELDS if data[name]]
    if category.kind != Category.Kind.DOUBLES:
        if given:
            raise Refused(
                _("%(category)s is a singles category: leave the partner's boxes empty.")
                % {"category": category.name},
                field=given[0],
            )
        return
    _require(data, "partner_first_name", _("Give your partner's first name."))
    _require(data, "partner_last_name", _("Give your partner's last name."))
    _require(
        data,
        "partner_email",
        _("Give your partner's e-mail address: their invitation is sent there."),
    )
    _check_email(data["partner_email"], "partner_email")
    if data["partner_email"].casefold() == data["email"].casefold():
        raise Refused(
            _("Your partner's e-mail address is yours: give theirs, so they can accept."),
            field="partner_email",
        )
    same_name = name_key(data["first_name"], data["last_name"]) == name_key(
        data["partner_first_name"], data["partner_last_name"]
    )
    if same_name and data["id_number"] == data["partner_id_number"]:
        raise Refused(_("A team needs two different players."), field="partner_last_name")


def _same_person(key: str, id_number: str, other_key: str, other_id: str) -> bool:
    """Two names are the same person when their keys agree and their ID numbers do not
    disagree (either missing counts as agreeing)."""
    return (
        bool(key) and key == other_key and (not id_number or not other_id or id_number == other_id)
    )


def _people_of(request: EntryRequest) -> list[tuple[str, str, str]]:
    people = [(request.email, name_key(request.first_name, request.last_name), request.id_number)]
    if request.partner_last_name:
        people.append(
            (
                request.partner_email,
                name_key(request.partner_first_name, request.partner_last_name),
                request.partner_id_number,
            )
        )
    return people


def _check_not_twice(category: Category, data: dict[str, str]) -> None:
    """Nobody asks twice for the same category, alone or as someone's partner, and nobody
    entered already asks again."""
    asking = [("email", "first_name", "last_name", "id_number")]
    if data["partner_last_name"]:
        asking.append(
            ("partner_email", "partner_first_name", "partner_last_name", "partner_id_number")
        )
    live = list(category.entry_requests.filter(status__in=LIVE))
    for email_field, first, last, id_field in asking:
        email = data[email_field].casefold()
        key = name_key(data[first], data[last])
        for other in live:
            for other_email, other_key, other_id in _people_of(other):
                if other_email.casefold() == email or _same_person(
                    key, data[id_field], other_key, other_id
                ):
                    raise Refused(
                        _(
                            "%(name)s has asked to enter %(category)s already (the confirmation "
                            "e-mail has the link to that request)."
                        )
                        % {"name": f"{data[first]} {data[last]}", "category": category.name},
                        kind=Kind.CONFLICT,
                        field=email_field,
                    )
        for player in _entered_players(category):
            if name_key(player.first_name, player.last_name) == key:
                raise Refused(
                    _("%(name)s is entered in %(category)s already.")
                    % {"name": f"{data[first]} {data[last]}", "category": category.name},
                    kind=Kind.CONFLICT,
                    field=last,
                )


def _entered_players(category: Category) -> list[Player]:
    found: list[Player] = []
    for entry in category.entries.filter(withdrawn=False).select_related(
        "player", "team__player_one", "team__player_two"
    ):
        if entry.player_id:
            found.append(entry.player)
        else:
            found.extend((entry.team.player_one, entry.team.player_two))
    return found


def _lock(category: Category) -> Category:
    """Serialise the queue of one category: two requests (or a request and a withdrawal) at
    the same moment cannot both take its last place."""
    return Category.objects.select_for_update().select_related("tournament").get(pk=category.pk)


def _queue_status(category: Category) -> str:
    free = free_places(category)
    if free is not None and (
        free == 0 or category.entry_requests.filter(status=Status.WAITLISTED).exists()
    ):
        return Status.WAITLISTED
    return Status.PENDING


@transaction.atomic
def submit(
    *,
    category: Category,
    user: AbstractBaseUser | None = None,
    site: str = "",
    **fields: Any,
) -> EntryRequest:
    """Take a request from the public form: checked whole before anything is written.

    A singles request joins the queue at once ("pending", or "waitlisted" when the category is
    full or others wait before it); a doubles request waits for the partner, who gets an
    invitation. The applicant gets the link to their request's page; the organizers are told
    of a request to decide. ``site`` is the site's address, for the links in the e-mails.
    """
    unknown = set(fields) - set(SUBMIT_FIELDS)
    if unknown:
        raise TypeError(f"submit() takes no {', '.join(sorted(unknown))}")  # untranslated: a bug
    _raise(form_refusal(category))
    data = _clean(fields, APPLICANT_FIELDS + PARTNER_FIELDS)
    _check_applicant(data)
    _check_partner(category, data)
    category = _lock(category)
    _raise(form_refusal(category))
    _check_not_twice(category, data)
    doubles = category.kind == Category.Kind.DOUBLES
    request = EntryRequest(
        category=category,
        user=user if user is not None and user.is_authenticated else None,
        status=Status.AWAITING_PARTNER if doubles else _queue_status(category),
        person=_matched_by_id(
            data["first_name"], data["last_name"], data["id_number"], data["club"]
        ),
        **data,
    )
    if doubles:
        request.partner_person = _matched_by_id(
            data["partner_first_name"], data["partner_last_name"], data["partner_id_number"]
        )
    request._change_reason = _("asked through the entry form")
    request.save()
    entry_request_mail.submitted(request, site)
    return request


# The partner's invitation -----------------------------------------------------------------------


def _awaiting_partner(request: EntryRequest) -> None:
    if request.status != Status.AWAITING_PARTNER:
        raise Refused(
            _("This invitation is answered already: the request is now “%(status)s”.")
            % {"status": request.get_status_display()},
            kind=Kind.CONFLICT,
        )


def _locked(request: EntryRequest) -> EntryRequest:
    _lock(request.category)
    return EntryRequest.objects.select_related("category__tournament", "entry").get(pk=request.pk)


@transaction.atomic
def partner_accept(*, request: EntryRequest, site: str = "", **fields: Any) -> EntryRequest:
    """The partner accepts the invitation, confirming (or correcting) their name and ID number:
    the request joins its category's queue, as a singles request does on submitting."""
    unknown = set(fields) - set(PARTNER_CONFIRM_FIELDS)
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(f"partner_accept() takes no {names}")  # untranslated: a bug
    data = _clean(
        {f"partner_{name}": value for name, value in fields.items()},
        ("partner_first_name", "partner_last_name", "partner_id_number"),
    )
    data = {name.removeprefix("partner_"): value for name, value in data.items()}
    _require(data, "first_name", _("Give your first name."))
    _require(data, "last_name", _("Give your last name."))
    request = _locked(request)
    _awaiting_partner(request)
    changed_id = data["id_number"] != request.partner_id_number
    request.partner_first_name = data["first_name"]
    request.partner_last_name = data["last_name"]
    request.partner_id_number = data["id_number"]
    if changed_id or request.partner_person_id is None:
        request.partner_person = _matched_by_id(
            data["first_name"], data["last_name"], data["id_number"]
        )
    request.partner_accepted_at = timezone.now()
    request.status = _queue_status(request.category)
    request._change_reason = _("the partner accepted the invitation")
    request.save()
    entry_request_mail.partner_accepted(request, site)
    return request


@transaction.atomic
def partner_decline(*, request: EntryRequest, site: str = "") -> EntryRequest:
    """The partner declines: the request is withdrawn and the applicant told."""
    request = _locked(request)
    _awaiting_partner(request)
    request.status = Status.WITHDRAWN
    request.decided_at = timezone.now()
    request._change_reason = _("the partner declined the invitation")
    request.save()
    entry_request_mail.partner_declined(request, site)
    return request


# The organizer's decisions ---------------------------------------------------------------------


#: The organizer chose no one: the registry's sure match (or the one person of that name), else
#: a new person (``registry.person_for``).
_AUTO: Any = object()


def _person_choice(value: Any, current: Person | None, field: str) -> Any:
    """The organizer's choice as :func:`_player_for` takes it: a person, None (a new person),
    or ``_AUTO`` when the request was never matched and the organizer kept that."""
    if value is KEEP:
        return current if current is not None else _AUTO
    if value is None or isinstance(value, Person):
        return value
    raise TypeError(f"{field} is a Person, None (a new person) or KEEP")  # untranslated: a bug


def _player_for(category: Category, person: Any, *, by: Any = None, **details: str) -> Player:
    """The tournament's player for this person: the one already registered (entered in another
    category), or a new one registered through the registration service
    (``register_player_in_registry``) and linked to the person chosen (``None``: a new person
    in the registry; ``_AUTO``: ``registry.person_for``)."""
    tournament = category.tournament
    id_number = details.pop("id_number", "")
    if person is _AUTO:
        person, _created = registry.person_for(id_number=id_number, **details)
    if person is not None:
        existing = tournament.players.filter(person=registry.kept(person)).first()
        if existing is not None:
            return existing
    return registration.register_player_in_registry(
        tournament=tournament,
        person=registration.NEW_PERSON if person is None else person,
        federation_id=id_number,
        by=by,
        **details,
    )


@transaction.atomic
def accept(
    *,
    request: EntryRequest,
    person: Person | None = KEEP,
    partner_person: Person | None = KEEP,
    site: str = "",
    by: AbstractBaseUser | None = None,
) -> EntryRequest:
    """The organizer accepts a pending request: its player (or the team of its two players) is
    registered, linked to the person chosen in the registry (``person``: a ``Person``, or None
    for a new one; left out: the person the request is matched to) and entered in the category.
    Refused in words when the request is not pending or the category is full."""
    request = _locked(request)
    _raise(is_pending(request))
    _raise(has_room(request))
    category = request.category
    person = _person_choice(person, request.person, "person")
    player = _player_for(
        category,
        person,
        by=by,
        first_name=request.first_name,
        last_name=request.last_name,
        id_number=request.id_number,
        club=request.club,
        country=request.country,
    )
    if category.kind == Category.Kind.DOUBLES:
        partner_person = _person_choice(partner_person, request.partner_person, "partner_person")
        partner = _player_for(
            category,
            partner_person,
            by=by,
            first_name=request.partner_first_name,
            last_name=request.partner_last_name,
            id_number=request.partner_id_number,
        )
        entry = registration.pair_team(category=category, player_one=player, player_two=partner)
        request.partner_person = partner.person
    else:
        entry = registration.enter_player(player=player, category=category)
    request.person = player.person
    request.entry = entry
    request.status = Status.ACCEPTED
    request.decided_at = timezone.now()
    request._change_reason = _("accepted by the organizer")
    request.save()
    entry_request_mail.decided(request, site)
    return request


@transaction.atomic
def refuse(*, request: EntryRequest, reason: str, site: str = "") -> EntryRequest:
    """The organizer refuses a request not decided yet, saying why (the applicant reads it).
    A request that held a place frees it for the first on the waitlist."""
    reason = (reason or "").strip()
    if not reason:
        raise Refused(_("Say why the request is refused: the applicant reads it."), field="reason")
    if len(reason) > REASON_MAX:
        raise Refused(
            _("Keep the reason to %(max)s characters.") % {"max": REASON_MAX}, field="reason"
        )
    request = _locked(request)
    _raise(is_undecided(request))
    held_a_place = request.status == Status.PENDING
    request.status = Status.REFUSED
    request.refusal_reason = reason
    request.decided_at = timezone.now()
    request._change_reason = _("refused by the organizer")
    request.save()
    entry_request_mail.decided(request, site)
    if held_a_place:
        promote_waitlist(category=request.category, site=site)
    return request


@transaction.atomic
def withdraw(*, request: EntryRequest, by_organizer: bool = False, site: str = "") -> EntryRequest:
    """Withdraw a request (the applicant on their request's page, or the organizer).

    An accepted request's entry is removed while nothing is drawn (after the draw, withdrawing
    is the organizer's ruling on the check-in page: :func:`not_drawn`). The place it held goes
    to the first on the waitlist."""
    request = _locked(request)
    _raise(is_live(request))
    _raise(not_drawn(request))
    held_a_place = request.status in (Status.PENDING, Status.ACCEPTED)
    entry = request.entry
    if request.status == Status.ACCEPTED and entry is not None:
        held_a_place = not entry.withdrawn
        entries.delete_entry(entry=entry)
        request.entry = None
    request.status = Status.WITHDRAWN
    request.decided_at = timezone.now()
    request._change_reason = (
        _("withdrawn by the organizer") if by_organizer else _("withdrawn by the applicant")
    )
    request.save()
    entry_request_mail.withdrawn(request, site, by_organizer=by_organizer)
    if held_a_place:
        promote_waitlist(category=request.category, site=site)
    return request


@transaction.atomic
def promote_waitlist(*, category: Category, site: str = "") -> list[EntryRequest]:
    """Move the first waitlisted requests, in their order of arrival, to "pending" while places
    are free; the organizers and each promoted applicant are told."""
    category = _lock(category)
    waiting = list(
        category.entry_requests.filter(status=Status.WAITLISTED).order_by("created_at", "id")
    )
    free = free_places(category)
    promoted = waiting if free is None else waiting[:free]
    for request in promoted:
        request.status = Status.PENDING
        request._change_reason = _("a place freed: off the waitlist")
        request.save()
        entry_request_mail.promoted(request, site)
    return promoted


@transaction.atomic
def update_settings(
    *,
    category: Category,
    registration_open: bool,
    registration_deadline: datetime | None,
    capacity: int | None,
    site: str = "",
) -> Category:
    """The organizer opens or closes a category's form, sets its deadline (aware: the site's
    time zone when naive) and its capacity; a larger capacity takes the first waitlisted on."""
    if capacity is not None and capacity < 1:
        raise Refused(
            _("The capacity is at least 1 entry (leave it empty for no limit)."), field="capacity"
        )
    if registration_deadline is not None and timezone.is_naive(registration_deadline):
        registration_deadline = timezone.make_aware(registration_deadline)
    category = _lock(category)
    category.registration_open = registration_open
    category.registration_deadline = registration_deadline
    category.capacity = capacity
    category._change_reason = _("entry form settings")
    category.save(update_fields=list(SETTINGS_FIELDS))
    promote_waitlist(category=category, site=site)
    return category


def by_token(token: str) -> EntryRequest | None:
    """The request whose applicant's page ``token`` opens, or None."""
    if not token:
        return None
    return (
        EntryRequest.objects.select_related("category__tournament", "entry")
        .filter(token=token)
        .first()
    )


def by_partner_token(token: str) -> EntryRequest | None:
    """The request whose partner's invitation ``token`` opens, or None."""
    if not token:
        return None
    return (
        EntryRequest.objects.select_related("category__tournament")
        .filter(partner_token=token)
        .first()
    )
