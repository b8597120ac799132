"""Reading registration files: every row checked, every file problem named (no database, but
for the import page's own refusal at the end)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import TournamentRoleFactory
from tournaments.csv_import import (
    EXAMPLE_CSV,
    CsvFileError,
    KnownCategory,
    KnownPlayer,
    example_csv,
    parse,
)
from tournaments.models import Player, TournamentRole

CATEGORIES = [
    KnownCategory("Competitive Singles"),
    KnownCategory("Cue Singles"),
    KnownCategory("Competitive Doubles", doubles=True),
]
HEADER = "first_name,last_name,number,club,country,categories\n"


def check(text: str | bytes, registered=()):
    data = text.encode() if isinstance(text, str) else text
    return parse(data, categories=CATEGORIES, registered=registered)


def test_example_file_reads_cleanly_with_blank_ids_numbered_after_the_highest():
    preview = check(EXAMPLE_CSV.replace("Recreational Singles", "Cue Singles"))
    assert [r.errors for r in preview.rows] == [()] * 4
    assert [(r.number, r.number_assigned) for r in preview.rows] == [
        (101, False),
        (102, False),
        (103, True),
        (104, True),
    ]
    assert preview.rows[1].categories == ("Competitive Singles", "Cue Singles")
    assert preview.rows[3].first_name == 'Dan "Flick"'
    assert preview.rows[0].line == 2


def test_blank_ids_skip_numbers_already_registered():
    preview = check(HEADER + "Anna,Brubacher,,,,\n", registered=[KnownPlayer(250, "X", "Y")])
    assert preview.rows[0].number == 251 and preview.rows[0].number_assigned


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (",Brubacher,101,,,", "first name is missing"),
        ("Anna,,101,,,", "last name is missing"),
        ("Anna,Brubacher,abc,,,", "'abc' is not a whole number"),
        ("Anna,Brubacher,-4,,,", "'-4' is not a whole number"),
        ("Anna,Brubacher,0,,,", "'0' is not a whole number"),
        ("Anna,Brubacher,1.5,,,", "'1.5' is not a whole number"),
        ("Anna,Brubacher,101,,,Juniors", "Unknown category 'Juniors'"),
        ("Anna,Brubacher,101,,,Competitive Doubles", "is a doubles category"),
        ("Anna,Brubacher,101,,,,extra", "7 values but the header has 6 columns"),
        ("Anna,Brubacher,101,," + "x" * 61 + ",", "country is 61 characters long"),
    ],
)
def test_row_errors_name_what_is_wrong(line, message):
    (row,) = check(HEADER + line + "\n").rows
    assert not row.valid
    assert any(message in e for e in row.errors), row.errors


def test_an_error_row_does_not_stop_the_others():
    preview = check(HEADER + ",NoFirst,101,,,\nBen,Schmidt,102,,,\n")
    assert [r.valid for r in preview.rows] == [False, True]
    assert [r.line for r in preview.valid_rows] == [3]


def test_a_duplicate_id_in_the_file_stays_with_its_first_line_and_skips_the_others():
    preview = check(HEADER + "Anna,B,105,,,\nBen,S,106,,,\nCarl,M,105,,,\nDee,K,105,,,\n")
    assert [r.valid for r in preview.rows] == [True, True, False, False]
    assert [r.line for r in preview.valid_rows] == [2, 3]
    assert preview.rows[0].warnings == (
        "ID 105 is also on lines 4, 5, which are skipped; this line keeps it.",
    )
    for row in preview.rows[2:]:
        assert row.errors == (
            "ID 105 is kept by line 2: this line is skipped (give it another ID, or leave the "
            "ID blank for the next free one).",
        )


def test_a_duplicate_id_goes_to_the_first_line_that_can_be_imported():
    preview = check(HEADER + ",NoFirst,105,,,\nBen,S,105,,,\n")
    assert [r.valid for r in preview.rows] == [False, True]
    # the line that cannot be imported anyway is told where its ID went
    assert "ID 105 is kept by line 3" in " ".join(preview.rows[0].errors)
    assert "also on line 2" in preview.rows[1].warnings[0]


def test_already_registered_id_is_an_error_and_a_known_name_a_warning():
    registered = [KnownPlayer(105, "Anna", "Brubacher")]
    preview = check(HEADER + "Zoe,Q,105,,,\nanna,BRUBACHER,,,,\n", registered=registered)
    assert "already registered (Anna Brubacher)" in preview.rows[0].errors[0]
    assert preview.rows[1].valid
    assert "already registered (ID 105)" in preview.rows[1].warnings[0]


def test_semicolons_bom_header_spellings_and_case_are_accepted():
    text = "\ufeffFirst Name;Surname;ID;Club;Country;Category\nAnna;Brubacher;7;T;C;cue singles\n"
    preview = check(text.encode("utf-8"))
    assert preview.delimiter == ";" and preview.delimiter_name == "semicolon"
    (row,) = preview.rows
    assert (row.first_name, row.last_name, row.number, row.categories) == (
        "Anna",
        "Brubacher",
        7,
        ("Cue Singles",),
    )


def test_utf16_with_bom_and_tabs_is_read():
    text = "first_name\tlast_name\nÉlise\tDubois\n"
    (row,) = check(text.encode("utf-16")).rows
    assert row.first_name == "Élise" and row.valid


def test_extra_columns_are_ignored_and_listed_and_blank_lines_skipped():
    preview = check("first_name,last_name,email\n\nAnna,B,a@example.org\n\n")
    assert preview.ignored_columns == ("email",)
    assert len(preview.rows) == 1 and preview.rows[0].line == 3


def test_quoted_values_may_hold_delimiters_and_line_breaks():
    preview = check(HEADER + '"Anna, Jr",B,1,"Club\nNorth",,\nBen,S,2,,,\n')
    assert preview.rows[0].first_name == "Anna, Jr"
    assert preview.rows[1].line == 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"  \r\n\n", "empty"),
        (HEADER.encode(), "no player rows"),
        (b"Anna,Brubacher,101\nBen,Schmidt,102\n", "first_name and last_name are missing"),
        (b"name,number\nAnna,1\n", "Expected the header: first_name, last_name"),
        (b"first_name,last_name,id,number\nA,B,1,2\n", "number more than once"),
        (b"PK\x03\x04\x14\x00\x06\x00binary", "not a CSV text file"),
        (bytes(range(256)), "not a CSV text file"),
        ("first_name,last_name\nÉlise,Dubois\n".encode("cp1252"), "line 2 holds the byte 0xC9"),
    ],
)
def test_unreadable_files_get_a_clear_message(data, message):
    with pytest.raises(CsvFileError, match=message):
        check(data)


def test_too_many_rows_refused(monkeypatch):
    monkeypatch.setattr("tournaments.csv_import.MAX_ROWS", 2)
    with pytest.raises(CsvFileError, match="at most 2"):
        check(HEADER + "A,B,,,,\n" * 3)


def test_fingerprint_changes_with_what_would_be_written():
    one = check(HEADER + "Anna,B,,,,\n")
    assert one.fingerprint == check(HEADER + "Anna,B,,,,\n").fingerprint
    later = check(HEADER + "Anna,B,,,,\n", registered=[KnownPlayer(1, "X", "Y")])
    assert later.rows[0].number == 2
    assert later.fingerprint != one.fingerprint


def test_example_file_names_the_tournaments_categories_and_reads_back():
    text = example_csv(["Cue Singles", "Competitive Singles"])
    assert "Cue Singles|Competitive Singles" in text
    assert all(r.valid for r in check(text).rows)


def nul_after_the_first_8_kb() -> tuple[bytes, int]:
    """A valid file of 400 players whose NUL byte sits past the 8 KB ``decode`` looks at, and the
    line it is on."""
    rows = [f"Player{n},Long-Surname-{n:04d},{n},Club,Canada,\n" for n in range(1, 401)]
    line = 300
    rows[line - 2] = rows[line - 2].replace("Club", "Cl\x00ub")
    data = (HEADER + "".join(rows)).encode()
    assert data.index(b"\x00") > 8192
    return data, line


def test_a_nul_byte_past_the_first_8_kb_is_refused_with_its_line():
    data, line = nul_after_the_first_8_kb()
    with pytest.raises(CsvFileError, match=rf"Line {line} holds a NUL byte"):
        check(data)


@pytest.mark.django_db
def test_the_import_page_refuses_a_late_nul_byte_at_preview(client):
    role = TournamentRoleFactory(role=TournamentRole.Role.ORGANIZER)
    tournament = role.tournament
    client.force_login(role.user)
    data, line = nul_after_the_first_8_kb()
    response = client.post(
        reverse("tournaments:manage-import", args=[tournament.slug]),
        {"file": SimpleUploadedFile("players.csv", data, content_type="text/csv")},
    )
    assert response.status_code == 400
    assert f"Line {line} holds a NUL byte" in response.content.decode()
    assert not Player.objects.filter(tournament=tournament).exists()
