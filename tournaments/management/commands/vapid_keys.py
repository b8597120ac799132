"""``manage.py vapid_keys``: a new VAPID key pair for Web Push, printed as the two lines of
``.env`` that ``config/settings.py`` reads (``VAPID_PRIVATE_KEY``, ``VAPID_PUBLIC_KEY``).

The pair signs every call pushed to the players' phones (``tournaments.push``). Generate it once
per site and keep it: phones subscribed with one public key receive nothing signed by another,
so a new pair means every player taps "Notify me on this phone" again.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management.base import BaseCommand
from django.utils.translation import gettext, gettext_noop
from py_vapid import Vapid01, b64urlencode


def new_pair() -> tuple[str, str]:
    """A fresh key pair as base64url: the private key's 32 bytes, the public key's 65."""
    vapid = Vapid01()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64urlencode(private), b64urlencode(public)


class Command(BaseCommand):
    # argparse cannot print a lazy text: marked here, translated as the parser is made.
    help = gettext_noop("Print a new VAPID key pair for Web Push, as lines for .env.")

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.description = gettext(self.help)
        return parser

    def handle(self, *args, **options) -> None:
        private, public = new_pair()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
