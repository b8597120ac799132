"""The registry's writes and its matching: one person across every event.

A tournament registers *players*; the registry keeps the *person* behind them, so that a result,
a rating or a profile follows the human from the club night to the championship. Registering a
player asks :func:`find_matches` first and asks the organizer before a new person is made;
imports, which cannot ask, use :func:`person_for`, which reuses a person only when the match is
safe (the same ID number, or the one person of that name and club) and otherwise makes a new one
that a record keeper can merge later (:func:`merge_people`, with its history).

Who may call which function is the actions' business (``tournaments.registry_actions``); the
functions here check the data (names given, an ID number held by nobody else) and raise
``ValidationError`` in words that say what is wrong and on which field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.dispatch import Signal
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from simple_history.models import HistoricalChanges

from tournaments.actions import Forbidden
from tournaments.models import Player, Tournament
from tournaments.models.registry import Person, name_key
from tournaments.permissions import MANAGE_RECORD

#: How a person was matched, best first.
HOW_ID_NUMBER = "id-number"
HOW_NAME_AND_CLUB = "name-and-club"
HOW_NAME = "name"
_RANK = {HOW_ID_NUMBER: 0, HOW_NAME_AND_CLUB: 1, HOW_NAME: 2}

#: What a person's form, the API and an import may set.
PERSON_FIELDS = frozenset(
    {
        "first_name",
        "last_name",
        "id_number",
        "federation",
        "club",
        "country",
        "discipline",
        "visibility",
    }
)
#: What says who a person is: once other tournaments or an account rely on it, only the
#: person themselves (their claimed account) or a record keeper may change it.
IDENTITY_FIELDS = frozenset({"first_name", "last_name", "id_number", "federation"})
TEXT_FIELDS = ("first_name", "last_name", "id_number", "federation", "club", "country")

#: The history column holds 100 characters.
_REASON_LENGTH = 100

#: Sent once a merge has committed, with ``keep`` and ``duplicate``: the record's ratings listen,
#: to recompute the kept person's ratings from every game now theirs (this app never imports
#: the record's code, so it says what happened rather than calling it).
person_merged = Signal()


@dataclass(frozen=True)
class PersonMatch:
    """A registry person who may be the one being registered, and how they were found
    (``"id-number"``, ``"name-and-club"`` or ``"name"``)."""

    person: Person
    how: str

    @property
    def sure(self) -> bool:
        """An ID number match is the same human; a name is only likely."""
        return self.how == HOW_ID_NUMBER


def kept(person: Person) -> Person:
    """The person a merged person now lives on as (``person`` itself when never merged)."""
    seen = {person.pk}
    while person.merged_into_id is not None:
        person = person.merged_into
        if person.pk in seen:  # a loop would be a bug; stop rather than spin
            break
        seen.add(person.pk)
    return person


def _same_club(one: str, other: str) -> bool:
    return bool(one and other) and name_key(one) == name_key(other)


def _clean(text: str | None) -> str:
    return (text or "").strip()


def find_matches(
    *,
    first_name: str,
    last_name: str,
    id_number: str = "",
    federation: str = "",
    club: str = "",
) -> list[PersonMatch]:
    """The registry's people who may be this one, best first: the holder of the same ID number
    (of the same federation, when one is given), then people of the same name (accents, case
    and punctuation ignored) and the same club, then of the same name alone. A person of the
    same name whose ID number differs from the one given is another human and is left out.
    Merged people are never returned: the person they were merged into is, once."""
    id_number, federation, club = _clean(id_number), _clean(federation), _clean(club)
    found: dict[int, PersonMatch] = {}

    def add(person: Person, how: str) -> None:
        person = kept(person)
        held = found.get(person.pk)
        if held is None or _RANK[how] < _RANK[held.how]:
            found[person.pk] = PersonMatch(person=person, how=how)

    if id_number:
        holders = Person.objects.filter(id_number=id_number).select_related("merged_into")
        if federation:
            holders = holders.filter(federation=federation)
        for person in holders:
            add(person, HOW_ID_NUMBER)
    key = name_key(first_name, last_name)
    if key:
        for person in Person.objects.filter(key=key).select_related("merged_into"):
            person = kept(person)
            other_number = bool(id_number and person.id_number and person.id_number != id_number)
            same_body = not federation or not person.federation or person.federation == federation
            if other_number and same_body:
                continue  # same name, another ID number: another human
            add(person, HOW_NAME_AND_CLUB if _same_club(club, person.club) else HOW_NAME)
    return sorted(found.values(), key=lambda m: (_RANK[m.how], m.person.last_name, m.person.pk))


def reusable(matches: list[PersonMatch], *, club: str = "") -> Person | None:
    """The person an import may reuse without asking, or None: the holder of the ID number, or
    else the one person of that name, whose club is the same (when both give a club)."""
    for match in matches:
        if match.how == HOW_ID_NUMBER:
            return match.person
    club = _clean(club)
    named = [m for m in matches if m.how == HOW_NAME_AND_CLUB or not (club and m.person.club)]
    if len(named) == 1:
        return named[0].person
    return None


def describe(person: Person) -> str:
    """A person as a question about them reads: "Anna Müller of Club X (ID 123)"."""
    text = person.full_name
    if person.club:
        text = _("%(name)s of %(club)s") % {"name": text, "club": person.club}
    if person.id_number:
        number = (
            f"{person.federation} {person.id_number}" if person.federation else person.id_number
        )
        text = _("%(person)s (ID %(number)s)") % {"person": text, "number": number}
    return text


def candidates_message(matches: list[PersonMatch]) -> str:
    """The question a registration asks before making a new person (the page and the API say
    the same): "Is this Anna Müller of Club X (ID 123)? ..."."""
    return _("Is this %(people)s? Choose who it is, or register a new person.") % {
        "people": _(" or ").join(describe(m.person) for m in matches)
    }


def _check_id_number_free(id_number: str, federation: str, *, person: Person | None = None) -> None:
    if not id_number:
        return
    holders = Person.objects.filter(
        id_number=id_number, federation=federation, merged_into__isnull=True
    )
    if person is not None and person.pk:
        holders = holders.exclude(pk=person.pk)
    holder = holders.first()
    if holder is not None:
        raise ValidationError(
            {
                "id_number": _(
                    "ID number %(number)s is already held by %(person)s: link the player to "
                    "that person, or correct the number."
                )
                % {"number": id_number, "person": describe(holder)}
            }
        )


def _check_fields(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = set(fields) - PERSON_FIELDS
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(f"A person has no field {names}.")  # untranslated: a programming error
    for name in TEXT_FIELDS:
        if name in fields:
            fields[name] = _clean(fields[name])
    return fields


def _check_names(person: Person) -> None:
    errors = {}
    if not person.first_name:
        errors["first_name"] = _("A person needs a first name.")
    if not person.last_name:
        errors["last_name"] = _("A person needs a last name.")
    if errors:
        raise ValidationError(errors)


def _save(person: Person, reason: str, by=None) -> None:
    person._change_reason = Truncator(reason).chars(_REASON_LENGTH)
    if by is not None and getattr(by, "is_authenticated", False):
        person._history_user = by
    person.full_clean(validate_constraints=False)
    person.save()


@transaction.atomic
def create_person(*, by=None, **fields: Any) -> Person:
    """A new person in the registry. Names are required; an ID number another person already
    holds (in the same federation) is refused, naming who holds it."""
    fields = _check_fields(dict(fields))
    person = Person(**fields)
    _check_names(person)
    _check_id_number_free(person.id_number, person.federation)
    _save(person, _("Added to the registry"), by)
    return person


@transaction.atomic
def update_person(*, person: Person, by=None, **fields: Any) -> Person:
    """Correct a person's details (who may change which is the actions' rule)."""
    fields = _check_fields(dict(fields))
    if person.merged_into_id is not None:
        raise ValidationError(
            _("%(person)s was merged into %(kept)s: change that person instead.")
            % {"person": person, "kept": kept(person)}
        )
    for name, value in fields.items():
        setattr(person, name, value)
    _check_names(person)
    _check_id_number_free(person.id_number, person.federation, person=person)
    _save(person, _("Details changed"), by)
    return person


@transaction.atomic
def person_for(
    *,
    first_name: str,
    last_name: str,
    id_number: str = "",
    federation: str = "",
    club: str = "",
    country: str = "",
) -> tuple[Person, bool]:
    """The person an import links a player to, without asking anyone: the holder of the ID
    number, or else the one person of that name (and club, when both give one); otherwise a new
    person, whom a record keeper can merge later. Returns ``(person, created)``.

    A reused person unclaimed by any account gets the ID number, federation, club or country
    they lacked; nothing they have is overwritten."""
    matches = find_matches(
        first_name=first_name,
        last_name=last_name,
        id_number=id_number,
        federation=federation,
        club=club,
    )
    person = reusable(matches, club=club)
    if person is None:
        return (
            create_person(
                first_name=first_name,
                last_name=last_name,
                id_number=id_number,
                federation=federation,
                club=club,
                country=country,
            ),
            True,
        )
    fill_blanks(person, id_number=id_number, federation=federation, club=club, country=country)
    return person, False


def fill_blanks(person: Person, *, id_number: str, federation: str, **given: str) -> None:
    """Give ``person`` what they lacked (never overwriting, never on a claimed person, and
    never an ID number someone else holds)."""
    if person.user_id is not None:
        return
    changed = False
    for name, value in given.items():
        value = _clean(value)
        if value and not getattr(person, name):
            changed = True
            setattr(person, name, value)
    id_number, federation = _clean(id_number), _clean(federation)
    held = Person.objects.filter(
        id_number=id_number, federation=federation, merged_into__isnull=True
    ).exists()
    if id_number and not person.id_number and not held:
        person.id_number, person.federation = id_number, federation
        changed = True
    if changed:
        _save(person, _("Details added by a registration"))


@transaction.atomic
def link_player(*, player: Player, person: Person, by=None) -> Player:
    """Link a tournament's player to their registry person (a merged person's kept one). One
    human is one player of a tournament: a person already linked to another player of the same
    tournament is refused, naming that player."""
    person = kept(person)
    other = (
        Player.objects.filter(tournament_id=player.tournament_id, person=person)
        .exclude(pk=player.pk)
        .first()
    )
    if other is not None:
        raise ValidationError(
            {
                "person": _(
                    "%(person)s is already player %(number)s (%(player)s) of this tournament."
                )
                % {"person": describe(person), "number": other.number, "player": other}
            }
        )
    if player.person_id == person.pk:
        return player
    player.person = person
    player._change_reason = Truncator(
        _("Linked to %(person)s in the registry") % {"person": describe(person)}
    ).chars(_REASON_LENGTH)
    if by is not None and getattr(by, "is_authenticated", False):
        player._history_user = by
    player.save(update_fields=["person"])
    return player


@transaction.atomic
def unlink_player(*, player: Player, by=None) -> Player:
    """Undo a player's link to the registry (the person stays, with their other players)."""
    if player.person_id is None:
        return player
    player.person = None
    player._change_reason = _("Unlinked from the registry")
    if by is not None and getattr(by, "is_authenticated", False):
        player._history_user = by
    player.save(update_fields=["person"])
    return player


@transaction.atomic
def register_person_for(
    *, player: Player, person: Person | None = None, by=None, **fields: Any
) -> Player:
    """Link a just-registered player to the person the organizer chose, or to a new person
    made from the player's own details (``fields`` add an ID number, federation...)."""
    if person is None:
        details = {
            "first_name": player.first_name,
            "last_name": player.last_name,
            "club": player.club,
            "country": player.country,
        }
        details.update({k: v for k, v in fields.items() if v})
        person = create_person(by=by, **details)
    return link_player(player=player, person=person, by=by)


# Merging ------------------------------------------------------------------------------------


def _references() -> list[models.ForeignKey]:
    """Every foreign key to ``Person`` outside the history tables, whatever app declares it
    (the record's games and ratings included, without this app importing the record)."""
    found = []
    for rel in Person._meta.get_fields(include_hidden=True):
        if not (rel.auto_created and not rel.concrete and (rel.one_to_many or rel.one_to_one)):
            continue
        model = rel.related_model
        if issubclass(model, HistoricalChanges):
            continue  # the history keeps who it was at the time
        found.append(rel.field)
    return found


def _unique_with_others(field: models.ForeignKey) -> bool:
    """Whether ``field`` is part of a unique constraint with other fields (a person's one rating
    per discipline): moving such rows could clash with the kept person's own."""
    meta = field.model._meta
    groups = [c.fields for c in meta.constraints if isinstance(c, models.UniqueConstraint)]
    groups += [tuple(g) for g in meta.unique_together]
    return any(field.name in group and len(group) > 1 for group in groups)


def _one_tournament_twice(keep: Person, duplicate: Person) -> Player | None:
    mine = Player.objects.filter(person=keep).values("tournament_id")
    return (
        Player.objects.filter(person=duplicate, tournament_id__in=mine)
        .select_related("tournament")
        .first()
    )


def merge_refusal(keep: Person, duplicate: Person) -> str | None:
    """Why ``duplicate`` cannot be merged into ``keep``, in words; None when it can."""
    if keep.pk == duplicate.pk:
        return _("Choose two different people to merge.")
    for person in (keep, duplicate):
        if person.merged_into_id is not None:
            return _("%(person)s was already merged into %(kept)s.") % {
                "person": person,
                "kept": kept(person),
            }
    if keep.user_id and duplicate.user_id and keep.user_id != duplicate.user_id:
        return _(
            "%(keep)s and %(duplicate)s were claimed by two different accounts: they are "
            "two people, or one account claimed by mistake; ask them first."
        ) % {"keep": keep, "duplicate": duplicate}
    if (
        keep.id_number
        and duplicate.id_number
        and (keep.id_number, keep.federation) != (duplicate.id_number, duplicate.federation)
    ):
        return _(
            "%(keep)s and %(duplicate)s have different ID numbers (%(one)s, %(other)s): "
            "correct the wrong one first."
        ) % {
            "keep": keep,
            "duplicate": duplicate,
            "one": keep.id_number,
            "other": duplicate.id_number,
        }
    twice = _one_tournament_twice(keep, duplicate)
    if twice is not None:
        return _(
            "Both play at %(tournament)s: one human cannot be two players of one tournament; "
            "correct that tournament's players first."
        ) % {"tournament": twice.tournament}
    return None


@transaction.atomic
def merge_people(*, keep: Person, duplicate: Person, by=None) -> Person:
    """Merge ``duplicate`` into ``keep``: every player, entry request, recorded game and rating
    point of the duplicate becomes the kept person's; the duplicate's row stays, pointing at
    the kept one (``merged_into``), so old links and both histories still resolve. The kept
    person gets what they lacked (ID number, club, country, the claiming account).

    Ratings: a person has one rating per discipline, so the duplicate's current ratings are
    deleted, not moved; the kept person's ratings are out of date until recomputed from the
    games now theirs, which the record does on :data:`person_merged` (sent after commit).
    """
    keep = Person.objects.select_for_update().get(pk=keep.pk)
    duplicate = Person.objects.select_for_update().get(pk=duplicate.pk)
    refusal = merge_refusal(keep, duplicate)
    if refusal:
        raise ValidationError(refusal)
    reason = _("Merged into %(person)s (#%(pk)s)") % {"person": keep, "pk": keep.pk}
    for field in _references():
        model = field.model
        rows = model._default_manager.filter(**{field.name: duplicate})
        if _unique_with_others(field):
            rows.delete()  # the current rating: recomputed for the kept person (see above)
        elif hasattr(model, "history"):
            for row in rows:
                setattr(row, field.name, keep)
                row._change_reason = Truncator(reason).chars(_REASON_LENGTH)
                row.save(update_fields=[field.name])
        else:
            rows.update(**{field.name: keep})
    lacked = {
        name: getattr(duplicate, name)
        for name in ("id_number", "federation", "club", "country")
        if getattr(duplicate, name) and not getattr(keep, name)
    }
    claimed_by = duplicate.user if (duplicate.user_id and not keep.user_id) else None
    duplicate.merged_into = keep
    duplicate.user = None
    _save(duplicate, reason, by)
    if lacked.keys() & {"id_number", "federation"}:
        lacked.setdefault("id_number", duplicate.id_number)
        lacked.setdefault("federation", duplicate.federation)
        if not lacked["id_number"] or keep.id_number:
            lacked.pop("id_number", None)
            lacked.pop("federation", None)
    for name, value in lacked.items():
        setattr(keep, name, value)
    if claimed_by is not None:
        keep.user = claimed_by
        keep.visibility = duplicate.visibility
    _save(
        keep,
        _("%(duplicate)s (#%(pk)s) merged in") % {"duplicate": duplicate, "pk": duplicate.pk},
        by,
    )
    transaction.on_commit(lambda: person_merged.send(sender=Person, keep=keep, duplicate=duplicate))
    return keep


# Claiming -------------------------------------------------------------------------------------


@transaction.atomic
def claim_person(*, person: Person, user) -> Person:
    """``user``'s account is this person ("This is me"): from then on only they (and the
    record keepers) change the person's details and what the public sees. Whether ``user`` may
    claim this person (their own player's, through their login or private link) is the
    action's rule; a person claimed by another account is refused here."""
    person = Person.objects.select_for_update().get(pk=kept(person).pk)
    if not getattr(user, "is_authenticated", False):
        raise ValidationError(
            _("Log in (or create an account) first: a claim is kept on an account.")
        )
    if person.user_id == user.pk:
        return person
    if person.user_id is not None:
        raise ValidationError(
            _(
                "%(person)s was already claimed by another account; if that is wrong, ask the "
                "site's record keepers."
            )
            % {"person": person}
        )
    person.user = user
    _save(person, _("Claimed by %(user)s") % {"user": user.get_username()}, user)
    return person


@transaction.atomic
def set_visibility(*, person: Person, visibility: str, user=None) -> Person:
    """What the public sees of ``person``: their profile, or only their name in results.
    Only the account that claimed the person, or a record keeper, chooses it (``user`` None:
    the system itself, e.g. a command)."""
    if user is not None and not may_choose_for(user, person):
        raise Forbidden(
            _(
                "Only %(person)s, once they claimed their person, or the site's record keepers "
                "choose what the public sees of them."
            )
            % {"person": person}
        )
    if visibility not in Person.Visibility.values:
        raise ValidationError(
            {
                "visibility": _("Choose one of: %(choices)s.")
                % {"choices": ", ".join(str(label) for label in Person.Visibility.labels)}
            }
        )
    person.visibility = visibility
    _save(
        person,
        _("Public sees: %(choice)s") % {"choice": Person.Visibility(visibility).label},
        user,
    )
    return person


def may_choose_for(user, person: Person) -> bool:
    """Whether ``user`` speaks for ``person``: the account that claimed them, or a record
    keeper."""
    if not getattr(user, "is_authenticated", False):
        return False
    return person.user_id == user.pk or user.has_perm(MANAGE_RECORD)


def persons_of_tournament(tournament: Tournament) -> models.QuerySet[Person]:
    """The people linked from a tournament's players."""
    return Person.objects.filter(players__tournament=tournament).distinct()
