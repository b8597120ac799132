"""The two codes a scorecard hands to other people, and why neither is an identity.

A printed card goes across the board to be signed, and a phone is held out to the opponent:
whatever they carry reaches other hands. So neither carries the owner's private link:

- the **card code** (the QR printed on every card) names a card, signed with the site's key so
  that nobody can make one for a card they were not handed; it opens the card to read, and lets
  whoever proves to be the opponent on their own device (their own private link or login) sign it;
- the **signing code** (the QR on the owner's phone, next to a row waiting for validation) names
  one row for a few minutes, and leads the opponent's own phone to that row.

Both are signatures over ids (``django.core.signing``): forging one needs the site's key, and
holding one grants nothing the holder's own identity does not already allow.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.urls import reverse

#: How long the code on the owner's phone leads to the row: long enough to hand the phone
#: across the board, short enough that a photograph of it is soon worthless.
SIGNING_CODE_SECONDS = 20 * 60

_CARD_SALT = "scoring.card-code"
_SIGN_SALT = "scoring.signing-code"


@dataclass(frozen=True)
class CardCode:
    stage_id: int
    entry_id: int


def card_code(stage_id: int, entry_id: int) -> str:
    return signing.Signer(salt=_CARD_SALT).sign(f"{stage_id}.{entry_id}")


def card_scan_path(slug: str, stage_id: int, entry_id: int) -> str:
    """The path the QR of a printed card opens."""
    return reverse("scoring:card_scan", args=[slug, card_code(stage_id, entry_id)])


def read_card_code(code: str) -> CardCode | None:
    """The card a code names, or None if it was not made by this site."""
    try:
        value = signing.Signer(salt=_CARD_SALT).unsign(code)
        stage_id, entry_id = (int(part) for part in value.split("."))
    except (signing.BadSignature, ValueError):
        return None
    return CardCode(stage_id=stage_id, entry_id=entry_id)


def signing_code(row_id: int) -> str:
    return signing.TimestampSigner(salt=_SIGN_SALT).sign(str(row_id))


def signing_path(slug: str, row_id: int) -> str:
    """The path the QR on the owner's phone opens (valid :data:`SIGNING_CODE_SECONDS`)."""
    return reverse("scoring:sign_scan", args=[slug, signing_code(row_id)])


class ExpiredCode(Exception):
    """A signing code older than :data:`SIGNING_CODE_SECONDS`."""


def read_signing_code(code: str) -> int | None:
    """The row a signing code names; None if the site did not make it; :class:`ExpiredCode` if
    it is too old."""
    try:
        return int(
            signing.TimestampSigner(salt=_SIGN_SALT).unsign(code, max_age=SIGNING_CODE_SECONDS)
        )
    except signing.SignatureExpired:
        raise ExpiredCode from None
    except (signing.BadSignature, ValueError):
        return None
