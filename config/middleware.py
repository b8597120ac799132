"""Refuse NUL bytes before anything reads the request.

PostgreSQL cannot store or even compare a text with a NUL byte (``A string literal cannot contain
NUL (0x00) characters``), so a slug, a filter value or a form field carrying one would end as a
500 deep inside a query. No value of this app ever contains one, so the request is refused at
the door with a 400 that says where the byte is: JSON under ``/api/``, a plain page elsewhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

NUL = "\x00"


def _form_field_with_nul(request: HttpRequest) -> str | None:
    """The name of the first form field (or uploaded file name) holding a NUL byte."""
    for name, values in request.POST.lists():
        if NUL in name or any(NUL in value for value in values):
            return name.replace(NUL, "\\0")
    for name, upload in request.FILES.items():
        if NUL in (upload.name or ""):
            return name
    return None


def _json_nul(data: object, where: str = "") -> str | None:
    """The path (``a.b[2]``) of the first key or string in a JSON document holding a NUL byte."""
    if isinstance(data, str):
        return where or _("the body") if NUL in data else None
    if isinstance(data, dict):
        for key, value in data.items():
            here = f"{where}.{key}" if where else str(key)
            if NUL in str(key):
                return here.replace(NUL, "\\0")
            found = _json_nul(value, here)
            if found:
                return found
    if isinstance(data, list):
        for index, value in enumerate(data):
            found = _json_nul(value, f"{where}[{index}]")
            if found:
                return found
    return None


def find_nul(request: HttpRequest) -> str | None:
    """Where the request carries a NUL byte, in words, or None."""
    if b"\x00" in unquote_to_bytes(request.path_info) or NUL in request.path_info:
        return _("the address (path)")
    for name, values in request.GET.lists():
        if NUL in name or any(NUL in value for value in values):
            return _("the query parameter %(name)s") % {"name": repr(name.replace(NUL, "\\0"))}
    if request.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return None
    content_type = request.content_type or ""
    if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        try:
            field = _form_field_with_nul(request)
        except (MultiPartParserError, SuspiciousOperation, UnicodeDecodeError):
            return None  # a malformed form: the view's parser refuses it in its own words
        return _("the form field %(name)s") % {"name": repr(field)} if field else None
    if content_type.endswith("json"):
        try:
            data = json.loads(request.body or b"null")
        except (ValueError, UnicodeDecodeError):
            return None  # not JSON at all: the parser refuses it with its own message
        found = _json_nul(data)
        return _("the JSON field %(name)s") % {"name": repr(found)} if found else None
    return None


class RefuseNulBytesMiddleware:
    """400 for any request with a NUL byte in its path, query string, form fields or JSON."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if find_nul(request) is None:
            return self.get_response(request)
        # This runs before LocaleMiddleware: the refusal is worded in the client's language here.
        with translation.override(translation.get_language_from_request(request)):
            message = _(
                "A NUL byte (\\0) is not allowed in %(where)s; remove it and send again."
            ) % {"where": find_nul(request)}
            title = escape(_("Bad request"))
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": message}, status=400)
        return HttpResponseBadRequest(
            f"<!doctype html><title>{title}</title><h1>{title}</h1><p>{escape(message)}</p>"
        )
