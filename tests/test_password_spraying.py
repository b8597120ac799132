"""One password tried across many accounts from one address is refused, besides the lockout of
one account from one address (tests/test_security_settings.py).

The counts are django-axes' rows in the test database, as in production: no Redis is involved,
so the limit holds with Redis down as well.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

ADDRESS_LOCKED = (
    "Too many failed sign-ins from this address: try again in 15 minutes, or from another "
    "network (a phone on mobile data, for example)."
)


@pytest.fixture
def accounts(db, settings) -> list[User]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 12
    return [User.objects.create_user(f"member{n}", password=f"own-{n}") for n in range(20)]


def test_spraying_the_login_page_is_refused_for_the_address(accounts) -> None:
    client = Client(REMOTE_ADDR="198.51.100.20")
    url = reverse("login")
    answers = [
        client.post(url, {"username": user.username, "password": "Spring2026!"})
        for user in accounts[:14]
    ]
    statuses = [a.status_code for a in answers]
    # Wrong passwords, one per account; the one that reaches the limit is refused already.
    assert statuses[:11] == [200] * 11, statuses
    assert set(statuses[11:]) == {429}, statuses
    # Even the right password of an account never tried is refused from this address.
    right = client.post(url, {"username": "member19", "password": "own-19"})
    assert right.status_code == 429
    assert ADDRESS_LOCKED in right.content.decode()
    assert right["Retry-After"] == "900"
    # Another address is not concerned.
    elsewhere = Client(REMOTE_ADDR="198.51.100.21")
    assert elsewhere.post(url, {"username": "member19", "password": "own-19"}).status_code == 302


def test_spraying_the_token_endpoint_is_refused_for_the_address(accounts) -> None:
    api = APIClient(REMOTE_ADDR="198.51.100.30")
    url = reverse("api:token")
    answers = [
        api.post(url, {"username": user.username, "password": "Spring2026!"}, format="json")
        for user in accounts[:14]
    ]
    statuses = [a.status_code for a in answers]
    assert statuses[:11] == [400] * 11, statuses
    assert set(statuses[11:]) == {429}, statuses
    right = api.post(url, {"username": "member19", "password": "own-19"}, format="json")
    assert right.status_code == 429
    assert right.json() == {"detail": ADDRESS_LOCKED}


def test_a_hall_of_players_signing_in_right_is_never_refused(accounts) -> None:
    """Right passwords from one shared address count nothing; a few typos stay under the
    limit."""
    hall = Client(REMOTE_ADDR="198.51.100.40")
    url = reverse("login")
    for n, user in enumerate(accounts):
        if n % 4 == 0:
            hall.post(url, {"username": user.username, "password": "typo"})
        signed_in = hall.post(url, {"username": user.username, "password": f"own-{n}"})
        assert signed_in.status_code == 302, (user.username, signed_in.status_code)
        hall.logout()
