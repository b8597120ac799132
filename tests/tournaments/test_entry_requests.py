"""The public entry form's services (``tournaments.services.entry_requests``): the form's
refusals (closed, past its deadline, twice, partner boxes), the capacity and its waitlist moved
up in order, the doubles partner's invitation, the organizer's decisions, the matching to the
registry, and the e-mails each step sends."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from tests.factories import (
    CategoryFactory,
    EntryFactory,
    MatchFactory,
    StageFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.actions import Kind, Refused
from tournaments.models import Category, Entry, EntryRequest, Person, Player, Team
from tournaments.services import entry_requests as svc

pytestmark = pytest.mark.django_db
Status = EntryRequest.Status


@pytest.fixture
def organizer():
    return UserFactory(email="boss@example.org")


@pytest.fixture
def category(organizer) -> Category:
    category = CategoryFactory(name="Open Singles", registration_open=True)
    TournamentRoleFactory(tournament=category.tournament, user=organizer)
    return category


@pytest.fixture
def doubles(category) -> Category:
    return CategoryFactory(
        tournament=category.tournament, name="Open Doubles", doubles=True, registration_open=True
    )


@pytest.fixture
def mails(django_capture_on_commit_callbacks):
    """Run the e-mails the steps send once their transaction commits."""

    def sent(step, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return step(*args, **kwargs)

    return sent


def ask(category: Category, first: str, last: str, **fields) -> EntryRequest:
    fields.setdefault("email", f"{first.lower()}@example.org")
    return svc.submit(category=category, first_name=first, last_name=last, **fields)


# The form's refusals ---------------------------------------------------------------------------


def test_a_request_waits_for_the_organizer_and_the_organizer_and_applicant_are_told(
    category, mails
):
    made = mails(ask, category, "Anna", "Weber", site="https://crokinole.example")
    assert made.status == Status.PENDING
    to = {tuple(m.to) for m in mail.outbox}
    assert to == {("anna@example.org",), ("boss@example.org",)}
    applicant = next(m for m in mail.outbox if m.to == ["anna@example.org"])
    assert f"https://crokinole.example/t/{category.tournament.slug}/register/{made.token}/" in (
        applicant.body
    )
    organizer = next(m for m in mail.outbox if m.to == ["boss@example.org"])
    assert "Anna Weber" in organizer.subject
    assert made.partner_token not in applicant.body


def test_a_closed_form_refuses_saying_so(category):
    category.registration_open = False
    category.save()
    with pytest.raises(Refused) as refused:
        ask(category, "Anna", "Weber")
    assert "closed" in refused.value.text
    assert refused.value.kind == Kind.CONFLICT
    assert not EntryRequest.objects.exists()


def test_the_deadline_closes_the_form_at_its_time(category):
    category.registration_deadline = timezone.now() - timedelta(minutes=1)
    category.save()
    with pytest.raises(Refused) as refused:
        ask(category, "Anna", "Weber")
    assert "closed on" in refused.value.text
    category.registration_deadline = timezone.now() + timedelta(hours=1)
    category.save()
    assert ask(category, "Anna", "Weber").status == Status.PENDING
    assert svc.form_refusal(category, now=timezone.now() + timedelta(hours=2)) is not None


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"first_name": "", "last_name": "Weber", "email": "a@example.org"}, "first_name"),
        ({"first_name": "Anna", "last_name": " ", "email": "a@example.org"}, "last_name"),
        ({"first_name": "Anna", "last_name": "Weber", "email": ""}, "email"),
        ({"first_name": "Anna", "last_name": "Weber", "email": "not-an-address"}, "email"),
        (
            {
                "first_name": "Anna",
                "last_name": "Weber",
                "email": "a@example.org",
                "partner_last_name": "Frei",
            },
            "partner_last_name",
        ),
        ({"first_name": "A" * 101, "last_name": "Weber", "email": "a@example.org"}, "first_name"),
    ],
)
def test_bad_input_is_refused_on_its_box_before_anything_is_written(category, fields, field):
    with pytest.raises(Refused) as refused:
        svc.submit(category=category, **fields)
    assert refused.value.field == field
    assert refused.value.text
    assert not EntryRequest.objects.exists()


def test_nobody_asks_twice_nor_after_being_entered(category):
    ask(category, "Anna", "Weber")
    with pytest.raises(Refused, match="has asked to enter Open Singles already"):
        ask(category, "Hanna", "Other", email="ANNA@example.org")
    with pytest.raises(Refused, match="already"):
        ask(category, "Ánna", "WEBER", email="anna2@example.org")
    EntryFactory(category=category, player__first_name="Ben", player__last_name="Stone")
    with pytest.raises(Refused, match="is entered in Open Singles already"):
        ask(category, "Ben", "Stone")
    # a withdrawn request does not stand in the way of a new one
    first = EntryRequest.objects.get(email="anna@example.org")
    svc.withdraw(request=first)
    assert ask(category, "Anna", "Weber").status == Status.PENDING


def test_a_doubles_request_needs_its_partner(doubles):
    with pytest.raises(Refused) as refused:
        ask(doubles, "Anna", "Weber")
    assert refused.value.field == "partner_first_name"
    with pytest.raises(Refused) as refused:
        ask(
            doubles,
            "Anna",
            "Weber",
            partner_first_name="Bea",
            partner_last_name="Frei",
            partner_email="anna@example.org",
        )
    assert refused.value.field == "partner_email"


# Capacity and the waitlist ---------------------------------------------------------------------


def test_capacity_waitlist_and_a_withdrawal_moves_the_first_waitlisted_up(category, mails):
    category.capacity = 2
    category.save()
    anna, ben = ask(category, "Anna", "Weber"), ask(category, "Ben", "Stone")
    carl, dora = ask(category, "Carl", "Marx"), ask(category, "Dora", "Lee")
    assert [r.status for r in (anna, ben, carl, dora)] == [
        Status.PENDING,
        Status.PENDING,
        Status.WAITLISTED,
        Status.WAITLISTED,
    ]
    assert (svc.waitlist_position(carl), svc.waitlist_position(dora)) == (1, 2)
    svc.accept(request=anna)
    svc.accept(request=ben)
    assert category.entries.count() == 2
    mail.outbox.clear()

    mails(svc.withdraw, request=EntryRequest.objects.get(pk=anna.pk), site="https://x.example")

    anna.refresh_from_db()
    carl.refresh_from_db()
    dora.refresh_from_db()
    assert anna.status == Status.WITHDRAWN and anna.entry is None
    assert not category.entries.filter(player__last_name="Weber").exists()
    assert carl.status == Status.PENDING  # the first in line, for the organizer's decision
    assert dora.status == Status.WAITLISTED and svc.waitlist_position(dora) == 1
    subjects = [m.subject for m in mail.outbox if m.to == ["boss@example.org"]]
    assert any("Off the waitlist" in s and "Carl Marx" in s for s in subjects)
    assert any(m.to == ["carl@example.org"] for m in mail.outbox)


def test_refusing_a_pending_request_frees_its_place(category):
    category.capacity = 1
    category.save()
    anna, ben = ask(category, "Anna", "Weber"), ask(category, "Ben", "Stone")
    with pytest.raises(Refused) as refused:
        svc.refuse(request=anna, reason="  ")
    assert refused.value.field == "reason"
    svc.refuse(request=anna, reason="Members only this year.")
    anna.refresh_from_db()
    ben.refresh_from_db()
    assert (anna.status, anna.refusal_reason) == (Status.REFUSED, "Members only this year.")
    assert ben.status == Status.PENDING


def test_accepting_beyond_the_capacity_is_refused_in_words(category):
    category.capacity = 1
    category.save()
    anna = ask(category, "Anna", "Weber")
    EntryFactory(category=category)  # the organizer entered someone by hand meanwhile
    with pytest.raises(Refused) as refused:
        svc.accept(request=anna)
    assert "full" in refused.value.text
    assert refused.value.kind == Kind.CONFLICT
    anna.refresh_from_db()
    assert anna.status == Status.PENDING


def test_raising_the_capacity_takes_the_waitlist_on_in_order(category):
    category.capacity = 1
    category.save()
    ask(category, "Anna", "Weber")
    ben, carl = ask(category, "Ben", "Stone"), ask(category, "Carl", "Marx")
    svc.update_settings(
        category=category, registration_open=True, registration_deadline=None, capacity=2
    )
    ben.refresh_from_db()
    carl.refresh_from_db()
    assert (ben.status, carl.status) == (Status.PENDING, Status.WAITLISTED)
    with pytest.raises(Refused):
        svc.update_settings(
            category=category, registration_open=True, registration_deadline=None, capacity=0
        )


def test_a_drawn_entry_is_withdrawn_by_the_organizers_ruling_not_here(category):
    anna = svc.accept(request=ask(category, "Anna", "Weber"))
    stage = StageFactory(category=category)
    MatchFactory(stage=stage, entry_a=anna.entry, entry_b=EntryFactory(category=category))
    with pytest.raises(Refused, match="check-in page"):
        svc.withdraw(request=anna)
    anna.refresh_from_db()
    assert anna.status == Status.ACCEPTED and Entry.objects.filter(pk=anna.entry_id).exists()


# Doubles: the partner's invitation --------------------------------------------------------------


def test_a_doubles_partner_is_invited_accepts_and_the_team_is_entered(doubles, mails):
    made = mails(
        ask,
        doubles,
        "Anna",
        "Weber",
        partner_first_name="Bea",
        partner_last_name="Frei",
        partner_email="bea@example.org",
    )
    assert made.status == Status.AWAITING_PARTNER
    invitation = next(m for m in mail.outbox if m.to == ["bea@example.org"])
    assert made.partner_token in invitation.body and made.token not in invitation.body
    assert not any(m.to == ["boss@example.org"] for m in mail.outbox)  # not yet theirs
    with pytest.raises(Refused, match="waits for the partner"):
        svc.accept(request=made)

    mail.outbox.clear()
    mails(svc.partner_accept, request=made, first_name="Beate", last_name="Frei", id_number="")
    made.refresh_from_db()
    assert made.status == Status.PENDING and made.partner_accepted_at is not None
    assert made.partner_first_name == "Beate"
    assert any(m.to == ["boss@example.org"] for m in mail.outbox)
    with pytest.raises(Refused, match="answered already"):
        svc.partner_accept(request=made, first_name="Beate", last_name="Frei")

    svc.accept(request=made)
    made.refresh_from_db()
    team = made.entry.team
    assert {team.player_one.full_name, team.player_two.full_name} == {"Anna Weber", "Beate Frei"}
    assert team.player_one.person is not None and team.player_two.person is not None
    assert Team.objects.count() == 1


def test_a_partner_who_declines_withdraws_the_request(doubles):
    made = ask(
        doubles,
        "Anna",
        "Weber",
        partner_first_name="Bea",
        partner_last_name="Frei",
        partner_email="bea@example.org",
    )
    svc.partner_decline(request=made)
    made.refresh_from_db()
    assert made.status == Status.WITHDRAWN


# The registry ------------------------------------------------------------------------------------


def test_a_request_is_matched_to_the_registry_by_its_id_number(category):
    known = Person.objects.create(first_name="Anna", last_name="Weber", id_number="NCA-77")
    Person.objects.create(first_name="Anna", last_name="Weber", club="Elsewhere")
    made = ask(category, "Anna", "Weber", id_number="NCA-77")
    assert made.person == known
    found = svc.candidates(made)
    assert known in [m.person for m in found.applicant]
    svc.accept(request=made)
    player = Player.objects.get(last_name="Weber")
    assert player.person == known
    assert Person.objects.count() == 2  # nobody new


def test_the_organizer_chooses_a_new_person_or_another_candidate(category):
    namesake = Person.objects.create(first_name="Ben", last_name="Stone", club="Tavistock")
    ben = ask(category, "Ben", "Stone")
    assert ben.person is None  # a name alone is only a candidate, never a guess
    svc.accept(request=ben, person=None)
    ben.refresh_from_db()
    assert ben.person is not None and ben.person != namesake
    carl = ask(category, "Carl", "Marx")
    chosen = Person.objects.create(first_name="Karl", last_name="Marx")
    svc.accept(request=carl, person=chosen)
    assert Player.objects.get(last_name="Marx").person == chosen


def test_a_person_already_playing_at_the_tournament_keeps_one_player(category, doubles):
    anna = svc.accept(request=ask(category, "Anna", "Weber", id_number="9"))
    team = ask(
        doubles,
        "Anna",
        "Weber",
        id_number="9",
        partner_first_name="Bea",
        partner_last_name="Frei",
        partner_email="bea@example.org",
    )
    svc.partner_accept(request=team, first_name="Bea", last_name="Frei")
    svc.accept(request=team)
    assert category.tournament.players.filter(last_name="Weber").count() == 1
    team.refresh_from_db()
    assert team.entry.team.player_one.pk == anna.entry.player_id
