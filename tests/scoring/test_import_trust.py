"""A tournament file is data from outside: what an import may never do with it.

The attacks of the reliability audit of 2026-11-28, each performed and refused:

- B1, the account takeover: an organizer of another event forges their own export (a user line,
  a role line and an "account-created" staff-log line naming someone else's account, the
  checksum made again), imports it, and asks the staff page for a set-password link to that
  account: no role, no link, and the staff page says why;
- a file this site signed, edited: refused, saying so;
- m7: a 5,000-character first name: refused naming the line and the field;
- M4: the export carries no account's name or e-mail address, nor a player's claimed_with.

They run on SQLite and on PostgreSQL (``DATABASE_URL``) alike.
"""

from __future__ import annotations

import hashlib
import io
import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from scoring.exports.services import ImportFileError, export_tournament, import_tournament
from tests.factories import PlayerFactory, allow_creating_tournaments
from tournaments.models import Invitation, Player, RoleChange, Tournament, TournamentRole
from tournaments.services import staff
from tournaments.services.setup import create_tournament
from tournaments.views.organizer.staff import LINK_KEY

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def export_text(tournament: Tournament) -> str:
    out = io.StringIO()
    export_tournament(tournament, out)
    return out.getvalue()


def resealed(lines: list[str], *, keep_signature: bool = False) -> str:
    """The file with its SHA-256 made again, as anyone can; without this site's signature
    unless ``keep_signature`` (which then no longer matches)."""
    text = "".join(line + "\n" for line in lines[:-1])
    end = json.loads(lines[-1])
    end["end"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    if not keep_signature:
        end["end"].pop("signature")
        end["end"].pop("signed_by")
    return text + json.dumps(end) + "\n"


@pytest.fixture
def demo():
    """The demo's organizer creates ``victimref`` as head referee on the demo's staff page
    (no password yet: the set-password link waits for its owner), and lets ``otherorg``
    create tournaments; ``otherorg`` runs an event of their own."""
    organizer = User.objects.create_user("organizer", password="demo")
    allow_creating_tournaments(organizer)
    home = create_tournament(name="Demo Club Open", slug="demo-club-open", user=organizer)
    victim, _path = staff.create_account(
        tournament=home,
        username="victimref",
        first_name="Vic",
        last_name="Tim",
        role=Role.HEAD_REFEREE,
        actor=organizer,
    )
    attacker = User.objects.create_user("otherorg", password="demo")
    allow_creating_tournaments(attacker)
    other = create_tournament(name="Other Open", slug="other-open", user=attacker)
    PlayerFactory(tournament=other, number=1)
    return home, victim, attacker, other


def forged(text: str, victim: str) -> list[str]:
    """The audit's forgery: a user line, a role line and an "account-created" staff-log line
    (before the first history line) naming ``victim``."""
    lines = text.splitlines()
    user_at = next(n for n, line in enumerate(lines) if '"model":"auth.user"' in line)
    lines.insert(user_at, json.dumps({"model": "auth.user", "id": victim}))
    role = {
        "model": "tournaments.tournamentrole",
        "id": 99,
        "fields": {"tournament": 1, "user": victim, "role": "referee"},
    }
    log = {
        "model": "tournaments.rolechange",
        "id": 99,
        "fields": {
            "tournament": 1,
            "at": "2026-11-28T10:00:00+00:00",
            "actor": None,
            "actor_username": "otherorg",
            "user": victim,
            "username": victim,
            "action": "account-created",
            "role": "",
        },
    }
    history_at = next(
        n for n, line in enumerate(lines) if '"model":"tournaments.historical' in line
    )
    lines[history_at:history_at] = [json.dumps(role), json.dumps(log)]
    return lines


def test_the_import_takeover_is_refused_at_every_step(demo, client):
    """B1, the whole chain: the forged file imports as untrusted data (no role, no account
    linked); the staff page's link button posted with the victim's id is refused in words;
    no set-password link is made; the victim's account is as it was."""
    home, victim, attacker, _other = demo
    client.force_login(attacker)
    text = client.get(reverse("scoring:export", args=["other-open"])).content.decode()
    file = io.BytesIO(resealed(forged(text, "victimref")).encode())
    file.name = "other-open.jsonl"

    uploaded = client.post(
        reverse("tournament-import"), {"file": file, "slug": "other-open-forged"}
    )

    assert uploaded.status_code == 302
    copy = Tournament.objects.get(slug="other-open-forged")
    assert not TournamentRole.objects.filter(tournament=copy, user=victim).exists()
    assert not Invitation.objects.filter(tournament=copy).exists()  # unsigned: not even asked
    # The staff log line came as text; it names no account.
    line = RoleChange.objects.get(tournament=copy, action=RoleChange.Action.ACCOUNT_CREATED)
    assert line.username == "victimref" and line.user is None and line.actor is None
    page = client.get(reverse("tournaments:manage-staff", args=["other-open-forged"]))
    assert f'name="user" value="{victim.pk}"' not in page.content.decode()

    link = client.post(
        reverse("tournaments:manage-staff", args=["other-open-forged"]),
        {"action": "link", "user": victim.pk},
        follow=True,
    )

    assert link.status_code == 200
    words = [str(m) for m in link.context["messages"]]
    assert words == ["That account holds no role at Other Open; nothing was done."]
    assert LINK_KEY not in client.session
    assert "/accounts/reset/" not in link.content.decode()
    assert (
        not RoleChange.objects.filter(user=victim, action=RoleChange.Action.LINK_ISSUED)
        .exclude(tournament=home)
        .exists()
    )
    victim.refresh_from_db()
    assert not victim.has_usable_password() and victim.last_login is None
    assert list(TournamentRole.objects.filter(user=victim).values_list("tournament", "role")) == [
        (home.pk, Role.HEAD_REFEREE)
    ]
    # Even called directly, the service refuses an account it did not create and holds no role.
    with pytest.raises(Exception, match="was not created on this staff page"):
        staff.renew_set_password_link(tournament=copy, user=victim, actor=attacker)


def test_the_forgery_with_its_signature_kept_is_refused_as_edited(demo):
    """The same forgery keeping this site's signature (the file claims to be this site's own
    export): refused whole, saying it was edited, nothing imported."""
    _home, _victim, attacker, other = demo
    lines = forged(export_text(other), "victimref")
    with pytest.raises(ImportFileError) as refused:
        import_tournament(resealed(lines, keep_signature=True), slug="forged", user=attacker)
    message = refused.value.messages[0]
    assert message.startswith(f"Line {len(lines)}: the file says this site signed it")
    assert "edited after it was exported" in message
    assert not Tournament.objects.filter(slug="forged").exists()


def test_a_signed_file_edited_by_one_character_is_refused(demo):
    _home, _victim, attacker, other = demo
    lines = export_text(other).splitlines()
    player = next(n for n, line in enumerate(lines) if '"tournaments.player"' in line)
    lines[player] = lines[player].replace('"number":1', '"number":2')
    with pytest.raises(ImportFileError, match="edited after it was exported"):
        import_tournament(resealed(lines, keep_signature=True), slug="edited", user=attacker)
    # The same file as exported imports, signed.
    result = import_tournament(export_text(other), slug="as-exported", user=attacker)
    assert result.signed


def test_a_signed_file_never_grants_to_an_existing_account(demo):
    """Another tournament's organizer exports their own event with this site's signature: its
    roles become invitations, which grant nothing until their owners accept, signed in."""
    _home, _victim, attacker, other = demo
    staff.create_account(
        tournament=other,
        username="helper",
        first_name="H",
        last_name="Elper",
        role=Role.REFEREE,
        actor=attacker,
    )
    result = import_tournament(export_text(other), slug="signed-copy", user=attacker)
    copy = result.tournament
    helper = User.objects.get(username="helper")
    assert result.signed and result.invited == 1
    assert list(TournamentRole.objects.filter(tournament=copy).values_list("user", "role")) == [
        (attacker.pk, Role.ORGANIZER)
    ]
    invitation = Invitation.objects.get(tournament=copy)
    assert (invitation.user, invitation.role, invitation.status) == (helper, "referee", "pending")
    with pytest.raises(Exception, match="was not created on this staff page"):
        staff.renew_set_password_link(tournament=copy, user=helper, actor=attacker)


def test_a_five_thousand_character_first_name_is_refused_with_line_and_field(demo):
    """m7: the field's own validators run on every value of a file (SQLite would store it)."""
    _home, _victim, attacker, other = demo
    lines = export_text(other).splitlines()
    at = next(n for n, line in enumerate(lines) if '"tournaments.player"' in line)
    player = json.loads(lines[at])
    player["fields"]["first_name"] = "A" * 5000
    lines[at] = json.dumps(player)
    with pytest.raises(ImportFileError) as refused:
        import_tournament(resealed(lines), slug="long-name", user=attacker)
    message = refused.value.messages[0]
    assert message.startswith(f"Line {at + 1}: tournaments.player 1: first_name 'AAA")
    assert "at most 100 characters (it has 5000)" in message
    assert len(message) < 300
    assert not Tournament.objects.filter(slug="long-name").exists()
    assert not Player.objects.filter(first_name__startswith="AAAA").exists()


def test_the_export_carries_no_name_or_email_of_any_account(demo):
    """M4: a player's account (linked by its owner) and a staff account appear by username
    only; a player's claimed_with (a private link's token) never appears."""
    _home, _victim, attacker, other = demo
    linked = User.objects.create_user(
        "headref", first_name="Hedda", last_name="Ref", email="head.referee@example.org"
    )
    player = other.players.get()
    player.user, player.claimed_with = linked, "secret-claim-token"
    player.save()
    attacker.email, attacker.first_name = "org@example.org", "Orla"
    attacker.save()

    text = export_text(other)

    for secret in ("head.referee@example.org", "Hedda", "org@example.org", "Orla"):
        assert secret not in text
    assert "secret-claim-token" not in text and "claimed_with" not in text
    users = [json.loads(line) for line in text.splitlines() if '"model":"auth.user"' in line]
    assert users == [
        {"model": "auth.user", "id": "headref"},
        {"model": "auth.user", "id": "otherorg"},
    ]


def test_a_claim_token_in_a_file_is_not_imported(demo):
    _home, _victim, attacker, other = demo
    lines = export_text(other).splitlines()
    at = next(n for n, line in enumerate(lines) if '"tournaments.player"' in line)
    player = json.loads(lines[at])
    player["fields"]["claimed_with"] = "planted-token"
    lines[at] = json.dumps(player)
    copy = import_tournament(resealed(lines), slug="planted", user=attacker).tournament
    assert copy.players.get().claimed_with == ""
