"""What every API operation may answer besides success, written into the OpenAPI schema.

The views document their successful answers; the refusals come from a few shared places (DRF's
authentication and permissions, throttling, ``tournaments.api.errors`` for service refusals, the
JSON 404 of ``config.errors``), so they are described here once, for every operation, with the
body each one really sends. A client generated from the schema then knows every answer it can
get, and the schema fuzz test (``tests/api/test_schema_fuzz.py``) holds the app to it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

#: ``{"detail": "…"}``: authentication, permission, not found, conflict, throttling, and a
#: service refusal about the request as a whole.
DETAIL = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
#: A refusal of the submitted values: the fields at fault, each with its messages (nested for
#: nested values), or ``detail`` for the request as a whole.
FIELD_ERRORS = {
    "type": "object",
    "additionalProperties": {
        "oneOf": [
            {"type": "string"},
            {"type": "array", "items": {}},
            {"type": "object"},
        ]
    },
}

#: Status, description and body schema of the refusals any operation may answer.
#: The descriptions are translated when the schema is generated, in the request's language.
ERRORS: tuple[tuple[str, str, str], ...] = (
    ("400", _("The request's values are refused: the message says which and why."), "FieldErrors"),
    ("401", _("Sign in first (a session or `Authorization: Token <key>`)."), "ErrorDetail"),
    ("403", _("Signed in, but this role may not do this."), "ErrorDetail"),
    ("404", _("No such object (or not visible to you)."), "ErrorDetail"),
    ("429", _("Too many requests: the detail says when to try again."), "ErrorDetail"),
)
#: Only writes can conflict with stored data (``tournaments.api.errors.Conflict``).
CONFLICT = ("409", _("The stored data changed or still depends on this: reload."), "ErrorDetail")
WRITES = {"post", "put", "patch", "delete"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def add_error_responses(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: document the shared refusals of every operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("ErrorDetail", DETAIL)
    schemas.setdefault("FieldErrors", FIELD_ERRORS)
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in WRITES and method != "get":
                continue
            errors = ERRORS + ((CONFLICT,) if method in WRITES else ())
            responses = operation.setdefault("responses", {})
            # A 400 may carry field errors whatever the view declared: the serializer refuses
            # the body field by field before the view's own checks give a ``detail``.
            if "400" in responses:
                responses["400"]["content"] = {"application/json": {"schema": _ref("FieldErrors")}}
            for code, description, schema in errors:
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": _ref(schema)}},
                    },
                )
    return result


#: A round must say what happened: its points, its board totals, or that time ran out before any
#: disc was shot. No single field is required, so the serializer (``RoundInputSerializer``)
#: cannot say it field by field; the schema says it with ``anyOf`` (a null counts as left out).
ROUND_INPUT_ANY_OF = [
    {"required": ["points"], "properties": {"points": {"type": "array"}}},
    {"required": ["score"], "properties": {"score": {"type": "array"}}},
    {"required": ["time_expired"], "properties": {"time_expired": {"enum": [True]}}},
]


def require_a_round_result(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: a round input needs its points, its board totals
    or ``time_expired: true``, as the API refuses one without any."""
    schemas = result.get("components", {}).get("schemas", {})
    for name in ("RoundInput", "RoundInputRequest"):
        if name in schemas:
            schemas[name]["anyOf"] = ROUND_INPUT_ANY_OF
    return result
