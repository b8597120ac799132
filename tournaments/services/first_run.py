"""The first account of an empty site: a one-time setup link and the account it creates.

Why: on a new site nobody can sign in, so nobody could create a tournament or give anyone the
permission to. Whoever runs the server gets a setup link (``manage.py setup_link``, which
``make run DEMO=0`` and the deployment's migrate step run); its page creates the first account,
with the site permission "may create tournaments", and signs it in.

The link carries a token signed with the site's key (``django.core.signing``) and the time it
was made: forging one needs the key, and it stops working after :data:`SETUP_LINK_SECONDS`.
Nothing is stored. The link works only while the site has no account at all, so the account it
creates is what makes it (and every other setup link) stop working: single use by
construction, and never a way into a site that has an account already.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.permissions import ADD_TOURNAMENT

#: How long a setup link works: long enough to open it after starting the server, short
#: enough that an old log line is soon worthless.
SETUP_LINK_SECONDS = 24 * 60 * 60

_SALT = "tournaments.first-run-setup"

#: The refusals, by code: the page answers each with its own status.
FORGED = "forged"
EXPIRED = "expired"
USED = "used"


def needs_first_account() -> bool:
    """Whether the site has no account at all: the one case in which a setup link works."""
    return not get_user_model().objects.exists()


def setup_token() -> str:
    """A new token for a setup link (a random value, signed with the time it was made)."""
    return signing.TimestampSigner(salt=_SALT).sign(secrets.token_urlsafe(9))


def setup_path(token: str) -> str:
    return reverse("first-run-setup", args=[token])


def _already_used() -> ValidationError:
    return ValidationError(
        _(
            "This site has an account already, so its setup links no longer work. Log in, or "
            "ask an organizer of the site for an account."
        ),
        code=USED,
    )


def check_setup_token(token: str) -> None:
    """Refuse, in words saying why, a token this site did not sign, one older than
    :data:`SETUP_LINK_SECONDS`, and any token once an account exists."""
    try:
        signing.TimestampSigner(salt=_SALT).unsign(token, max_age=SETUP_LINK_SECONDS)
    except signing.SignatureExpired:
        hours = SETUP_LINK_SECONDS // 3600
        raise ValidationError(
            ngettext(
                "This setup link has expired: it works for %(hours)s hour after it is printed. "
                "Whoever runs the server makes a new one with “manage.py setup_link”.",
                "This setup link has expired: it works for %(hours)s hours after it is printed. "
                "Whoever runs the server makes a new one with “manage.py setup_link”.",
                hours,
            )
            % {"hours": hours},
            code=EXPIRED,
        ) from None
    except signing.BadSignature:
        raise ValidationError(
            _(
                "This is not a setup link this site made: check that it was copied whole, or "
                "make a new one with “manage.py setup_link”."
            ),
            code=FORGED,
        ) from None
    if not needs_first_account():
        raise _already_used()


def new_setup_path() -> str:
    """The path of a new setup link; refused once the site has an account."""
    if not needs_first_account():
        raise _already_used()
    return setup_path(setup_token())


@transaction.atomic
def create_first_account(
    *, token: str, username: str, password: str, first_name: str = "", last_name: str = ""
) -> AbstractBaseUser:
    """Create the site's first account, allowed to create tournaments, with ``password`` (which
    must pass the site's password validators, as on every form that sets one).

    Two people sending the same link at once must not both get an account: each locks the
    permission's row before it looks for accounts, so the second one waits, then finds the
    first one's account and is refused. (On SQLite the transaction's write lock serialises
    them already.)
    """
    app_label, codename = ADD_TOURNAMENT.split(".")
    permission = Permission.objects.select_for_update().get(
        content_type__app_label=app_label, codename=codename
    )
    check_setup_token(token)
    user = get_user_model()(
        username=(username or "").strip(),
        first_name=(first_name or "").strip(),
        last_name=(last_name or "").strip(),
    )
    user.full_clean(exclude=["password"])
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise ValidationError({"password": exc.messages}) from None
    user.set_password(password)
    user.save()
    user.user_permissions.add(permission)
    return user
