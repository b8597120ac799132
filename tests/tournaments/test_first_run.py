"""Rule: on a site with no account at all, a one-time setup link (``manage.py setup_link``)
creates the first account, allowed to create tournaments, and signs it in; once any account
exists, and for a link this site never signed or one that ran out, it is refused in words.
The empty front page tells whoever runs the server where the link is, without giving one."""

from __future__ import annotations

import re
import time
from io import StringIO
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from scoring.scorecards.codes import signing_code
from tests.factories import UserFactory
from tournaments.services import first_run

pytestmark = pytest.mark.django_db

ACCOUNT = {
    "username": "olga",
    "first_name": "Olga",
    "last_name": "Nowak",
    "password": "crokinole-2026",
    "password2": "crokinole-2026",
}
USED = "This site has an account already, so its setup links no longer work."


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def printed_link(*args: str) -> str:
    """The path of the link ``manage.py setup_link`` prints, checking it prints one."""
    out = StringIO()
    call_command("setup_link", *args, stdout=out)
    found = re.findall(r"https?://\S+", out.getvalue())
    assert len(found) == 1, out.getvalue()
    return found[0]


def test_the_command_prints_a_link_that_creates_a_first_organizer_once() -> None:
    link = printed_link("--url", "https://crokinole.example.org/")
    assert link.startswith("https://crokinole.example.org/setup/"), link
    path = urlsplit(link).path

    client = Client()
    form = client.get(path)
    assert form.status_code == 200
    assert 'name="password2"' in form.content.decode()

    answer = client.post(path, ACCOUNT)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("tournament-create")
    olga = User.objects.get()
    assert (olga.username, olga.first_name, olga.last_name) == ("olga", "Olga", "Nowak")
    assert olga.has_perm("tournaments.add_tournament")
    assert not olga.is_superuser and not olga.is_staff
    assert olga.check_password("crokinole-2026")
    # Signed in: the new-tournament page opens, and says so.
    new = client.get(reverse("tournament-create"))
    assert new.status_code == 200
    assert "your account may create tournaments" in new.content.decode()

    # The same link again, from another browser: refused in words, nothing created.
    again = Client()
    for refused in (again.get(path), again.post(path, {**ACCOUNT, "username": "mallory"})):
        assert refused.status_code == 410
        assert USED in refused.content.decode()
        assert 'name="password"' not in refused.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["olga"]


def test_no_link_is_made_once_an_account_exists() -> None:
    UserFactory(username="anyone")
    with pytest.raises(CommandError, match="has an account already"):
        call_command("setup_link", stdout=StringIO())
    out = StringIO()
    call_command("setup_link", "--if-empty", stdout=out)
    assert "no setup link is needed" in out.getvalue()
    assert "/setup/" not in out.getvalue()


def test_a_link_made_before_any_account_is_refused_once_one_exists() -> None:
    path = urlsplit(printed_link()).path
    UserFactory(username="created-elsewhere")
    client = Client()
    assert client.get(path).status_code == 410
    refused = client.post(path, ACCOUNT)
    assert refused.status_code == 410
    assert USED in refused.content.decode()
    assert not User.objects.filter(username="olga").exists()


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),  # signature altered
        lambda token: "first:1abcde:" + token.rsplit(":", 1)[1],  # value swapped
        lambda token: signing_code(1),  # another of the site's signed codes
        lambda token: "not-a-token",
    ],
)
def test_a_forged_link_is_refused_in_words(forge) -> None:
    token = forge(first_run.setup_token())
    response = Client().post(reverse("first-run-setup", args=[token]), ACCOUNT)
    assert response.status_code == 404
    assert "This is not a setup link this site made" in response.content.decode()
    assert not User.objects.exists()


def test_an_expired_link_is_refused_in_words(monkeypatch) -> None:
    path = urlsplit(printed_link()).path
    later = time.time() + first_run.SETUP_LINK_SECONDS + 60
    # Only the signatures' clock moves on: the link was made a day and a minute ago.
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: later))
    response = Client().post(path, ACCOUNT)
    assert response.status_code == 410
    text = response.content.decode()
    assert "This setup link has expired: it works for 24 hours after it is printed." in text
    assert "manage.py setup_link" in text
    assert not User.objects.exists()


def test_the_password_validators_apply_and_nothing_is_created() -> None:
    path = urlsplit(printed_link()).path
    client = Client()
    short = client.post(path, {**ACCOUNT, "password": "crok", "password2": "crok"})
    assert short.status_code == 200
    assert "This password is too short" in short.content.decode()
    mismatch = client.post(path, {**ACCOUNT, "password2": "something-else"})
    assert mismatch.status_code == 200
    assert "The two password fields didn\u2019t match." in mismatch.content.decode()
    bad_name = client.post(path, {**ACCOUNT, "username": "olga nowak!"})
    assert bad_name.status_code == 200
    assert "Enter a valid username" in bad_name.content.decode()
    assert not User.objects.exists()
    # The link still works after those mistakes.
    assert client.post(path, ACCOUNT).status_code == 302


def test_an_address_locked_out_for_wrong_passwords_is_locked_out_here_too(settings) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    path = urlsplit(printed_link()).path
    client = Client(REMOTE_ADDR="198.51.100.60")
    for n in range(3):
        wrong = client.post(reverse("login"), {"username": f"guess{n}", "password": "x"})
        assert wrong.status_code in (200, 429)
    refused = client.post(path, ACCOUNT)
    assert refused.status_code == 429
    assert "Too many failed sign-ins from this address" in refused.content.decode()
    assert not User.objects.exists()
    # Another address is not concerned.
    assert Client(REMOTE_ADDR="198.51.100.61").post(path, ACCOUNT).status_code == 302


def test_the_empty_front_page_says_where_the_setup_link_is_without_giving_one() -> None:
    page = Client().get(reverse("home")).content.decode()
    assert "No account exists on this site yet" in page
    assert "manage.py setup_link" in page
    assert "make run DEMO=0" in page
    assert "administrator" not in page
    assert "/setup/" not in page

    UserFactory(username="first")
    page = Client().get(reverse("home")).content.decode()
    assert "No account exists on this site yet" not in page
    assert "ask the site's administrator" in page


def test_the_link_names_the_site_of_the_settings(settings) -> None:
    """In production the link is HTTPS on the first name of ALLOWED_HOSTS (a leading dot,
    meaning the subdomains too, is dropped); in development, the development server."""
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [".crokinole.example.org", "www.example.org"]
    assert printed_link().startswith("https://crokinole.example.org/setup/")
    settings.DEBUG = True
    assert printed_link().startswith("http://127.0.0.1:8000/setup/")
