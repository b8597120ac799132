"""Importing past results into the record: read a file, preview it, and write it once confirmed.

Two layouts are read (``RecordImport.Layout``): the Crokinole Reference layout
(``scoring.engine.reference_csv``, one game a line) and this app's own tournament export
(``scoring.record.app_export``). Both become the same :class:`ReferenceGame` list, so the
preview, the keys and the writing are one path whatever the file.

The three steps, and why they are apart:

1. :func:`read_upload` reads the file and checks every line; :func:`summarize` compares it with
   the record and the registry without writing anything: how many games are new and how many
   are recorded already, which people are new and which match someone of the registry
   (``tournaments.services.registry.find_matches``, as the confirmation's ``person_for`` will
   decide), and the bad lines by number and column.
2. :func:`preview` keeps the file and that summary as a ``RecordImport`` (status "previewed"),
   so the record keeper reads it before anything counts, and confirming writes exactly the file
   that was previewed. No person and no game is written.
3. :func:`confirm` writes it: the people (``person_for``: the one person of that name, else a
   new one a record keeper can merge later) and a ``RecordedGame`` per new game, in one
   transaction. A file with bad lines is refused unless the record keeper chooses to leave
   them out (``skip_bad_lines``): corrected and uploaded again later, the games already
   written are found by their keys and only the corrected lines are new.

Keys: a game of a Reference file is ``"ref:" + digest`` of its date, event, stage, pool, game
number and players (``ReferenceGame.digest``), so importing the same file, or a longer one
with the same games, writes nothing twice; a game of an app export is ``"exp:" + digest`` of
the tournament's web address and the same fields (its numbers inside the file move when the
event's draws change; these do not). A game verified in a tournament of this site is
``"game:<id>"``: the same game exported here and imported again is therefore another key, and
would count twice. Import exports of events played elsewhere, never of this site's own.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.engine.reference_csv import LineError, ReferenceGame, parse, split_name
from scoring.models.record import RecordedGame, RecordImport
from scoring.record.disciplines import discipline_of
from tournaments.actions import Kind, Refused
from tournaments.models import Person, name_key
from tournaments.services import registry

log = logging.getLogger(__name__)

Layout = RecordImport.Layout
Status = RecordImport.Status

#: Fingers or cue: the layout does not say, the record keeper does when uploading.
DISCIPLINES = {
    "fingers": gettext_lazy("Fingers"),
    "cue": gettext_lazy("Cue"),
}
#: The largest file read (the 2009-2017 record is 60 kB; a federation's whole history a few MB).
MAX_BYTES = 20 * 1024 * 1024
#: Bad lines kept in a summary (the count says how many more there were).
MAX_LISTED = 200
_CHUNK = 500


class RecordFileError(Refused):
    """A file that cannot be read at all (not text, too large, not of the layout)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, kind=Kind.INVALID, field="file")


@dataclass
class Reading:
    """What a file holds: its games (each with its key), its bad and skipped lines."""

    layout: str
    games: list[ReferenceGame] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    errors: list[LineError] = field(default_factory=list)
    skipped: list[LineError] = field(default_factory=list)
    lines: int = 0
    #: A person's fields for the registry by the name the games write (an app export keeps
    #: first and last name apart, and the club); other names are split at their last space.
    people: dict[str, dict[str, str]] = field(default_factory=dict)
    #: What the record keeper should know before confirming (nothing wrong with a line).
    warnings: list[str] = field(default_factory=list)

    def person_fields(self, name: str) -> dict[str, str]:
        """What ``find_matches`` and ``person_for`` are given for ``name``."""
        known = self.people.get(name)
        if known is not None:
            return dict(known)
        first_name, last_name = split_name(name)
        return {"first_name": first_name, "last_name": last_name}


def decode(data: bytes | str) -> str:
    """The file's text: UTF-8 (a byte-order mark allowed); anything else is refused in words."""
    if isinstance(data, str):
        text = data
    else:
        if len(data) > MAX_BYTES:
            raise RecordFileError(
                _("The file is %(size)s MB; an import takes up to %(limit)s MB.")
                % {"size": len(data) // (1024 * 1024), "limit": MAX_BYTES // (1024 * 1024)}
            )
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordFileError(
                _(
                    "The file is not UTF-8 text (byte %(byte)s). Save it from the spreadsheet "
                    "as “CSV UTF-8”."
                )
                % {"byte": exc.start + 1}
            ) from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordFileError(_("The file is empty."))
    return text


def read_upload(text: str, layout: str) -> Reading:
    """Every game of the file with its key, and its bad and skipped lines (nothing written)."""
    if layout == Layout.CROKINOLE_REFERENCE:
        parsed = parse(text)
        return Reading(
            layout=layout,
            games=parsed.games,
            keys=[f"ref:{game.digest()}" for game in parsed.games],
            errors=parsed.errors,
            skipped=parsed.skipped,
            lines=parsed.lines,
        )
    if layout == Layout.APP_EXPORT:
        from scoring.record import app_export

        found = app_export.read(text)
        return Reading(
            layout=layout,
            games=found.games,
            keys=found.keys,
            errors=found.errors,
            skipped=found.skipped,
            lines=found.lines,
            people=found.people,
            warnings=[
                _(
                    "This export was made on this site: if its tournament is still here, its "
                    "verified games are in the record already and would count twice. Import "
                    "exports of events played elsewhere."
                )
            ]
            if found.signed_here
            else [],
        )
    raise RecordFileError(
        _("Unknown layout “%(layout)s”; known: %(known)s.")
        % {"layout": layout, "known": ", ".join(Layout.values)}
    )


def recorded_keys(keys: Iterable[str]) -> set[str]:
    """Which of ``keys`` the record holds already."""
    keys = list(keys)
    found: set[str] = set()
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start : start + _CHUNK]
        found.update(RecordedGame.objects.filter(key__in=chunk).values_list("key", flat=True))
    return found


def _names(reading: Reading, games: Iterable[ReferenceGame]) -> dict[str, tuple[str, int, int]]:
    """Each person the games name, once (by the registry's name key): the name as first
    written, the line of its first game, and how many games."""
    found: dict[str, tuple[str, int, int]] = {}
    for game in games:
        for name in (*game.side_a, *game.side_b):
            fields = reading.person_fields(name)
            key = name_key(fields["first_name"], fields["last_name"])
            written, line, count = found.get(key, (name, game.line, 0))
            found[key] = (written, line, count + 1)
    return found


def _line(error: LineError) -> dict[str, Any]:
    return {
        "line": error.line,
        "column": error.column,
        "message": error.message,
        "text": str(error),
    }


def summarize(reading: Reading, discipline: str = "fingers") -> dict[str, Any]:
    """What confirming would write, as the preview shows it; reads the record and the registry
    and writes nothing."""
    recorded = recorded_keys(reading.keys)
    new_games = [
        g for g, key in zip(reading.games, reading.keys, strict=True) if key not in recorded
    ]
    new_people: list[dict[str, Any]] = []
    matched_people: list[dict[str, Any]] = []
    for written, line, count in _names(reading, new_games).values():
        fields = reading.person_fields(written)
        club = fields.get("club", "")
        matches = registry.find_matches(
            first_name=fields["first_name"], last_name=fields["last_name"], club=club
        )
        person = registry.reusable(matches, club=club)
        row = {"name": written, "line": line, "games": count}
        if person is None:
            new_people.append({**row, "same_name": len(matches)})
        else:
            how = next(m.how for m in matches if m.person.pk == person.pk)
            matched_people.append(
                {**row, "person": person.pk, "person_name": registry.describe(person), "how": how}
            )
    return {
        "layout": str(reading.layout),
        "discipline": discipline,
        "lines": reading.lines,
        "games": len(reading.games),
        "new_games": len(new_games),
        "recorded_already": len(reading.games) - len(new_games),
        "singles": sum(not g.doubles for g in new_games),
        "doubles": sum(g.doubles for g in new_games),
        "first_day": min((g.played_on for g in new_games), default=None),
        "last_day": max((g.played_on for g in new_games), default=None),
        "events": len({(g.played_on, g.event) for g in new_games}),
        "new_people": new_people,
        "matched_people": matched_people,
        "error_count": len(reading.errors),
        "errors": [_line(e) for e in reading.errors[:MAX_LISTED]],
        "skipped_count": len(reading.skipped),
        "skipped": [_line(e) for e in reading.skipped[:MAX_LISTED]],
        "warnings": reading.warnings,
    }


def _json_ready(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value.isoformat() if hasattr(value, "isoformat") else value
        for key, value in summary.items()
    }


def check_discipline(discipline: str) -> str:
    if discipline not in DISCIPLINES:
        raise Refused(
            _("Unknown discipline “%(discipline)s”; choose fingers or cue.")
            % {"discipline": discipline},
            kind=Kind.INVALID,
            field="discipline",
        )
    return discipline


def preview(
    *,
    content: bytes | str,
    filename: str = "",
    layout: str = Layout.CROKINOLE_REFERENCE,
    discipline: str = "fingers",
    user=None,
) -> RecordImport:
    """Read the file and keep it with its preview (``RecordImport``, "previewed"); nothing of
    the record or the registry is written."""
    check_discipline(discipline)
    text = decode(content)
    reading = read_upload(text, layout)
    summary = _json_ready(summarize(reading, discipline))
    return RecordImport.objects.create(
        layout=layout,
        filename=filename[:255],
        content=text,
        summary=summary,
        created_by=user if user is not None and user.is_authenticated else None,
    )


def bad_lines_refusal(count: int, errors: list[LineError]) -> Refused:
    numbers = ", ".join(str(e.line) for e in errors[:12]) + (", …" if len(errors) > 12 else "")
    return Refused(
        ngettext(
            "Nothing was written: the file has %(count)s bad line (line %(lines)s). Correct it "
            "and upload the file again, or import the other games and leave it out.",
            "Nothing was written: the file has %(count)s bad lines (lines %(lines)s). Correct "
            "them and upload the file again, or import the other games and leave them out.",
            count,
        )
        % {"count": count, "lines": numbers},
        kind=Kind.INVALID,
        field="skip_bad_lines",
    )


def still_previewed(record_import: RecordImport) -> str | None:
    """The confirmation's precondition: an import is written once."""
    if record_import.status == Status.PREVIEWED:
        return None
    when = timezone.localtime(record_import.confirmed_at) if record_import.confirmed_at else None
    return _(
        "This import was confirmed%(when)s: its games are in the record. To import the file "
        "again, upload it again (what is recorded already is found and left as it is)."
    ) % {"when": f" ({when:%Y-%m-%d %H:%M})" if when else ""}


def _person(reading: Reading, cache: dict[str, tuple[Person, bool]], name: str) -> Person:
    fields = reading.person_fields(name)
    key = name_key(fields["first_name"], fields["last_name"])
    if key not in cache:
        cache[key] = registry.person_for(**fields)
    return cache[key][0]


def _recorded(
    reading: Reading,
    game: ReferenceGame,
    key: str,
    people: dict[str, tuple[Person, bool]],
    record_import: RecordImport | None,
    discipline: str,
) -> RecordedGame:
    side_a = [_person(reading, people, name) for name in game.side_a]
    side_b = [_person(reading, people, name) for name in game.side_b]
    rounds = [
        [*values] + ([first] if (first := game.first_of_round(n)) is not None else [])
        for n, values in enumerate(game.rounds, 1)
    ]
    points, twenties = game.points, game.twenties
    return RecordedGame(
        key=key,
        source=record_import,
        discipline=str(discipline_of("doubles" if game.doubles else "singles", discipline)),
        played_on=game.played_on,
        event=game.event,
        stage=game.stage,
        pool=game.pool,
        number=game.number,
        sequence=game.line,
        person_a=side_a[0],
        partner_a=side_a[1] if len(side_a) > 1 else None,
        person_b=side_b[0],
        partner_b=side_b[1] if len(side_b) > 1 else None,
        rounds=rounds,
        points_a=points[0],
        points_b=points[1],
        twenties_a=twenties[0],
        twenties_b=twenties[1],
    )


@transaction.atomic
def confirm(user, record_import: RecordImport, *, skip_bad_lines: bool = False) -> RecordImport:
    """Write a previewed import into the record: its people and its new games, all or nothing.

    Refused when it was confirmed already, or when the file has bad lines and
    ``skip_bad_lines`` is not given. Games recorded already (their keys) are left as they are.
    The ratings of the disciplines it touched are recomputed once it commits."""
    locked = RecordImport.objects.select_for_update().get(pk=record_import.pk)
    refusal = still_previewed(locked)
    if refusal:
        raise Refused(refusal, kind=Kind.CONFLICT)
    summary = dict(locked.summary)
    discipline = check_discipline(summary.get("discipline", "fingers"))
    reading = read_upload(locked.content, locked.layout)
    if reading.errors and not skip_bad_lines:
        raise bad_lines_refusal(len(reading.errors), reading.errors)
    recorded = recorded_keys(reading.keys)
    people: dict[str, tuple[Person, bool]] = {}
    rows = [
        _recorded(reading, game, key, people, locked, discipline)
        for game, key in zip(reading.games, reading.keys, strict=True)
        if key not in recorded
    ]
    RecordedGame.objects.bulk_create(rows, batch_size=_CHUNK, ignore_conflicts=True)
    created = sum(1 for _person, was_created in people.values() if was_created)
    summary["written"] = {
        "games": len(rows),
        "recorded_already": len(reading.games) - len(rows),
        "people_created": created,
        "people_matched": len(people) - created,
        "bad_lines_left_out": len(reading.errors),
    }
    locked.summary = summary
    locked.status = Status.CONFIRMED
    locked.confirmed_at = timezone.now()
    locked.save(update_fields=["summary", "status", "confirmed_at"])
    if rows:
        transaction.on_commit(lambda: recompute_ratings(locked))
    return locked


def recompute_ratings(record_import: RecordImport) -> None:
    """The ratings of the disciplines the import touched, replayed with its games (the
    ratings' own service); a failure is logged, never undoes the import: the nightly run
    catches up."""
    try:
        from scoring.ratings.services import recompute_after_import
    except ImportError:  # a site without the ratings
        return
    try:
        recompute_after_import(record_import)
    except Exception:  # the import stands; the nightly recompute repeats it
        log.exception("ratings recompute after import %s failed", record_import.pk)


def written_message(record_import: RecordImport) -> str:
    """What a confirmed import wrote, in one sentence (the page's message, the command's and
    the API's ``detail``)."""
    written = record_import.summary.get("written", {})
    return _(
        "Imported: %(games)s new games, %(created)s new people, %(matched)s people matched in "
        "the registry; %(already)s games were recorded already, %(left)s bad lines left out."
    ) % {
        "games": written.get("games", 0),
        "created": written.get("people_created", 0),
        "matched": written.get("people_matched", 0),
        "already": written.get("recorded_already", 0),
        "left": written.get("bad_lines_left_out", 0),
    }
