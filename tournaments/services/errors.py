"""Refusals the services share, beyond Django's ``ValidationError`` and ``PermissionDenied``."""

from django.core.exceptions import ValidationError


class StillInUse(ValidationError):
    """A delete refused because saved results or registrations still rest on the object.

    A ``ValidationError`` like every other refusal (a page shows its message as it shows any
    other), with its own class so that the API can answer 409: the request was well formed, the
    stored data is what forbids it.
    """
