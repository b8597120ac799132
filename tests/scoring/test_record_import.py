"""Imports of past results into the record (``scoring.record.importing``): the preview writes
nothing, bad lines are named by number and keep everything out unless left out on purpose, a
confirmed file writes its games and people once, and a re-import writes nothing. The pages, the
API and the command take the same steps, for the record keepers only."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape

from scoring.exports.services import export_tournament
from scoring.models.record import Discipline, RecordedGame, RecordImport
from scoring.record import importing
from scoring.record.import_actions import RECORD_KEEPERS_ONLY, confirm_record_import
from scoring.results.services import record_game
from tests.events import WIN
from tests.factories import UserFactory
from tournaments.actions import Refused
from tournaments.models import Person
from tournaments.services.registry import create_person

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "data" / "competitive-singles-2009-2017.csv"
HEADER = (
    "date,event,stage,pool,game,player_a,player_b,first_in_round_1,"
    "points_a,points_b,twenties_a,twenties_b"
)
BAD_LINES = [41, 278, 380, 496]


@pytest.fixture
def record_keeper():
    return UserFactory(username="keeper", is_staff=True)


@pytest.fixture
def record_file() -> bytes:
    return DATA.read_bytes()


def counts() -> tuple[int, int, int]:
    return Person.objects.count(), RecordedGame.objects.count(), RecordImport.objects.count()


def test_the_preview_of_the_published_record_writes_nothing(record_file):
    preview = importing.preview(content=record_file, filename="record.csv")
    assert (Person.objects.count(), RecordedGame.objects.count()) == (0, 0)
    summary = RecordImport.objects.get(pk=preview.pk).summary
    assert summary["lines"] == 836
    assert (summary["new_games"], summary["recorded_already"]) == (642, 0)
    assert len(summary["new_people"]) == 56 and summary["matched_people"] == []
    assert [e["line"] for e in summary["errors"]] == BAD_LINES
    assert summary["errors"][0]["column"] == "points_a"
    assert summary["errors"][0]["text"].startswith("line 41, points_a: round 3:")
    assert summary["skipped_count"] == 190 and summary["skipped"][0]["line"] == 648
    assert summary["first_day"] == "2009-06-06" and summary["last_day"] == "2017-09-16"


def test_bad_lines_keep_everything_out_unless_left_out_on_purpose(record_file):
    preview = importing.preview(content=record_file)
    with pytest.raises(Refused) as refused:
        importing.confirm(None, preview)
    assert "4 bad lines (lines 41, 278, 380, 496)" in refused.value.text
    assert (Person.objects.count(), RecordedGame.objects.count()) == (0, 0)
    preview.refresh_from_db()
    assert preview.status == RecordImport.Status.PREVIEWED


def test_the_published_record_imports_once_and_a_reimport_writes_nothing(record_file):
    done = importing.confirm(None, importing.preview(content=record_file), skip_bad_lines=True)
    assert done.status == RecordImport.Status.CONFIRMED and done.confirmed_at is not None
    assert done.summary["written"] == {
        "games": 642,
        "recorded_already": 0,
        "people_created": 56,
        "people_matched": 0,
        "bad_lines_left_out": 4,
    }
    assert (Person.objects.count(), RecordedGame.objects.count()) == (56, 642)
    final = RecordedGame.objects.get(event="WCC", stage="Final G1")
    assert final.person_a.first_name == "Nathan" and final.person_a.last_name == "Walsh"
    assert final.rounds[0] == [0, 2, 3, 4, 0] and final.rounds[1] == [2, 0, 2, 2, 1]
    assert (final.points_a, final.points_b, final.twenties_a, final.twenties_b) == (4, 6, 13, 14)
    assert final.discipline == Discipline.SINGLES and final.sequence == 2
    assert final.key.startswith("ref:") and final.source == done
    assert Person.objects.filter(first_name="Jon", last_name="Conrad").count() == 1

    people = list(Person.objects.order_by("pk").values_list("pk", "key"))
    games = list(RecordedGame.objects.order_by("pk").values_list("pk", "key", "rounds"))
    again = importing.preview(content=record_file)
    assert (again.summary["new_games"], again.summary["recorded_already"]) == (0, 642)
    assert again.summary["new_people"] == []
    done_again = importing.confirm(None, again, skip_bad_lines=True)
    assert done_again.summary["written"]["games"] == 0
    assert done_again.summary["written"]["people_created"] == 0
    assert list(Person.objects.order_by("pk").values_list("pk", "key")) == people
    assert list(RecordedGame.objects.order_by("pk").values_list("pk", "key", "rounds")) == games


def test_the_preview_lists_people_found_in_the_registry_and_confirming_reuses_them():
    walsh = create_person(first_name="Nathan", last_name="Walsh")
    text = (
        f"{HEADER}\n"
        "2009-06-06,WCC,Final G1,1v2,1,Nathan Walsh,Brian Cook,,2 2 0 2,0 0 2 0,1 1 1 1,0 0 0 0\n"
        "2009-06-06,WCC,Doubles,A,1,Ann Lee & Bob Roy,Cid Day & Dee Fox,Bob Roy,"
        "2 2 2 2,0 0 0 0,9 0 0 0,0 0 0 0\n"
    )
    preview = importing.preview(content=text, discipline="cue")
    summary = preview.summary
    assert [p["name"] for p in summary["matched_people"]] == ["Nathan Walsh"]
    assert summary["matched_people"][0]["person"] == walsh.pk
    assert [p["name"] for p in summary["new_people"]] == [
        "Brian Cook",
        "Ann Lee",
        "Bob Roy",
        "Cid Day",
        "Dee Fox",
    ]
    assert (summary["singles"], summary["doubles"]) == (1, 1)
    assert Person.objects.count() == 1

    importing.confirm(None, preview)
    assert Person.objects.count() == 6
    single = RecordedGame.objects.get(stage="Final G1")
    assert single.person_a == walsh and single.discipline == Discipline.CUE_SINGLES
    assert len(single.rounds[0]) == 4  # who shot first is not known
    pair = RecordedGame.objects.get(stage="Doubles")
    assert pair.discipline == Discipline.CUE_DOUBLES
    assert (pair.person_a.full_name, pair.partner_a.full_name) == ("Ann Lee", "Bob Roy")
    assert (pair.person_b.full_name, pair.partner_b.full_name) == ("Cid Day", "Dee Fox")
    assert [r[4] for r in pair.rounds] == [0, 1, 0, 1] and pair.twenties_a == 9


def test_a_confirmed_import_is_not_confirmed_twice():
    text = f"{HEADER}\n2010-01-02,Club,,,1,Ann Lee,Bob Roy,,2,0,1,0\n"
    preview = importing.preview(content=text)
    importing.confirm(None, preview)
    preview.refresh_from_db()
    refusal = confirm_record_import.refusal(UserFactory(is_staff=True), preview)
    assert refusal is not None and "was confirmed" in refusal.text
    with pytest.raises(Refused):
        importing.confirm(None, preview)
    assert RecordedGame.objects.count() == 1


def test_a_file_that_is_not_text_is_refused_in_words():
    with pytest.raises(Refused) as refused:
        importing.preview(content=b"\xff\xfe\x00bad")
    assert "not UTF-8" in refused.value.text
    assert RecordImport.objects.count() == 0


def test_confirming_recomputes_the_ratings_once_it_commits(
    monkeypatch, django_capture_on_commit_callbacks
):
    called = []
    monkeypatch.setattr(importing, "recompute_ratings", called.append)
    preview = importing.preview(content=f"{HEADER}\n2010-01-02,Club,,,1,Ann Lee,Bob Roy,,2,0,1,0\n")
    with django_capture_on_commit_callbacks(execute=True):
        importing.confirm(None, preview)
    assert [i.pk for i in called] == [preview.pk]


# --- this app's own export ---------------------------------------------------------------------


def test_a_tournament_export_imports_its_finished_games_without_a_tournament(small_event):
    record_game(small_event.game, WIN)
    other = small_event.player_games()[1]
    record_game(other, WIN[:2])  # not finished: two rounds of four
    out = io.StringIO()
    export_tournament(small_event.tournament, out)
    data = out.getvalue().encode("utf-8")
    tournaments_before = type(small_event.tournament).objects.count()

    preview = importing.preview(content=data, layout=RecordImport.Layout.APP_EXPORT)
    assert preview.summary["new_games"] == 1 and preview.summary["error_count"] == 0
    assert "would count twice" in preview.summary["warnings"][0]  # signed by this site
    player = small_event.player.player
    assert preview.summary["new_people"][0]["name"] == player.full_name
    importing.confirm(None, preview)
    recorded = RecordedGame.objects.get()
    assert recorded.key.startswith("exp:") and recorded.tournament is None
    assert recorded.event == "Small Open" and recorded.stage == "Preliminary"
    assert [r[:4] for r in recorded.rounds] == [[2, 0, 3, 1]] * 3 + [[0, 2, 1, 2]]
    assert recorded.person_a.last_name == player.last_name
    assert recorded.person_a.club == player.club  # what the export knows of the player
    assert type(small_event.tournament).objects.count() == tournaments_before

    again = importing.preview(content=data, layout=RecordImport.Layout.APP_EXPORT)
    assert (again.summary["new_games"], again.summary["recorded_already"]) == (0, 1)


def test_a_file_that_is_not_an_export_is_refused_as_a_whole():
    with pytest.raises(Refused) as refused:
        importing.preview(content=b'{"x": 1}\n', layout=RecordImport.Layout.APP_EXPORT)
    assert "not a tournament export" in refused.value.text


# --- who may: the pages and the API say the same --------------------------------------------------


def test_a_tournament_organizer_who_is_not_staff_cannot_import(small_event, client, record_file):
    organizer = small_event.users["organizer"]
    client.force_login(organizer)
    page = client.get(reverse("record-import"))
    assert page.status_code == 403
    assert escape(str(RECORD_KEEPERS_ONLY)) in page.content.decode()

    api = client.post(
        reverse("api:record-imports"),
        {"content": record_file.decode(), "layout": "crokinole-reference"},
        content_type="application/json",
    )
    assert api.status_code == 403
    assert api.json()["detail"] == str(RECORD_KEEPERS_ONLY)

    preview = importing.preview(content=record_file)
    confirm = client.post(
        reverse("api:record-import-confirm", args=[preview.pk]),
        {"skip_bad_lines": True},
        content_type="application/json",
    )
    assert confirm.status_code == 403 and confirm.json()["detail"] == str(RECORD_KEEPERS_ONLY)
    page = client.post(reverse("record-import-detail", args=[preview.pk]), {"skip_bad_lines": "on"})
    assert page.status_code == 403
    assert (Person.objects.count(), RecordedGame.objects.count()) == (0, 0)


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("record-import"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_the_record_keeper_imports_through_the_pages(client, record_keeper, record_file):
    client.force_login(record_keeper)
    assert client.get(reverse("record-import")).status_code == 200
    upload = io.BytesIO(record_file)
    upload.name = "competitive-singles.csv"
    response = client.post(
        reverse("record-import"),
        {"file": upload, "layout": "crokinole-reference", "discipline": "fingers"},
    )
    preview = RecordImport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("record-import-detail", args=[preview.pk])
    assert preview.filename == "competitive-singles.csv" and preview.created_by == record_keeper
    assert Person.objects.count() == 0

    page = client.get(response["Location"]).content.decode()
    assert "line 41, points_a: round 3:" in page and "Nathan Walsh" in page
    assert "Write 642 games into the record" in page

    refused = client.post(response["Location"], {})
    assert refused.status_code == 400
    assert "4 bad lines (lines 41, 278, 380, 496)" in refused.content.decode()
    assert RecordedGame.objects.count() == 0

    done = client.post(response["Location"], {"skip_bad_lines": "on"}, follow=True)
    assert "Imported: 642 new games, 56 new people" in done.content.decode()
    assert RecordedGame.objects.count() == 642


def test_a_page_upload_that_is_not_a_file_of_the_layout_says_why(client, record_keeper):
    client.force_login(record_keeper)
    upload = io.BytesIO(b"\xff\xfe\x00\x01")
    upload.name = "x.csv"
    response = client.post(
        reverse("record-import"),
        {"file": upload, "layout": "crokinole-reference", "discipline": "fingers"},
    )
    assert response.status_code == 400 and "not UTF-8" in response.content.decode()
    assert RecordImport.objects.count() == 0


def test_the_record_keeper_imports_through_the_api(client, record_keeper, record_file):
    client.force_login(record_keeper)
    created = client.post(
        reverse("api:record-imports"),
        {"content": record_file.decode(), "filename": "record.csv"},
        content_type="application/json",
    )
    assert created.status_code == 201
    body = created.json()
    assert body["status"] == "previewed" and body["summary"]["new_games"] == 642
    assert [e["line"] for e in body["summary"]["errors"]] == BAD_LINES
    assert Person.objects.count() == 0
    url = reverse("api:record-import-confirm", args=[body["id"]])

    refused = client.post(url, {}, content_type="application/json")
    assert refused.status_code == 400
    assert "lines 41, 278, 380, 496" in refused.json()["skip_bad_lines"][0]

    done = client.post(url, {"skip_bad_lines": True}, content_type="application/json")
    assert done.status_code == 200
    assert done.json()["summary"]["written"]["games"] == 642
    assert done.json()["detail"].startswith("Imported: 642 new games")
    twice = client.post(url, {"skip_bad_lines": True}, content_type="application/json")
    assert twice.status_code == 409 and "was confirmed" in twice.json()["detail"]
    shown = client.get(reverse("api:record-import", args=[body["id"]]))
    assert shown.status_code == 200 and shown.json()["status"] == "confirmed"


# --- the command ---------------------------------------------------------------------------------


def test_the_command_prints_the_preview_and_exits_2_on_bad_lines(capsys):
    before = counts()
    with pytest.raises(CommandError) as failed:
        call_command("import_record", str(DATA))
    assert failed.value.returncode == 2
    out, err = capsys.readouterr()
    assert "836 lines: 642 new games, 0 recorded already, 4 bad lines" in out
    assert "  + Nathan Walsh" in out
    assert [line.split(",")[0] for line in err.splitlines()] == [f"line {n}" for n in BAD_LINES]
    assert counts() == before

    with pytest.raises(CommandError) as refused:
        call_command("import_record", str(DATA), "--confirm")
    assert refused.value.returncode == 2 and "lines 41, 278, 380, 496" in str(refused.value)
    assert counts() == before


def test_the_command_writes_with_confirm_and_leaves_bad_lines_out_when_told(capsys, tmp_path):
    call_command("import_record", str(DATA), "--confirm", "--skip-bad-lines")
    assert "Imported: 642 new games, 56 new people" in capsys.readouterr().out
    assert RecordedGame.objects.count() == 642

    good = tmp_path / "good.csv"
    good.write_text(f"{HEADER}\n2010-01-02,Club,,,1,Ann Lee,Bob Roy,,2,0,1,0\n", encoding="utf-8")
    call_command("import_record", str(good))
    assert "Nothing was written; run again with --confirm" in capsys.readouterr().out
    assert RecordedGame.objects.count() == 642


def test_the_command_refuses_a_file_it_cannot_read(tmp_path):
    with pytest.raises(CommandError) as missing:
        call_command("import_record", str(tmp_path / "none.csv"))
    assert missing.value.returncode == 2 and "Cannot read" in str(missing.value)


def test_the_api_takes_an_uploaded_file_too(client, record_keeper):
    client.force_login(record_keeper)
    upload = io.BytesIO(f"{HEADER}\n2010-01-02,Club,,,1,Ann Lee,Bob Roy,,2,0,1,0\n".encode())
    upload.name = "club.csv"
    created = client.post(reverse("api:record-imports"), {"file": upload, "discipline": "cue"})
    assert created.status_code == 201
    assert created.json()["filename"] == "club.csv"
    assert created.json()["summary"]["discipline"] == "cue"
    wrong = client.post(
        reverse("api:record-imports"),
        {"content": "x", "discipline": "feet"},
        content_type="application/json",
    )
    assert wrong.status_code == 400 and "choose fingers or cue" in wrong.json()["discipline"][0]
    empty = client.post(reverse("api:record-imports"), {}, content_type="application/json")
    assert empty.status_code == 400 and "file" in empty.json()
