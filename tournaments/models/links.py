"""The private link of an entry: how a player without an account reaches their scorecards."""

import secrets

from django.db import models
from django.utils.translation import gettext

#: Bytes of randomness in a token (43 URL-safe characters): unguessable, short enough for a QR.
TOKEN_BYTES = 32


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class EntryLink(models.Model):
    """One secret token per entry. Whoever opens ``/t/<slug>/me/<token>/`` acts as the entry's
    player on its scorecards (fills its rows, validates its opponents' rows). Renewing replaces
    the token, so every browser that held the old link loses it at its next request."""

    entry = models.OneToOneField(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="private_link"
    )
    token = models.CharField(max_length=64, unique=True, default=new_token)
    renewed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return gettext("private link of %(entry)s") % {"entry": self.entry}
