"""Deployment checks that stop ``manage.py check --deploy`` (compose's ``migrate`` runs it first).

Django's own check only warns (W009) about a weak ``SECRET_KEY`` and says nothing of a wildcard
``ALLOWED_HOSTS``; a warning lets ``check --deploy && migrate`` go on and the site start with a
key anyone can guess (sessions, password-reset links and private links forged) or answer to any
``Host`` (links the API builds pointing at an attacker's name). Both are errors here.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register

# The messages are for the operator who runs `manage.py check --deploy`, in English like
# Django's own checks: they are not translated.

#: Django's own thresholds for a key that "has not been generated".
MIN_LENGTH = 50
MIN_UNIQUE_CHARACTERS = 5
#: Values copied from examples or defaults, whatever their length.
KNOWN_KEYS = {
    "change-me",
    "changeme",
    "secret",
    "secret-key",
    "your-secret-key",
    "dev-only-insecure-key-used-because-debug-is-on",
    "tests-only-secret-key-not-for-any-deployment-0123456789abcdef",
}


def weak_key_reason(key: str) -> str | None:
    """Why ``key`` must not sign anything in production, or None for a generated one."""
    if key.strip().lower() in KNOWN_KEYS:
        return "it is a well-known example value"  # untranslated: check
    if key.startswith("django-insecure-"):
        return (
            "it is the development key of Django's startproject"  # untranslated: check
            " (django-insecure-)"
        )
    if len(key) < MIN_LENGTH:
        length = len(key)
        return f"it has {length} characters, fewer than {MIN_LENGTH}"  # untranslated: check
    if len(set(key)) < MIN_UNIQUE_CHARACTERS:
        fewest = MIN_UNIQUE_CHARACTERS
        return f"it has fewer than {fewest} different characters"  # untranslated: check
    return None


@register(Tags.security, deploy=True)
def check_secret_key(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    reason = weak_key_reason(settings.SECRET_KEY)
    if reason is None:
        return []
    return [
        Error(
            f"SECRET_KEY is weak: {reason}.",  # untranslated: check
            hint=(
                "Set SECRET_KEY to a long random string kept secret,"  # untranslated: check
                " e.g. the output of "
                'python3 -c "import secrets; print(secrets.token_urlsafe(50))".'
            ),
            id="crokinole.E001",
        )
    ]


@register(Tags.security, deploy=True)
def check_allowed_hosts(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    if "*" not in settings.ALLOWED_HOSTS:
        return []
    return [
        Error(
            "ALLOWED_HOSTS contains '*': the site would answer"  # untranslated: check
            " to any Host header, and build its links with it.",
            hint="Set ALLOWED_HOSTS to the site's host names,"  # untranslated: check
            " comma-separated.",
            id="crokinole.E002",
        )
    ]
