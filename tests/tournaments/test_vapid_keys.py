"""``manage.py vapid_keys`` prints a pair the push code can sign with (tournaments.push)."""

import base64
from io import StringIO

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management import call_command


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_the_command_prints_a_matching_pair_as_env_lines():
    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    private = _unb64(lines["VAPID_PRIVATE_KEY"])
    public = _unb64(lines["VAPID_PUBLIC_KEY"])
    assert len(private) == 32
    assert len(public) == 65 and public[0] == 4  # an uncompressed P-256 point
    key = ec.derive_private_key(int.from_bytes(private, "big"), ec.SECP256R1())
    derived = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    assert derived == public


def test_two_runs_give_two_pairs():
    first, second = StringIO(), StringIO()
    call_command("vapid_keys", stdout=first)
    call_command("vapid_keys", stdout=second)
    assert first.getvalue() != second.getvalue()
