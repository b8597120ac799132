"""How refusals from models and services reach an API client.

Services raise Django's ``ValidationError`` and ``PermissionDenied`` with messages that say what
is wrong and where; the default DRF handler would turn a ``ValidationError`` into a 500. Here
each refusal becomes the status a client can act on: 400 with the message (or the field errors,
keyed as the service keys them, so the words are the ones the organizer pages show), 409 when
the data changed underneath the request or saved results still rest on what is to be deleted,
404 for something that does not exist.
"""

from django.core.exceptions import NON_FIELD_ERRORS, ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.db.models import ProtectedError
from django.utils.translation import gettext, gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response

from tournaments.actions import Kind, Refused
from tournaments.services.errors import StillInUse


class Conflict(exceptions.APIException):
    """409: the request was fine but the stored data no longer allows it."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("The data changed since you read it; reload it and try again.")
    default_code = "conflict"


def validation_error(exc: DjangoValidationError) -> exceptions.ValidationError:
    """Field errors stay keyed by field; a message about the whole request is ``detail``."""
    if hasattr(exc, "error_dict"):
        errors = {
            ("non_field_errors" if field == NON_FIELD_ERRORS else field): messages
            for field, messages in exc.message_dict.items()
        }
        return exceptions.ValidationError(errors)
    return exceptions.ValidationError({"detail": " ".join(exc.messages)})


def refused(exc: Refused) -> exceptions.APIException:
    """A step's refusal (``tournaments.actions.Refused``) as its kind says: 403 with the words
    of who may, 400 with the field at fault (``detail`` when none), 409 for the stored state or
    a stale read, 404."""
    if exc.kind == Kind.FORBIDDEN:
        return exceptions.PermissionDenied(exc.text or None)
    if exc.kind in (Kind.CONFLICT, Kind.STALE):
        return Conflict(exc.text)
    if exc.kind == Kind.NOT_FOUND:
        return exceptions.NotFound(exc.text)
    if exc.field:
        return exceptions.ValidationError({exc.field: [exc.text]})
    return exceptions.ValidationError({"detail": exc.text})


def as_api_exception(exc: Exception) -> Exception:
    """The DRF exception for a model or service refusal; anything else is returned unchanged.

    The one handler of the API: a refusal keeps the service's words (who may, or why not: one's
    own game), where DRF would put a generic sentence."""
    if isinstance(exc, Refused):
        return refused(exc)
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied(str(exc) or None)
    if isinstance(exc, StillInUse):
        return Conflict(" ".join(exc.messages))
    if isinstance(exc, DjangoValidationError):
        return validation_error(exc)
    if isinstance(exc, ObjectDoesNotExist):
        return exceptions.NotFound(str(exc) or gettext("Not found."))
    if isinstance(exc, ProtectedError):
        used_by = sorted({str(obj._meta.verbose_name_plural) for obj in exc.protected_objects})
        return Conflict(
            gettext("This is still used by %(objects)s; remove or change those first.")
            % {"objects": ", ".join(used_by)}
        )
    if isinstance(exc, IntegrityError):
        return Conflict(
            gettext(
                "This conflicts with data saved a moment ago (a duplicate, or something it "
                "refers to was removed). Reload and try again; nothing was changed."
            )
        )
    return exc


class ServiceErrorsMixin:
    """For API views: translate model and service refusals before DRF's handler sees them."""

    def as_api_exception(self, exc: Exception) -> Exception:
        return as_api_exception(exc)

    def handle_exception(self, exc: Exception) -> Response:
        return super().handle_exception(self.as_api_exception(exc))  # type: ignore[misc]
