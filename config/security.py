"""What a client sees when the guards of ``config/settings.py`` stop it.

django-axes counts wrong passwords per account and address and refuses the pair for a while once
there are too many. Trying one password across many accounts (password spraying) never reaches
that limit for any one account, so :class:`AddressLockoutHandler` also refuses an address once
its wrong passwords over all accounts reach ``LOGIN_ADDRESS_FAILURE_LIMIT`` (higher, since a club
hall's players may share one address). The counts are axes' own rows in the database, so every
worker process sees them, with Redis down too.

This module gives those refusals their message, as the login page with status 429 for a browser
and as ``{"detail": ...}`` with status 429 for the API (the token endpoint's view is here), and
tells axes which address a request comes from (the one DRF's throttling counts by).
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy, ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

LOCKED_OUT = status.HTTP_429_TOO_MANY_REQUESTS


def lockout_minutes() -> int:
    """The wait, in whole minutes (at least one), as configured by ``LOGIN_LOCKOUT_MINUTES``."""
    return max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


class AddressLockoutHandler(AxesDatabaseHandler):
    """Axes' database handler, also locking out an address with too many wrong passwords over
    all accounts (``LOGIN_ADDRESS_FAILURE_LIMIT``).

    Axes compares one count with one limit (``AXES_FAILURE_LIMIT``); the address's count is
    turned into that scale here: once it reaches its own limit, the count given to axes is at
    least axes' limit, so axes refuses the sign-in (and every later one from that address until
    the cool-off has passed) through its usual path, and the request is marked for the message.
    """

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        failures = super().get_failures(request, credentials)
        address = getattr(request, "axes_ip_address", None)
        if not address:
            return failures
        recent = AccessAttempt.objects.filter(
            ip_address=address,
            attempt_time__gte=request.axes_attempt_time - settings.AXES_COOLOFF_TIME,
        )
        by_address = recent.aggregate(n=Sum("failures_since_start"))["n"] or 0
        if by_address >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            request.axes_address_locked_out = True
            return max(failures, settings.AXES_FAILURE_LIMIT)
        return failures


def lockout_message(*, address: bool = False) -> str:
    """The one sentence a locked-out sign-in gets, on the login page and from the API, saying
    who can lift it: an account's lockout is lifted by an organizer of the tournament, from its
    staff page (``tournaments.staff_actions.unlock_login``), or by waiting. With ``address``,
    the lockout of the whole address (many accounts tried from it), which only time lifts: it
    is not any one account's, and another network (a phone's mobile data) is not concerned."""
    minutes = lockout_minutes()
    if address:
        return ngettext(
            "Too many failed sign-ins from this address: try again in %(minutes)s minute, or "
            "from another network (a phone on mobile data, for example).",
            "Too many failed sign-ins from this address: try again in %(minutes)s minutes, or "
            "from another network (a phone on mobile data, for example).",
            minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "Too many failed sign-ins for this account from this address: ask an organizer of "
        "your tournament to unlock it from the staff page, or wait %(minutes)s minute.",
        "Too many failed sign-ins for this account from this address: ask an organizer of "
        "your tournament to unlock it from the staff page, or wait %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def _retry_after() -> dict[str, str]:
    return {"Retry-After": str(int(settings.AXES_COOLOFF_TIME.total_seconds()))}


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or not request.accepts("text/html")


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the login page again, with the lockout message, status 429.

    Axes calls it for a sign-in it refused through Django's own request (the login page, the
    admin's login); the API's token endpoint answers in ``TokenView``.
    """
    message = lockout_message(address=getattr(request, "axes_address_locked_out", False))
    if _wants_json(request):
        return JsonResponse({"detail": message}, status=LOCKED_OUT, headers=_retry_after())
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    context = {
        "form": AuthenticationForm(request, initial={"username": username}),
        "locked_out": message,
        "next": request.POST.get("next", request.GET.get("next", "")),
    }
    response = render(request, "registration/login.html", context, status=LOCKED_OUT)
    for header, value in _retry_after().items():
        response[header] = value
    return response


class LockoutSerializer(serializers.Serializer):
    """The body of a lockout: one sentence saying how long to wait."""

    detail = serializers.CharField()


class IssuedTokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class TokenView(ObtainAuthToken):
    """``POST /api/auth/token/``: DRF's token for a username and password, counted by django-axes.

    A wrong password is answered, not raised, so the request's transaction keeps axes' record
    of it (DRF rolls back on a raised error); a sign-in the lockout refused, even with the right
    password, is a 429 with the lockout message (axes marks the DRF request, which Django's
    middleware never sees).
    """

    @extend_schema(
        summary=gettext_lazy("Get a token for a username and password"),
        description=gettext_lazy(
            "Send the token afterwards as `Authorization: Token <key>`. Too many wrong passwords "
            "for one account from one address lock that pair out for a while (429, with the "
            "wait in `detail` and `Retry-After`), the right password included."
        ),
        request=AuthTokenSerializer,
        responses={
            200: IssuedTokenSerializer,
            400: OpenApiResponse(
                description=gettext_lazy("Unable to log in with the given credentials.")
            ),
            429: OpenApiResponse(
                LockoutSerializer,
                description=gettext_lazy(
                    "Too many failed sign-ins for this account from this address."
                ),
            ),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        if serializer.is_valid():
            token, _ = Token.objects.get_or_create(user=serializer.validated_data["user"])
            return Response({"token": token.key})
        if getattr(request, "axes_locked_out", False):
            address = getattr(request, "axes_address_locked_out", False)
            return Response(
                {"detail": lockout_message(address=address)},
                status=LOCKED_OUT,
                headers=_retry_after(),
            )
        return Response(serializer.errors, status=status.HTTP_400_BAD_REQUEST)


def client_address(request: HttpRequest) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the address DRF's throttling uses, trusting
    ``X-Forwarded-For`` only as far as ``TRUSTED_PROXY_COUNT`` proxies append to it."""
    return BaseThrottle().get_ident(request) or None
