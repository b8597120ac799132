"""Exporting one tournament to a file and importing it back: the backup and restore of an event.

The file
--------
JSON Lines, UTF-8, one JSON object a line::

    {"format": "crokinole-tournament", "version": 1, "exported_at": "...", "tournament": "slug"}
    {"model": "auth.user", "id": "anna"}
    {"model": "tournaments.tournament", "id": 1, "fields": {...}}
    {"model": "tournaments.category", "id": 1, "fields": {"tournament": 1, ...}}
    ...
    {"model": "tournaments.historicalcategory", "fields": {"id": 1, "tournament": 1, ...}}
    ...
    {"end": {"objects": {"tournaments.category": 2, ...}, "sha256": "...",
             "signed_by": "...", "signature": "..."}}

The fields of every object are Django's own serialisation of the model (``django.core.
serializers``, the ``python`` serializer), so a field added to a model travels without a change
here; which models go in, and in which order, is found by walking the foreign keys of the
``tournaments`` and ``scoring`` apps (``scoring.exports.plan``). Objects carry numbers that are
local to the file (1, 2, 3… per model, in the order they were created), not the database's
primary keys, and refer to each other by those numbers; users are referred to by username. Two
exports of the same tournament are therefore identical line for line, whatever database they
were taken from, except the moment of export on the first line (and the checksum that covers
it). The last line holds the number of objects of each model and a SHA-256 of every line
before it, so a file cut short or damaged after export is refused, never half read. Anyone can
recompute a SHA-256, so the last line also holds the site's signature: an HMAC of the same lines
with a key derived from ``SECRET_KEY`` (``signature``), and which site's key made it
(``signed_by``, a fingerprint of the key that does not reveal it). A file that says it was
signed here and does not match its signature was edited: it is refused.

What is carried
---------------
The tournament and everything that belongs to it: its roles and staff log, categories, players,
teams, entries, stages, pools, boards, matches, games, official rounds, the round clock,
scorecards and their rows with their whole workflow (who filled, validated, confirmed and
verified them, and when), shoot-outs and their scores, and the history tables behind the audit
page and the card history (including the history of objects deleted before the export, kept
under numbers the database never gives a live object). The private links' tokens are secrets
and are carried too, on purpose: the links printed on cards and renewed during the event must
keep working after a restore. Keep export files as safely as the database itself.

Users are carried as their username only: who did what in the tournament's records, as its
organizers read it on the audit page. Never their names, e-mail addresses, password hashes,
permissions or staff flags, and never a player's ``claimed_with`` (a private link's token).

Accounts on import
------------------
An import never creates an account, and never links or grants anything to an existing one:
a file is data about an event, and whoever uploads it may not make it speak for somebody's
account. So:

- a role line gives no role. In a file signed by this site, it becomes an invitation to the
  same username (``tournaments.services.invitations``): the account's owner accepts it, signed
  in, or not; in any other file it is dropped, and the organizer invites their staff again;
- a player's linked account is not linked: in a file signed by this site the player is
  invited to the same username, as above; the players also open their private links again;
- the staff log (``RoleChange``) keeps its usernames as text, never the accounts: nothing in
  an imported log may pass for "created on this staff page" (the set-password links);
- who filled, validated, verified... a row, and who made each change in the history, are
  records, not grants: in a file signed by this site they name the same accounts when these
  exist; otherwise they are left empty.

A file not signed by this site (another site's, an older export, or one edited and stripped of
its signature) is read as untrusted data: every field passes the model's validators, and a
value they refuse stops the import with the line and the field.

What is not carried: the simulation's data (simulated game records and replays, match previews,
auto-play runs, dry runs, skill profiles), which a new run can make again; the site permission
"may create tournaments"; the browsers' sessions (a player opens their private link again once);
the history of rounds of games that were deleted (an undone draw), which no longer names its
tournament. Dates and times keep their microseconds.

Importing
---------
``import_tournament`` reads the whole file first (JSON on every line, the header's format and
version, the end line, its checksum and its signature), then writes everything in one
transaction: a file that
is refused at any line leaves nothing behind. Objects get new primary keys, so a tournament can
be imported into an empty database (a restore) or next to other tournaments (under another slug
if its own is taken). A private link token or other unique value already used in the database
(the tournament itself is still there) gets a new value, and the result says how many.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from functools import cache
from itertools import islice
from typing import Any, TextIO
from uuid import UUID

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.serializers import base as serializer_base
from django.core.serializers import python as python_serializer
from django.core.validators import validate_slug
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.duration import duration_iso_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.exports.plan import ModelPlan, Plan, export_plan
from tournaments.models import Player, RoleChange, Tournament, TournamentRole
from tournaments.permissions import ADD_TOURNAMENT, ADD_TOURNAMENT_REFUSAL
from tournaments.services import invitations

#: What the first line says the file is.
FORMAT = "crokinole-tournament"
#: The version of the file's layout (not of the models: a field added to a model needs no new
#: version). Raise it when a file of the old layout could be misread, and say what changed.
VERSION = 1
#: The label under which users are listed.
USER_LABEL = "auth.user"
#: What older files carried of a user besides the username: still read, never stored.
LEGACY_USER_FIELDS = ("first_name", "last_name", "email")
#: The salt of the key that signs an export (derived from ``SECRET_KEY``).
SIGNING_SALT = "scoring.exports.file"
#: Rows serialised at a time (bounded memory for a large event).
CHUNK = 1000


class ImportFileError(ValidationError):
    """A file that cannot be imported, with what is wrong and where (``line``, from 1)."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.line = line
        super().__init__(
            _("Line %(line)s: %(message)s") % {"line": line, "message": message}
            if line
            else message[:1].upper() + message[1:]
        )


class SlugTakenError(ImportFileError):
    """The tournament's slug is used by a tournament of the database already."""

    def __init__(self, slug: str, suggestion: str, *, line: int | None = None) -> None:
        self.slug = slug
        self.suggestion = suggestion
        super().__init__(
            _("a tournament with slug %(slug)s exists: import with --slug %(suggestion)s")
            % {"slug": repr(slug), "suggestion": suggestion},
            line=line,
        )


class ExportError(Exception):
    """The database holds something an export cannot carry faithfully (a row referring to
    another tournament's row): a bug to fix, never a file to write."""


# --- export ----------------------------------------------------------------------------------


#: Fields that are the state of one server, not of the event: the live version that public pages
#: poll starts again at 0 on the server a tournament is imported into; and secrets that are not
#: the event's: the private-link token a player's account was claimed with (the link's own
#: token travels; the claim does not, as the account does not). By model label, for the model
#: and its history table alike; a file that carries one anyway has it ignored.
NOT_CARRIED: dict[str, tuple[str, ...]] = {
    # Whether its games count for the ranking is the reading site's record keepers' to say.
    "tournaments.tournament": ("live_version", "rated"),
    # The registry is the site's: a player's person is matched again where the file is read.
    "tournaments.player": ("claimed_with", "person"),
}


def _signer() -> Any:
    """A fresh HMAC of this site's export key."""
    return salted_hmac(SIGNING_SALT, b"", algorithm="sha256")


def site_key_id() -> str:
    """Which site's key signed a file: a fingerprint that tells the key apart and reveals
    nothing of it (an HMAC of a constant)."""
    return salted_hmac(SIGNING_SALT + ".key-id", b"key-id", algorithm="sha256").hexdigest()[:16]


def _json_default(value: Any) -> Any:
    """JSON for what the serializer leaves as Python objects; datetimes keep their microseconds
    (``DjangoJSONEncoder`` would cut them to milliseconds)."""
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return duration_iso_string(value)
    if isinstance(value, Decimal | UUID):
        return str(value)
    kind = type(value).__name__
    raise TypeError(f"cannot write {kind} {value!r} to an export")  # untranslated: developer error


class _Lines:
    """Writes one JSON object a line and keeps the checksum of everything written."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.digest = hashlib.sha256()
        self.signature = _signer()

    def write(self, obj: dict[str, Any]) -> None:
        line = json.dumps(obj, default=_json_default, ensure_ascii=False, separators=(",", ":"))
        data = line + "\n"
        encoded = data.encode("utf-8")
        self.digest.update(encoded)
        self.signature.update(encoded)
        self.out.write(data)


def _chunks(rows: Iterable[models.Model]) -> Iterator[list[models.Model]]:
    it = iter(rows)
    while chunk := list(islice(it, CHUNK)):
        yield chunk


def _serialised(rows: Iterable[models.Model]) -> Iterator[dict[str, Any]]:
    for chunk in _chunks(rows):
        yield from python_serializer.Serializer().serialize(chunk)


class _Numbers:
    """The file's numbers of each model's objects: the live ones 1..n in the order they were
    created, then the ones only the history still names (deleted before the export), in the
    order the file first names them."""

    def __init__(self, plan: Plan, tournament: Tournament) -> None:
        self.live = {
            p.model: {
                pk: n for n, pk in enumerate(p.rows(tournament).values_list("pk", flat=True), 1)
            }
            for p in plan.models
        }
        self.gone: dict[type[models.Model], dict[Any, int]] = {p.model: {} for p in plan.models}

    def of(self, model: type[models.Model], pk: Any, what: str) -> int:
        try:
            return self.live[model][pk]
        except KeyError:
            raise ExportError(
                f"{what} refers to {model._meta.label} {pk}, which belongs to another tournament"
            ) from None

    def in_history(self, model: type[models.Model], pk: Any) -> int:
        number = self.live[model].get(pk)
        if number is not None:
            return number
        gone = self.gone[model]
        if pk not in gone:
            gone[pk] = len(self.live[model]) + len(gone) + 1
        return gone[pk]


def _usernames(plan: Plan, tournament: Tournament) -> dict[Any, AbstractBaseUser]:
    """Every user the tournament's rows and history name, by primary key."""
    ids: set[Any] = set()
    for p in plan.models:
        for name in p.user_fields:
            ids |= set(p.rows(tournament).exclude(**{name: None}).values_list(name, flat=True))
        if p.history is not None:
            for name in p.history_user_fields:
                attname = p.history._meta.get_field(name).attname
                ids |= set(
                    p.history_rows(plan, tournament)
                    .exclude(**{attname: None})
                    .values_list(attname, flat=True)
                )
    return {u.pk: u for u in get_user_model()._base_manager.filter(pk__in=ids)}


def _username(users: dict[Any, AbstractBaseUser], pk: Any) -> str | None:
    """The username of a user id (None for a user deleted since a history row named them)."""
    user = users.get(pk)
    return user.get_username() if user is not None else None


@contextmanager
def _snapshot() -> Iterator[None]:
    """One consistent view of the database for the whole export, so that a backup taken while
    the tournament is being played never holds a row without the rows it refers to. Inside a
    transaction already (a test, a request) that transaction decides; on PostgreSQL a
    transaction of its own sees one snapshot only in REPEATABLE READ (SQLite's always does)."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def export_tournament(tournament: Tournament, out: TextIO) -> Counter[str]:
    """Write ``tournament`` with everything that belongs to it to ``out`` (text, UTF-8 when it
    is a file) in the format above; returns how many objects of each model were written."""
    with _snapshot():
        return _export(tournament, out)


def _export(tournament: Tournament, out: TextIO) -> Counter[str]:
    plan = export_plan()
    numbers = _Numbers(plan, tournament)
    users = _usernames(plan, tournament)
    lines = _Lines(out)
    counts: Counter[str] = Counter()
    lines.write(
        {
            "format": FORMAT,
            "version": VERSION,
            "exported_at": timezone.now().isoformat(),
            "tournament": tournament.slug,
        }
    )
    for user in sorted(users.values(), key=lambda u: u.get_username()):
        lines.write({"model": USER_LABEL, "id": user.get_username()})
    counts[USER_LABEL] = len(users)
    for p in plan.models:
        rows = p.rows(tournament)
        if p.many:
            rows = rows.prefetch_related(*p.many)
        for node in _serialised(rows.iterator(chunk_size=CHUNK)):
            what = f"{p.label} {node['pk']}"
            fields = node["fields"]
            for name in NOT_CARRIED.get(p.label, ()):
                fields.pop(name, None)
            for name, target in p.references.items():
                if fields.get(name) is not None:
                    fields[name] = numbers.of(target, fields[name], f"{what}: {name}")
            for name in p.user_fields:
                if fields.get(name) is not None:
                    fields[name] = _username(users, fields[name])
            for name, target in p.many.items():
                fields[name] = sorted(
                    numbers.of(target, v, f"{what}: {name}") for v in fields[name]
                )
            lines.write(
                {"model": p.label, "id": numbers.live[p.model][node["pk"]], "fields": fields}
            )
            counts[p.label] += 1
    for p in plan.models:
        if p.history is None:
            continue
        own_id = p.model._meta.pk.name
        for node in _serialised(p.history_rows(plan, tournament).iterator(chunk_size=CHUNK)):
            fields = node["fields"]
            for name in NOT_CARRIED.get(p.label, ()):
                fields.pop(name, None)
            fields[own_id] = numbers.in_history(p.model, fields[own_id])
            for name, target in p.history_references.items():
                if fields.get(name) is not None:
                    fields[name] = numbers.in_history(target, fields[name])
            for name in p.history_user_fields:
                if fields.get(name) is not None:
                    fields[name] = _username(users, fields[name])
            lines.write({"model": p.history_label, "fields": fields})
            counts[p.history_label] += 1
    lines.write(
        {
            "end": {
                "objects": dict(counts),
                "sha256": lines.digest.hexdigest(),
                "signed_by": site_key_id(),
                "signature": lines.signature.hexdigest(),
            }
        }
    )
    return counts


def export_filename(tournament: Tournament) -> str:
    """The name a download or the command suggests: the slug and the moment, sortable."""
    return f"{tournament.slug}-{timezone.localtime():%Y%m%d-%H%M}.jsonl"


# --- reading a file --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Line:
    number: int
    data: dict[str, Any]


def read_file(data: bytes | str) -> tuple[dict[str, Any], list[_Line], dict[str, Any], bool]:
    """The header, the object lines and the end line of an export, and whether this site signed
    it, after checking the file as a whole: UTF-8, one JSON object a line, a header of this
    format and version, an end line whose checksum matches, and whose signature matches if it
    says this site signed it. Raises ``ImportFileError`` naming the line at fault."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ImportFileError(
                _(
                    "the file is not UTF-8 text (byte %(byte)s); an export is UTF-8 JSON "
                    "Lines: was another file chosen?"
                )
                % {"byte": exc.start + 1}
            ) from None
    else:
        text = data
    # A copy through Windows or an editor may add a byte-order mark and CR LF line ends: the
    # same lines, which the checksum is computed over.
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    raw = text.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    if not raw:
        raise ImportFileError(_("the file is empty."))
    parsed: list[_Line] = []
    for number, line in enumerate(raw, 1):
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if number == 1:
                raise ImportFileError(
                    _("this is not a tournament export: its first line is not JSON."), line=1
                ) from None
            raise ImportFileError(
                _("not valid JSON (%(error)s at column %(column)s); the file is damaged.")
                % {"error": exc.msg, "column": exc.colno},
                line=number,
            ) from None
        if not isinstance(obj, dict):
            raise ImportFileError(_("expected a JSON object {...} on every line."), line=number)
        parsed.append(_Line(number, obj))
    header = parsed[0].data
    if header.get("format") != FORMAT:
        raise ImportFileError(
            _(
                "this is not a tournament export: the first line does not say "
                '"format": "%(format)s".'
            )
            % {"format": FORMAT},
            line=1,
        )
    version = header.get("version")
    if not _is_number(version) or version != VERSION:
        newer = _is_number(version) and version > VERSION
        values = {"version": repr(version), "supported": VERSION}
        raise ImportFileError(
            (
                _(
                    "the file is in format version %(version)s; this installation reads version "
                    "%(supported)s only: upgrade the application, or export again from the "
                    "installation that wrote it."
                )
                if newer
                else _(
                    "the file is in format version %(version)s; this installation reads version "
                    "%(supported)s only."
                )
            )
            % values,
            line=1,
        )
    end = parsed[-1].data.get("end")
    if len(parsed) < 2 or not isinstance(end, dict):
        raise ImportFileError(
            _(
                "the file stops at line %(line)s without its end line: it was cut short "
                "(an interrupted download or copy). Use a complete export."
            )
            % {"line": len(parsed)}
        )
    body = "".join(line + "\n" for line in raw[:-1]).encode("utf-8")
    if hashlib.sha256(body).hexdigest() != end.get("sha256"):
        raise ImportFileError(
            _(
                "the file was changed or damaged after it was exported: its content does not "
                "match the checksum on its last line. Use the file as exported."
            ),
            line=len(parsed),
        )
    return header, parsed[1:-1], end, _signed_here(body, end, len(parsed))


def _signed_here(body: bytes, end: dict[str, Any], line: int) -> bool:
    """Whether this site signed the file. One that names this site's key and does not match
    was edited after export (its checksum made again): refused, not read as untrusted."""
    if end.get("signed_by") != site_key_id():
        return False
    signer = _signer()
    signer.update(body)
    signature = end.get("signature")
    if not isinstance(signature, str) or not constant_time_compare(signer.hexdigest(), signature):
        raise ImportFileError(
            _(
                "the file says this site signed it, but its content does not match the "
                "signature: it was edited after it was exported. Use the file as exported."
            ),
            line=line,
        )
    return True


# --- import ----------------------------------------------------------------------------------


@dataclass
class ImportResult:
    """What an import made."""

    tournament: Tournament
    #: Objects imported, by model label (users counted as listed in the file).
    objects: Counter[str] = field(default_factory=Counter)
    #: Whether this site signed the file (``read_file``).
    signed: bool = False
    #: Invitations made to the usernames of the file's roles and players' accounts (a file
    #: signed by this site); nothing is granted until their owners accept.
    invited: int = 0
    #: Roles of a file this site did not sign: not given, and no invitation made.
    roles_dropped: int = 0
    #: Unique values given anew because the database used them already, by ``label.field``
    #: (the private links of a tournament imported next to itself).
    renewed: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        """One sentence for the page and the command. It says how many invitations were made,
        never whether the usernames exist."""
        plan = export_plan()
        parts = []
        for p in plan.models[1:]:
            n = self.objects.get(p.label, 0)
            if n:
                name = p.model._meta.verbose_name if n == 1 else p.model._meta.verbose_name_plural
                parts.append(f"{n} {name}")
        values = {"name": self.tournament.name, "slug": self.tournament.slug}
        if parts:
            values["objects"] = ", ".join(parts)
            text = _("Imported %(name)s (%(slug)s): %(objects)s.") % values
        else:
            text = _("Imported %(name)s (%(slug)s).") % values
        if not self.signed:
            text += " " + _(
                "The file was not signed by this site: it was read as untrusted data, and no "
                "account was linked to its players, staff or records."
            )
        if self.invited:
            text += " " + ngettext(
                "%(count)s invitation went to the username of one of its staff or players' "
                "accounts: the account's owner accepts when they sign in; withdraw it on the "
                "staff page if you do not want it.",
                "%(count)s invitations went to the usernames of its staff and players' "
                "accounts: each account's owner accepts when they sign in; withdraw those you "
                "do not want on the staff page.",
                self.invited,
            ) % {"count": self.invited}
        if self.roles_dropped:
            text += " " + ngettext(
                "%(count)s role was not given: invite the staff on the staff page.",
                "%(count)s roles were not given: invite the staff on the staff page.",
                self.roles_dropped,
            ) % {"count": self.roles_dropped}
        for key, n in self.renewed.items():
            label, name = key.rsplit(".", 1)
            model = plan.by_label[label].model
            what = f"{model._meta.verbose_name} {model._meta.get_field(name).verbose_name}"
            text += " " + ngettext(
                "%(count)s %(what)s(s) got a new value: this database used them already (a "
                "tournament imported next to its original gets its own private links).",
                "%(count)s %(what)s(s) got a new value: this database used them already (a "
                "tournament imported next to its original gets its own private links).",
                n,
            ) % {"count": n, "what": what}
        return text


def free_slug(slug: str) -> str:
    """``slug`` itself if no tournament uses it, else the first free ``slug-2``, ``slug-3``…"""
    taken = set(Tournament.objects.filter(slug__startswith=slug).values_list("slug", flat=True))
    if slug not in taken:
        return slug
    n = 2
    while f"{slug}-{n}" in taken:
        n += 1
    return f"{slug}-{n}"


class _Importer:
    """Writes the objects of a checked file, line by line, mapping the file's numbers to the new
    primary keys. Every refusal names the line."""

    def __init__(self, plan: Plan, slug: str | None, *, signed: bool) -> None:
        self.plan = plan
        self.slug = slug
        #: Whether this site signed the file: its usernames are this site's.
        self.signed = signed
        self.pks: dict[type[models.Model], dict[int, Any]] = {p.model: {} for p in plan.models}
        self.gone: dict[type[models.Model], dict[int, int]] = {p.model: {} for p in plan.models}
        self.next_gone: dict[type[models.Model], int] = {}
        self.user_lines: dict[str, tuple[int, dict[str, Any]]] = {}
        self.users: dict[str, Any] | None = None
        self.tournament: Tournament | None = None
        self.in_history = False
        self.result: ImportResult | None = None
        self.objects: Counter[str] = Counter()
        self.renewed: Counter[str] = Counter()
        #: Invitations to make once everything is in: (username, role) and (player's number,
        #: username); roles of an unsigned file not given.
        self.role_invitations: list[tuple[str, str]] = []
        self.player_invitations: list[tuple[int, str]] = []
        self.roles_dropped = 0
        #: Objects built but not inserted yet: consecutive lines of one model go in together.
        self.batch: list[tuple[_Line, str, Any, int | None]] = []
        self.batch_model: type[models.Model] | None = None

    # -- users

    def add_user(self, line: _Line) -> None:
        if self.users is not None:
            raise ImportFileError(
                _("users are listed before the tournament's objects."), line=line.number
            )
        username, fields = line.data.get("id"), line.data.get("fields", {})
        user_model = get_user_model()
        name_field = user_model._meta.get_field(user_model.USERNAME_FIELD)
        if not isinstance(username, str) or not username or len(username) > name_field.max_length:
            raise ImportFileError(
                _('a user needs "id": their username (1 to %(max)s characters).')
                % {"max": name_field.max_length},
                line=line.number,
            )
        try:
            name_field.run_validators(username)
        except ValidationError as exc:
            raise ImportFileError(
                _("user %(username)s: %(problem)s")
                % {"username": _shown(username), "problem": " ".join(exc.messages)},
                line=line.number,
            ) from None
        if username in self.user_lines:
            raise ImportFileError(
                _("the user %(username)s is listed twice.") % {"username": repr(username)},
                line=line.number,
            )
        # Older files carried names and e-mail: still read, never stored.
        unknown = set(fields) - set(LEGACY_USER_FIELDS) if isinstance(fields, dict) else {"fields"}
        if unknown:
            raise ImportFileError(
                _("user %(username)s: unexpected %(unknown)s; a user carries a username only.")
                % {
                    "username": repr(username),
                    "unknown": ", ".join(sorted(map(str, unknown))),
                },
                line=line.number,
            )
        self.user_lines[username] = (line.number, {})

    def _resolve_users(self) -> None:
        """The accounts the file's records may name: in a file signed by this site, the same
        usernames where they exist; in any other file, none. No account is ever created."""
        found: dict[str, Any] = {}
        if self.signed and self.user_lines:
            user_model = get_user_model()
            name_field = user_model.USERNAME_FIELD
            found = dict(
                user_model._base_manager.filter(
                    **{f"{name_field}__in": list(self.user_lines)}
                ).values_list(name_field, "pk")
            )
        self.users = {username: found.get(username) for username in self.user_lines}
        self.objects[USER_LABEL] = len(self.user_lines)

    def user_pk(self, value: Any, line: _Line, what: str) -> Any:
        """The account a record names (None where the file is not signed by this site, or the
        username has no account here). A username not listed at the top is refused."""
        assert self.users is not None
        if value is None:
            return None
        if not isinstance(value, str) or value not in self.users:
            raise ImportFileError(
                _("%(what)s names the user %(user)s, who is not listed at the top of the file.")
                % {"what": what, "user": repr(value)},
                line=line.number,
            )
        return self.users[value]

    # -- numbers

    def pk_of(self, target: type[models.Model], value: Any, line: _Line, what: str) -> Any:
        if value is None:
            return None
        if target is self.batch_model:
            self.flush()
        pk = self.pks[target].get(value) if _is_number(value) else None
        if pk is None:
            raise ImportFileError(
                _(
                    "%(what)s refers to %(model)s %(value)s, which is not in the file before "
                    "this line."
                )
                % {"what": what, "model": target._meta.label_lower, "value": repr(value)},
                line=line.number,
            )
        return pk

    def history_pk(self, target: type[models.Model], value: Any, line: _Line, what: str) -> Any:
        """The new key of an object a history row names: a live object's, or for an object
        deleted before the export a negative number no live object ever has, the same for every
        history row naming it, below those of earlier imports."""
        if value is None:
            return None
        if not _is_number(value):
            raise ImportFileError(
                _("%(what)s is not a number: %(value)s.") % {"what": what, "value": repr(value)},
                line=line.number,
            )
        pk = self.pks[target].get(value)
        if pk is not None:
            return pk
        gone = self.gone[target]
        if value not in gone:
            if target not in self.next_gone:
                self.next_gone[target] = self._lowest_named(target) - 1
            gone[value] = self.next_gone[target]
            self.next_gone[target] -= 1
        return gone[value]

    def _lowest_named(self, target: type[models.Model]) -> int:
        """The lowest key any history table names for ``target`` (0 if none is below 1)."""
        lowest = 0
        for p in self.plan.models:
            if p.history is None:
                continue
            names = [n for n, t in p.history_references.items() if t is target]
            attnames = [p.history._meta.get_field(n).attname for n in names]
            if p.model is target:
                attnames.append(target._meta.pk.name)
            for attname in attnames:
                found = p.history._base_manager.aggregate(low=Min(attname))["low"]
                if found is not None:
                    lowest = min(lowest, found)
        return lowest

    # -- objects

    def add(self, line: _Line) -> None:
        label = line.data.get("model")
        if label == USER_LABEL:
            self.add_user(line)
            return
        if self.users is None:
            self._resolve_users()
        p = self.plan.by_label.get(label) if isinstance(label, str) else None
        if p is not None:
            self._add_object(p, line)
            return
        p = self.plan.by_history_label.get(label) if isinstance(label, str) else None
        if p is not None:
            self._add_history(p, line)
            return
        raise ImportFileError(
            _(
                "unknown model %(label)s: the file was written by another version of the "
                "application, or edited."
            )
            % {"label": repr(label)},
            line=line.number,
        )

    def _fields(self, model: type[models.Model], line: _Line, what: str) -> dict[str, Any]:
        fields = line.data.get("fields")
        if not isinstance(fields, dict):
            raise ImportFileError(
                _('%(what)s has no "fields" object.') % {"what": what}, line=line.number
            )
        known = _serialised_names(model)
        unknown = sorted(set(fields) - known)
        if unknown:
            raise ImportFileError(
                _(
                    "%(what)s: a field %(field)s this version of the application does not know; "
                    "the file was exported by a newer version (or edited). Import it where that "
                    "version runs."
                )
                % {"what": what, "field": repr(unknown[0])},
                line=line.number,
            )
        fields = dict(fields)
        for name in NOT_CARRIED.get(_carried_label(model), ()):
            fields.pop(name, None)
        for name, value in fields.items():
            f = model._meta.get_field(name)
            if f.is_relation:
                continue
            try:
                _check_field(f, value)
            except ValidationError as exc:
                raise ImportFileError(
                    _("%(what)s: %(field)s %(value)s: %(problem)s")
                    % {
                        "what": what,
                        "field": name,
                        "value": _shown(value),
                        "problem": " ".join(exc.messages),
                    },
                    line=line.number,
                ) from None
        return fields

    def _add_object(self, p: ModelPlan, line: _Line) -> None:
        if self.in_history:
            raise ImportFileError(
                _("%(model)s after the history lines; objects come first.") % {"model": p.label},
                line=line.number,
            )
        number = line.data.get("id")
        what = f"{p.label} {number!r}"
        if not _is_number(number):
            raise ImportFileError(
                _('%(model)s needs "id": a whole number.') % {"model": p.label}, line=line.number
            )
        if number in self.pks[p.model]:
            raise ImportFileError(_("%(what)s appears twice.") % {"what": what}, line=line.number)
        if (p.parent is None) != (self.tournament is None):
            raise ImportFileError(
                _("the tournament comes first, once.")
                if p.parent is None
                else _("%(what)s comes before the tournament's own line.") % {"what": what},
                line=line.number,
            )
        fields = self._fields(p.model, line, what)
        for name, target in p.references.items():
            fields[name] = self.pk_of(target, fields.get(name), line, f"{what}: {name}")
        usernames = {name: fields.get(name) for name in p.user_fields}
        for name in p.user_fields:
            fields[name] = self.user_pk(fields.get(name), line, f"{what}: {name}")
        if p.model is TournamentRole:
            self._role_line(number, usernames["user"], fields.get("role"))
            return
        if p.model is Player:
            # A player's account is never linked by a file: its owner accepts an invitation.
            if self.signed and usernames["user"] is not None:
                self.player_invitations.append((number, usernames["user"]))
            fields["user"] = None
        if p.model is RoleChange:
            # The staff log keeps the usernames as text: an imported line names no account,
            # so it can never pass for an account created on this staff page.
            fields["actor"] = fields["user"] = None
        for name, target in p.many.items():
            values = fields.get(name, [])
            if not isinstance(values, list):
                raise ImportFileError(
                    _("%(what)s: %(field)s is not a list.") % {"what": what, "field": name},
                    line=line.number,
                )
            fields[name] = [self.pk_of(target, v, line, f"{what}: {name}") for v in values]
        if p.parent is None:
            self._tournament_slug(fields, line)
        self._unique_values(p, fields, line, what)
        deserialized = self._build(p.model, fields, line, what)
        self.objects[p.label] += 1
        if _in_batches(p.model, live=True) and not p.many and p.parent is not None:
            self._queue(p.model, deserialized, line, what, number)
            return
        self._save(deserialized, line, what)
        self.pks[p.model][number] = deserialized.object.pk
        if p.parent is None:
            assert isinstance(deserialized.object, Tournament)
            self.tournament = deserialized.object

    def _role_line(self, number: int, username: str | None, role: Any) -> None:
        """A role is never given by a file: in one signed by this site it becomes an invitation
        to the same username; in any other it is dropped. The line's number is kept so that a
        second line with it is refused and its history reads as that of a role gone."""
        self.pks[TournamentRole][number] = None
        if self.signed and username is not None:
            self.role_invitations.append((username, role))
        else:
            self.roles_dropped += 1

    def _tournament_slug(self, fields: dict[str, Any], line: _Line) -> None:
        slug = self.slug or fields.get("slug")
        if not isinstance(slug, str):
            raise ImportFileError(_("the tournament has no slug."), line=line.number)
        try:
            validate_slug(slug)
        except ValidationError:
            raise ImportFileError(
                _("%(slug)s is not a valid slug: letters, digits, hyphens and underscores only.")
                % {"slug": repr(slug)},
                line=None if self.slug else line.number,
            ) from None
        if Tournament.objects.filter(slug=slug).exists():
            raise SlugTakenError(slug, free_slug(slug))
        fields["slug"] = slug

    def _unique_values(self, p: ModelPlan, fields: dict[str, Any], line: _Line, what: str) -> None:
        """A value unique across the database that another row holds already: a new one where
        the field makes its own (a private link's token), else a refusal."""
        for f in p.model._meta.concrete_fields:
            if not f.unique or f.primary_key or f.is_relation or fields.get(f.name) is None:
                continue
            if not p.model._base_manager.filter(**{f.name: fields[f.name]}).exists():
                continue
            if not callable(f.default):
                raise ImportFileError(
                    _(
                        "%(what)s: %(field)s %(value)s is used by another %(model)s in this "
                        "database."
                    )
                    % {
                        "what": what,
                        "field": f.name,
                        "value": repr(fields[f.name]),
                        "model": p.model._meta.verbose_name,
                    },
                    line=line.number,
                )
            fields[f.name] = f.default()
            self.renewed[f"{p.label}.{f.name}"] += 1

    def _add_history(self, p: ModelPlan, line: _Line) -> None:
        assert p.history is not None
        self.in_history = True
        what = p.history_label
        fields = self._fields(p.history, line, what)
        own_id = p.model._meta.pk.name
        if own_id not in fields:
            raise ImportFileError(
                _('%(what)s needs "%(field)s".') % {"what": what, "field": own_id},
                line=line.number,
            )
        fields[own_id] = self.history_pk(p.model, fields[own_id], line, f"{what}: {own_id}")
        for name, target in p.history_references.items():
            fields[name] = self.history_pk(target, fields.get(name), line, f"{what}: {name}")
        for name in p.history_user_fields:
            fields[name] = self.user_pk(fields.get(name), line, f"{what}: {name}")
        deserialized = self._build(p.history, fields, line, what)
        self.objects[what] += 1
        if _in_batches(p.history, live=False):
            self._queue(p.history, deserialized, line, what, None)
        else:
            self._save(deserialized, line, what)

    def _build(
        self, model: type[models.Model], fields: dict[str, Any], line: _Line, what: str
    ) -> Any:
        """The object of a line, built by Django's deserializer (not saved yet)."""
        node = {"model": model._meta.label_lower, "pk": None, "fields": fields}
        try:
            (deserialized,) = python_serializer.Deserializer([node])
        except serializer_base.DeserializationError as exc:
            cause = exc.__cause__ or exc
            text = " ".join(cause.messages) if isinstance(cause, ValidationError) else str(cause)
            raise ImportFileError(f"{what}: {text}", line=line.number) from None
        except (ValueError, TypeError) as exc:
            raise ImportFileError(f"{what}: {exc}", line=line.number) from None
        return deserialized

    def _save(self, deserialized: Any, line: _Line, what: str) -> None:
        """Insert one object as it was: a raw save keeps its timestamps and writes no history
        row. A refusal ends the import (the transaction is rolled back, nothing else is read)."""
        try:
            deserialized.save()
        except (DatabaseError, ValueError, TypeError) as exc:
            raise ImportFileError(
                _("the database refused %(what)s: %(error)s") % {"what": what, "error": exc},
                line=line.number,
            ) from None

    def _queue(
        self, model: type[models.Model], deserialized: Any, line: _Line, what: str, number: Any
    ) -> None:
        if self.batch_model is not model:
            self.flush()
            self.batch_model = model
        self.batch.append((line, what, deserialized, number))
        if len(self.batch) >= CHUNK:
            self.flush()
            self.batch_model = model

    def flush(self) -> None:
        """Insert the objects waiting, in one statement per batch (a large event has tens of
        thousands of rounds and history rows); if the database refuses the batch, insert them
        one by one to name the line it refuses."""
        batch, model = self.batch, self.batch_model
        self.batch, self.batch_model = [], None
        if not batch:
            return
        assert model is not None
        objs = [deserialized.object for _, _, deserialized, _ in batch]
        try:
            with transaction.atomic():
                model._base_manager.bulk_create(objs, batch_size=CHUNK)
        except DatabaseError:
            for line, what, deserialized, _ in batch:
                deserialized.object.pk = None
                deserialized.object._state.adding = True
                self._save(deserialized, line, what)
            raise
        for (_, _, _, number), obj in zip(batch, objs, strict=True):
            if number is not None:
                self.pks[model][number] = obj.pk

    def finish(self, user: AbstractBaseUser | None) -> ImportResult:
        self.flush()
        if self.tournament is None:
            raise ImportFileError(_("the file holds no tournament."))
        organizers = (TournamentRole.Role.ORGANIZER, TournamentRole.Role.CO_ORGANIZER)
        if user is not None and not user.is_superuser:
            # The file gives no role, so the one who imports it holds none yet.
            TournamentRole.objects.create(
                tournament=self.tournament, user=user, role=TournamentRole.Role.ORGANIZER
            )
        invited = 0
        for username, role in self.role_invitations:
            if user is not None and role in organizers and username == user.get_username():
                continue  # the one who imports it organizes it already
            invited += self._invite(
                invitations.invite_to_role,
                tournament=self.tournament,
                username=username,
                role=role,
                actor=user,
                from_import=True,
            )
        for number, username in self.player_invitations:
            player = Player.objects.get(pk=self.pks[Player][number])
            invited += self._invite(
                invitations.invite_to_player, player=player, username=username, actor=user
            )
        return ImportResult(
            tournament=self.tournament,
            objects=self.objects,
            signed=self.signed,
            invited=invited,
            roles_dropped=self.roles_dropped,
            renewed=self.renewed,
        )

    @staticmethod
    def _invite(invite: Any, **kwargs: Any) -> int:
        """One invitation made (1), or none when the same is pending already (0)."""
        try:
            invite(**kwargs)
        except ValidationError:
            return 0
        return 1


def _check_field(f: models.Field, value: Any) -> None:
    """The model's own checks of one field's value (type, null, choices, length and every
    validator), as ``full_clean`` runs them: a file is data from outside, and a database such
    as SQLite stores a 5,000-character name in a column of 100. Not "blank", a form's rule
    that rows written by the application itself do not all follow."""
    value = f.to_python(value)
    if value is None:
        if not f.null:
            raise ValidationError(f.error_messages["null"], code="null")
        return
    if value not in f.empty_values:
        f.validate(value, None)  # choices (blank does not apply to a value that is not empty)
    f.run_validators(value)


def _carried_label(model: type[models.Model]) -> str:
    """The label ``NOT_CARRIED`` knows a model or its history table by."""
    instance_type = getattr(model, "instance_type", None)
    return (instance_type or model)._meta.label_lower


def _shown(value: Any, limit: int = 40) -> str:
    """A value as an error message quotes it: cut short, so that a 5,000-character name does
    not become a 5,000-character message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@cache
def _serialised_names(model: type[models.Model]) -> frozenset[str]:
    """The fields Django's serializer writes for a model: what a line's fields may name."""
    opts = model._meta.concrete_model._meta
    return frozenset(f.name for f in [*opts.local_fields, *opts.local_many_to_many] if f.serialize)


@cache
def _in_batches(model: type[models.Model], *, live: bool) -> bool:
    """Whether a model's objects may be inserted many at a time: ``bulk_create`` would stamp
    the time on ``auto_now`` fields (a raw save keeps the file's), and the objects of the
    tournament need their new keys back from it (history rows do not)."""
    if live and not connection.features.can_return_rows_from_bulk_insert:
        return False
    return not any(
        getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        for f in model._meta.concrete_fields
    ) and not any(f.unique and not f.primary_key for f in model._meta.concrete_fields)


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def import_tournament(
    data: bytes | str, *, slug: str | None = None, user: AbstractBaseUser | None = None
) -> ImportResult:
    """Import the tournament of an export file (``data``, the file's bytes or text) with new
    primary keys, all or nothing.

    ``slug`` imports it under another slug (a tournament with its own exists: ``SlugTakenError``
    suggests a free one). With ``user`` (the import page), only a user who may create
    tournaments may import one (``PermissionDenied``), and they become its organizer, as when
    they create a tournament (the file gives no role to anybody); the command imports for
    the operator of the server, with no user. Raises ``ImportFileError`` naming the line at
    fault; nothing is written then.
    """
    if user is not None and not user.has_perm(ADD_TOURNAMENT):
        raise PermissionDenied(ADD_TOURNAMENT_REFUSAL)
    _header, lines, _end, signed = read_file(data)
    importer = _Importer(export_plan(), slug, signed=signed)
    try:
        with transaction.atomic():
            for line in lines:
                importer.add(line)
            result = importer.finish(user)
    except DatabaseError as exc:  # a constraint checked at commit
        raise ImportFileError(
            _("the database refused the file: %(error)s") % {"error": exc}
        ) from None
    return result
