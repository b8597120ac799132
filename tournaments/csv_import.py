"""Reading a registration spreadsheet: CSV bytes in, one checked row per player out.

Pure (no Django): the organizer pages, a command-line tool and tests all call ``parse`` with the
file and what the tournament already holds (its categories and registered players), and get back
every row with its parsed values and the reasons it cannot be imported. Nothing is written here;
the registration service imports the valid rows of a preview it re-checks against the database.

Files come from spreadsheets, so they are read generously: a UTF-8 byte-order mark, UTF-16 with a
byte-order mark, ``,`` ``;`` or tab between values, headers in any case with spaces or
underscores, and common header spellings (``ID``, ``Surname``). Anything that cannot be read
raises ``CsvFileError`` with a message saying what is wrong and how to fix it.
"""

import csv
import hashlib
import io
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.translation import _, gettext_noop, ngettext

#: The columns, in the order of the example file. Only the names are required.
COLUMNS = (
    "first_name",
    "last_name",
    "number",
    "club",
    "country",
    "categories",
    "federation_id",
    "federation",
)
REQUIRED = ("first_name", "last_name")

#: What each column means, shown on the import page next to the example file (translated
#: there: ``gettext(COLUMN_HELP[column])``).
COLUMN_HELP = {
    "first_name": gettext_noop("First name (required)."),
    "last_name": gettext_noop("Last name (required)."),
    "number": gettext_noop(
        "Player ID number printed on the scorecard: a whole number above 0. Leave it "
        "blank to give the player the next free ID."
    ),
    "club": gettext_noop("Club (optional)."),
    "country": gettext_noop("Country (optional)."),
    "categories": gettext_noop(
        "Singles categories to enter, by name, separated by | (for example "
        "Competitive Singles|Cue Singles). Optional. Doubles teams are paired on the Teams page."
    ),
    "federation_id": gettext_noop(
        "The player's federation or association ID number (optional): a player whose number "
        "the registry knows is linked to that person."
    ),
    "federation": gettext_noop("The federation that gave that ID number (optional)."),
}

#: Other spellings people use for the same column (after lower-casing and spaces -> "_").
ALIASES = {
    "first": "first_name",
    "firstname": "first_name",
    "given_name": "first_name",
    "last": "last_name",
    "lastname": "last_name",
    "surname": "last_name",
    "family_name": "last_name",
    "id": "number",
    "id_number": "number",
    "player_id": "number",
    "player_number": "number",
    "no": "number",
    "category": "categories",
    "member_id": "federation_id",
    "member_number": "federation_id",
    "membership_number": "federation_id",
    "federation_number": "federation_id",
    "licence": "federation_id",
    "license": "federation_id",
    "association": "federation",
}

CATEGORY_SEPARATOR = "|"
DELIMITERS = (",", ";", "\t")
MAX_ROWS = 5000
#: The database's limits on each text column (tournaments.models.Player).
MAX_LENGTHS = {
    "first_name": 100,
    "last_name": 100,
    "club": 100,
    "country": 60,
    "federation_id": 40,
    "federation": 60,
}
MAX_NUMBER = 2_147_483_647  # PositiveIntegerField's upper bound on every supported database
#: A row's errors about one column, whole sentences so that a translation can agree with each
#: column's name (translated when a row is checked: ``_(MISSING[column])``).
MISSING = {
    "first_name": gettext_noop("The first name is missing."),
    "last_name": gettext_noop("The last name is missing."),
}
TOO_LONG = {
    "first_name": gettext_noop("The first name is %(length)s characters long; at most %(limit)s."),
    "last_name": gettext_noop("The last name is %(length)s characters long; at most %(limit)s."),
    "club": gettext_noop("The club is %(length)s characters long; at most %(limit)s."),
    "country": gettext_noop("The country is %(length)s characters long; at most %(limit)s."),
    "federation_id": gettext_noop(
        "The federation ID is %(length)s characters long; at most %(limit)s."
    ),
    "federation": gettext_noop("The federation is %(length)s characters long; at most %(limit)s."),
}

EXAMPLE_CSV = (
    "first_name,last_name,number,club,country,categories\n"  # untranslated: read back by parse
    "Anna,Brubacher,101,Tavistock,Canada,Competitive Singles\n"
    "Ben,Schmidt,102,Tavistock,Canada,Competitive Singles|Cue Singles\n"
    "Carla,Martin,,Kitchener,Canada,Recreational Singles\n"
    '"Dan ""Flick""",Okafor,,,Canada,\n'
)


def example_csv(singles_categories: Sequence[str] = ()) -> str:
    """The example file, naming the tournament's own singles categories when it has some."""
    if not singles_categories:
        return EXAMPLE_CSV
    first, *rest = singles_categories
    both = CATEGORY_SEPARATOR.join([first, *rest[:1]])
    return (
        "first_name,last_name,number,club,country,categories\n"  # untranslated: read back by parse
        f"Anna,Brubacher,101,Tavistock,Canada,{_quoted(first)}\n"
        f"Ben,Schmidt,102,Tavistock,Canada,{_quoted(both)}\n"
        f"Carla,Martin,,Kitchener,Canada,{_quoted(first)}\n"
        '"Dan ""Flick""",Okafor,,,Canada,\n'
    )


def _quoted(value: str) -> str:
    """A CSV cell: quoted when it holds a delimiter, a quote or a line break."""
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow([value])
    return out.getvalue()


class CsvFileError(ValueError):
    """The file as a whole cannot be read (empty, binary, wrong encoding, wrong header)."""


@dataclass(frozen=True)
class KnownCategory:
    """A category of the tournament, as the import needs to know it."""

    name: str
    doubles: bool = False


@dataclass(frozen=True)
class KnownPlayer:
    """A player already registered at the tournament."""

    number: int
    first_name: str
    last_name: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass(frozen=True)
class ImportRow:
    """One data row: its values as parsed, and why it cannot be imported (if it cannot).

    ``number`` is the ID from the file or, for a valid row that left it blank, the next free
    one (``number_assigned`` is then true). ``categories`` holds the tournament's own spelling
    of each category name. Warnings do not stop the import; errors do.
    """

    line: int
    first_name: str
    last_name: str
    number: int | None
    number_assigned: bool
    club: str
    country: str
    categories: tuple[str, ...]
    raw_number: str = ""
    raw_categories: str = ""
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    #: The registry's ID number and its federation (optional columns).
    federation_id: str = ""
    federation: str = ""

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass(frozen=True)
class ImportPreview:
    """Every data row of a file, checked; ``ignored_columns`` were in the header but unused."""

    rows: tuple[ImportRow, ...]
    delimiter: str
    ignored_columns: tuple[str, ...] = field(default=())

    @property
    def delimiter_name(self) -> str:
        names = {",": _("comma"), ";": _("semicolon"), "\t": _("tab")}
        return names.get(self.delimiter, self.delimiter)

    @property
    def valid_rows(self) -> tuple[ImportRow, ...]:
        return tuple(r for r in self.rows if r.valid)

    @property
    def invalid_rows(self) -> tuple[ImportRow, ...]:
        return tuple(r for r in self.rows if not r.valid)

    @property
    def fingerprint(self) -> str:
        """Identifies exactly what an import would write, so a confirmation can check that
        nothing changed (a new registration, a renamed category) since the preview."""
        digest = hashlib.sha256()
        for r in self.valid_rows:
            digest.update(
                repr(
                    (
                        r.line,
                        r.number,
                        r.first_name,
                        r.last_name,
                        r.club,
                        r.country,
                        r.categories,
                        r.federation_id,
                        r.federation,
                    )
                ).encode()
            )
        return digest.hexdigest()


def decode(data: bytes) -> str:
    """The file's text; UTF-8 (with or without a byte-order mark) or UTF-16 with one.

    Raises ``CsvFileError`` for binary files and for text in another encoding, naming the line
    of the first byte that cannot be read.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise CsvFileError(
                _(
                    "The file starts like UTF-16 text but cannot be read as such. Save it from "
                    "your spreadsheet program as 'CSV UTF-8' and upload it again."
                )
            ) from None
    if b"\x00" in data[:8192] or data.startswith(b"PK\x03\x04"):
        raise CsvFileError(
            _(
                "This is not a CSV text file (it holds binary data: a spreadsheet or another "
                "document?). Save it from your spreadsheet program as 'CSV UTF-8' and upload that."
            )
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CsvFileError(
            _(
                "The file is not UTF-8 text: line %(line)s holds the byte 0x%(byte)s, "
                "which UTF-8 cannot read (the file was probably saved as Windows or Mac text). "
                "Save it from your spreadsheet program as 'CSV UTF-8' and upload it again."
            )
            % {"line": line, "byte": f"{data[exc.start]:02X}"}
        ) from None


def _check_no_nul(text: str) -> None:
    """Refuse a NUL character anywhere, naming its line. ``decode`` looks for binary data in the
    first 8 KB only; one further down would pass the preview and fail when the names are saved
    (PostgreSQL stores no NUL in a text), so the whole text is checked before any row is read."""
    at = text.find("\x00")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        raise CsvFileError(
            _(
                "Line %(line)s holds a NUL byte (\\0), which a CSV text file cannot contain (the "
                "file was probably damaged or joined with binary data). Remove it, or save the "
                "file again from your spreadsheet program as 'CSV UTF-8', and upload it again."
            )
            % {"line": line}
        )


def normalise_header(name: str) -> str:
    key = re.sub(r"[\s\-.]+", "_", name.strip().lower()).strip("_")
    return ALIASES.get(key, key)


def _fold(text: str) -> str:
    """Case- and spacing-insensitive key for names."""
    return " ".join(text.split()).casefold()


def sniff_delimiter(header_line: str) -> str:
    """The delimiter the header uses most: spreadsheets in many locales write ``;``."""
    counts = {d: header_line.count(d) for d in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def parse(
    data: bytes | str,
    *,
    categories: Iterable[KnownCategory] = (),
    registered: Iterable[KnownPlayer] = (),
) -> ImportPreview:
    """Check every row of a registration file against the file itself and the tournament.

    Row errors: a missing first or last name, a value too long, an ID number that is not a whole
    number above 0, an ID used twice in the file or already registered, an unknown or doubles
    category, more values than columns. Raises ``CsvFileError`` when the file as a whole cannot
    be read (see ``decode``), is empty, has no player rows, or its header lacks the name
    columns.
    """
    text = decode(data) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    _check_no_nul(text)
    if not text.strip():
        raise CsvFileError(_("The file is empty: it needs a header line and one line per player."))
    first_line = text.lstrip("\r\n").splitlines()[0]
    delimiter = sniff_delimiter(first_line)
    try:
        records = _read_records(text, delimiter)
    except csv.Error as exc:
        raise CsvFileError(
            _("The file cannot be read as CSV: %(error)s.") % {"error": exc}
        ) from None
    header_line, header = records[0]
    columns = [normalise_header(h) for h in header]
    _check_header(header, columns, header_line)
    ignored = tuple(h.strip() for h, c in zip(header, columns, strict=True) if c not in COLUMNS)
    body = [(line, values) for line, values in records[1:] if any(v.strip() for v in values)]
    if not body:
        raise CsvFileError(_("The file has a header line but no player rows."))
    if len(body) > MAX_ROWS:
        raise CsvFileError(
            _(
                "The file has %(rows)s player rows; at most %(limit)s can be imported at once. "
                "Split it into smaller files."
            )
            % {"rows": len(body), "limit": MAX_ROWS}
        )
    rows = _check_rows(
        [(line, _cells(columns, values), len(values)) for line, values in body],
        width=len(columns),
        categories=list(categories),
        registered=list(registered),
    )
    return ImportPreview(rows=tuple(rows), delimiter=delimiter, ignored_columns=ignored)


def _read_records(text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    """(line number where the record starts, values) for every record, blank lines dropped."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    records = []
    start = 1
    for values in reader:
        if values:
            records.append((start, values))
        start = reader.line_num + 1
    if not records:
        raise CsvFileError(_("The file is empty: it needs a header line and one line per player."))
    return records


def _check_header(header: Sequence[str], columns: Sequence[str], line: int) -> None:
    expected = ", ".join(COLUMNS)
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        found = ", ".join(repr(h.strip()) for h in header[:8])
        raise CsvFileError(
            ngettext(
                "The header (line %(line)s) must name the columns; %(missing)s is missing. "
                "Found: %(found)s. Expected the header: %(expected)s (only first_name and "
                "last_name are required).",
                "The header (line %(line)s) must name the columns; %(missing)s are missing. "
                "Found: %(found)s. Expected the header: %(expected)s (only first_name and "
                "last_name are required).",
                len(missing),
            )
            % {"line": line, "missing": _and(missing), "found": found, "expected": expected}
        )
    twice = sorted(c for c, n in Counter(c for c in columns if c in COLUMNS).items() if n > 1)
    if twice:
        raise CsvFileError(
            _(
                "The header (line %(line)s) names the column %(columns)s more than once "
                "(perhaps under two spellings, such as number and ID)."
            )
            % {"line": line, "columns": ", ".join(twice)}
        )


def _and(names: Sequence[str]) -> str:
    """``a``, or ``a and b`` (the required columns are two)."""
    if len(names) == 2:
        return _("%(first)s and %(second)s") % {"first": names[0], "second": names[1]}
    return ", ".join(names)


def _cells(columns: Sequence[str], values: Sequence[str]) -> dict[str, str]:
    """The row's values by column; a short row (trailing cells left out) reads as blanks."""
    cells = dict.fromkeys(COLUMNS, "")
    for column, value in zip(columns, values, strict=False):
        if column in COLUMNS:
            cells[column] = value.strip()
    return cells


@dataclass
class _Draft:
    line: int
    cells: dict[str, str]
    number: int | None = None
    categories: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _check_rows(
    parsed: list[tuple[int, dict[str, str], int]],
    *,
    width: int,
    categories: list[KnownCategory],
    registered: list[KnownPlayer],
) -> list[ImportRow]:
    by_category = {_fold(c.name): c for c in categories}
    by_number = {p.number: p for p in registered}
    by_name = {_fold(p.full_name): p for p in registered}
    drafts = [_check_one(line, cells, count, width, by_category) for line, cells, count in parsed]

    lines_by_number: dict[int, list[int]] = defaultdict(list)
    lines_by_name: dict[str, list[int]] = defaultdict(list)
    for d in drafts:
        if d.number is not None:
            lines_by_number[d.number].append(d.line)
        name = _fold(f"{d.cells['first_name']} {d.cells['last_name']}")
        if name:
            lines_by_name[name].append(d.line)
    # An ID written on several lines goes with the first of them that is otherwise fine: that
    # player is imported, the later lines are skipped (a copied line is the usual cause), and
    # both sides say so.
    keeper = {
        number: next((d.line for d in drafts if d.number == number and not d.errors), None)
        for number, lines in lines_by_number.items()
        if len(lines) > 1 and number not in by_number
    }
    for d in drafts:
        if d.number is not None:
            kept = keeper.get(d.number)
            if kept == d.line:
                skipped = [n for n in lines_by_number[d.number] if n != d.line]
                d.warnings.append(
                    ngettext(
                        "ID %(number)s is also on line %(lines)s, which is skipped; this line "
                        "keeps it.",
                        "ID %(number)s is also on lines %(lines)s, which are skipped; this line "
                        "keeps it.",
                        len(skipped),
                    )
                    % {"number": d.number, "lines": ", ".join(map(str, skipped))}
                )
            elif kept is not None:
                d.errors.append(
                    _(
                        "ID %(number)s is kept by line %(line)s: this line is skipped (give it "
                        "another ID, or leave the ID blank for the next free one)."
                    )
                    % {"number": d.number, "line": kept}
                )
            if d.number in by_number:
                d.errors.append(
                    _("ID %(number)s is already registered (%(name)s).")
                    % {"number": d.number, "name": by_number[d.number].full_name}
                )
        name = _fold(f"{d.cells['first_name']} {d.cells['last_name']}")
        if name in by_name:
            known = by_name[name]
            d.warnings.append(
                _("A player of this name is already registered (ID %(number)s).")
                % {"number": known.number}
            )
        others = [n for n in lines_by_name.get(name, []) if n != d.line]
        if others:
            d.warnings.append(
                _("Same name as line %(lines)s.") % {"lines": ", ".join(map(str, others))}
            )

    # Blank IDs of valid rows get the next free numbers, above every ID already in use or
    # written in the file, so an import never takes a number someone else expects.
    taken = set(by_number) | set(lines_by_number)
    next_free = max(taken, default=0) + 1
    rows = []
    for d in drafts:
        number, assigned = d.number, False
        if number is None and not d.errors:
            number, assigned = next_free, True
            next_free += 1
        rows.append(
            ImportRow(
                line=d.line,
                first_name=d.cells["first_name"],
                last_name=d.cells["last_name"],
                number=number,
                number_assigned=assigned,
                club=d.cells["club"],
                country=d.cells["country"],
                categories=tuple(d.categories),
                raw_number=d.cells["number"],
                raw_categories=d.cells["categories"],
                errors=tuple(d.errors),
                warnings=tuple(d.warnings),
                federation_id=d.cells["federation_id"],
                federation=d.cells["federation"],
            )
        )
    return rows


def _check_one(
    line: int,
    cells: dict[str, str],
    count: int,
    width: int,
    by_category: dict[str, KnownCategory],
) -> _Draft:
    d = _Draft(line=line, cells=cells)
    if count > width:
        d.errors.append(
            _(
                "%(values)s values but the header has %(columns)s columns (a value holding the "
                "delimiter must be in double quotes)."
            )
            % {"values": count, "columns": width}
        )
    for column in REQUIRED:
        if not cells[column]:
            d.errors.append(_(MISSING[column]))
    for column, limit in MAX_LENGTHS.items():
        value = cells[column]
        if len(value) > limit:
            d.errors.append(_(TOO_LONG[column]) % {"length": len(value), "limit": limit})
    raw_number = cells["number"]
    if raw_number:
        if re.fullmatch(r"\d+", raw_number) and 0 < int(raw_number) <= MAX_NUMBER:
            d.number = int(raw_number)
        else:
            d.errors.append(
                _("ID number %(number)s is not a whole number above 0.")
                % {"number": repr(raw_number)}
            )
    for name in cells["categories"].split(CATEGORY_SEPARATOR):
        if not name.strip():
            continue
        known = by_category.get(_fold(name))
        if known is None:
            names = ", ".join(sorted(c.name for c in by_category.values())) or _("none yet")
            d.errors.append(
                _("Unknown category %(name)s (categories: %(categories)s).")
                % {"name": repr(name.strip()), "categories": names}
            )
        elif known.doubles:
            d.errors.append(
                _("%(category)s is a doubles category: pair its teams on the Teams page.")
                % {"category": known.name}
            )
        elif known.name not in d.categories:
            d.categories.append(known.name)
    return d
