"""The organizer's audit page lists staff roles given and taken back and shoot-outs recorded,
each with who did it, when, and the values before and after; the roles and shoot-outs keep
their history (django-simple-history) with the acting user and a reason."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.engine import round_data
from scoring.models import ShootOut, ShootOutScore
from scoring.progression.services import advance, record_shootout
from scoring.results.services import record_game
from tests.events import SmallEvent, build_small_event
from tests.factories import StageFactory, UserFactory
from tournaments.history import tournament_changes
from tournaments.models import Invitation, Match, Stage, TournamentRole
from tournaments.services import staff
from tournaments.services.invitations import accept

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


def audit_url(event: SmallEvent) -> str:
    return reverse("tournaments:manage-audit", args=[event.tournament.slug])


@pytest.fixture
def event() -> SmallEvent:
    return build_small_event(players=4, games_per_entry=1)


def test_giving_and_taking_back_a_role_leaves_history_with_the_actor(event):
    organizer = event.users["organizer"]
    rita = UserFactory(username="rita")
    staff.grant_role(tournament=event.tournament, user=rita, role=Role.REFEREE, actor=organizer)
    staff.revoke_role(tournament=event.tournament, user=rita, role=Role.REFEREE, actor=organizer)

    given, taken = TournamentRole.history.filter(user=rita).order_by("history_date", "history_id")
    assert (given.history_type, taken.history_type) == ("+", "-")
    assert given.history_user == organizer and taken.history_user == organizer
    assert given.history_change_reason == "Referee given to rita"
    assert taken.history_change_reason == "Referee taken back from rita"

    lines = [c for c in tournament_changes(event.tournament) if c.name == "rita: Referee"]
    assert [c.action for c in lines] == ["taken back", "given"]  # newest first
    assert {c.who for c in lines} == {organizer.get_username()}
    assert [(f.label, f.before, f.after) for f in lines[0].fields if f.label == "role"] == [
        ("role", "Referee", "—")
    ]
    assert ("user", "—", "rita") in [(f.label, f.before, f.after) for f in lines[1].fields]


def test_the_staff_page_records_the_organizer_in_the_role_history(event, client):
    rita = UserFactory(username="rita")
    organizer = event.users["organizer"]
    client.force_login(organizer)
    staff_url = reverse("tournaments:manage-staff", args=[event.tournament.slug])
    client.post(staff_url, {"action": "grant", "grant-username": "rita", "grant-role": "referee"})
    # The role is rita's own act (she accepts the invitation); taking it back, the organizer's.
    accept(invitation_id=Invitation.objects.get(username="rita").pk, user=rita)
    client.post(staff_url, {"action": "revoke", "user": rita.pk, "role": "referee"})
    rows = TournamentRole.history.filter(user=rita)
    assert sorted((r.history_type, r.history_user) for r in rows) == [
        ("+", rita),
        ("-", organizer),
    ]

    page = client.get(audit_url(event)).content.decode()
    assert "Referee accepted by rita" in page
    assert "Role <strong>rita: Referee</strong> taken back" in page
    assert "Referee taken back from rita" in page


def _tied_preliminary(event: SmallEvent) -> None:
    """All four players tied across the cut of two: a shoot-out must settle it."""
    event.stage.advance_count = 2
    event.stage.save()
    StageFactory(category=event.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=2)
    tie = [round_data(points=(1, 1), twenties=(1, 1))] * 4
    for match in Match.objects.filter(stage=event.stage, entry_b__isnull=False):
        record_game(match.games.get(), tie)
    with pytest.raises(Exception, match="shoot-out"):
        advance(event.stage)


def test_recording_a_shootout_leaves_history_with_the_recorder(event):
    _tied_preliminary(event)
    referee = event.users["referee"]
    made = dict(zip(event.entries, (5, 4, 3, 2), strict=True))
    shot = record_shootout(event.stage, made, user=referee)

    recorded = ShootOut.history.get(id=shot.id)
    assert recorded.history_type == "+" and recorded.history_user == referee
    assert recorded.history_change_reason.startswith("Shoot-out 1 in ")
    scores = ShootOutScore.history.filter(shootout_id=shot.id)
    assert scores.count() == 4
    assert {s.history_user for s in scores} == {referee}
    assert {s.history_change_reason for s in scores} == {recorded.history_change_reason}


def test_the_audit_page_shows_shootouts_and_roles_to_the_organizer(event, client):
    _tied_preliminary(event)
    referee = event.users["referee"]
    made = dict(zip(event.entries, (5, 4, 3, 2), strict=True))
    record_shootout(event.stage, made, user=referee)
    rita = UserFactory(username="rita")
    staff.grant_role(
        tournament=event.tournament,
        user=rita,
        role=Role.SCORING_TABLE,
        actor=event.users["organizer"],
    )

    event.login(client, "organizer")
    page = client.get(audit_url(event)).content.decode()
    shootouts = page.split("<h2>Shoot-outs</h2>", 1)[1]
    assert "Competitive Singles: Preliminary, shoot-out 1</strong> recorded" in shootouts
    assert f"<td>{referee.get_username()}</td>" in shootouts
    first = event.entries[0]
    assert f"{first.name}: — → 5" in shootouts
    assert "Role <strong>rita: Scoring table</strong> given" in page
    assert f"<td>{event.users['organizer'].get_username()}</td>" in page


@pytest.mark.parametrize("role", ["referee", "head-referee", "scoring-table", "player"])
def test_the_audit_page_is_refused_to_the_officials_and_players(event, client, role):
    event.login(client, role)
    assert client.get(audit_url(event)).status_code == 403


def test_the_audit_page_without_shootouts_says_so(event, client):
    event.login(client, "organizer")
    page = client.get(audit_url(event)).content.decode()
    assert "No shoot-out has been recorded." in page
