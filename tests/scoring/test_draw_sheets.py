"""The round's draw for the wall and the player list of private-link QR slips.

The draw sheet lists a round of play by board (both sides with their ID numbers, a bye as "bye")
and then by player in alphabetical order of last name; the player list prints every entry still
playing with its private link as a QR code and as text. PDFs are read back with pypdf, as in
``test_pdf``; who may download them is checked against the player sheet, whose check they share.
"""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from scoring.printing.draw_sheet import round_draw
from tests.events import ROLES, SmallEvent, build_small_event
from tests.factories import (
    CategoryFactory,
    EntryFactory,
    MatchFactory,
    PlayerFactory,
    StageFactory,
    TeamFactory,
)
from tournaments.models import Category, Entry, Match
from tournaments.services.links import link_of

pytestmark = pytest.mark.django_db


def page_texts(content: bytes) -> list[str]:
    """Each page's text with line breaks and runs of spaces made single spaces."""
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages]


def draw_url(event: SmallEvent, round_of_play: int = 1, stage_id: int | None = None) -> str:
    stage = event.stage.id if stage_id is None else stage_id
    return reverse("scoring:print-round-draw", args=[event.tournament.slug, stage, round_of_play])


def list_url(event: SmallEvent) -> str:
    return reverse("scoring:print-player-list", args=[event.tournament.slug])


def sheet_url(event: SmallEvent) -> str:
    return reverse("scoring:print-player-sheet", args=[event.tournament.slug, event.player.id])


def link_url(event: SmallEvent, entry: Entry) -> str:
    path = reverse("scoring:private_link", args=[event.tournament.slug, link_of(entry).token])
    return "http://testserver" + path


@pytest.fixture
def odd_event() -> SmallEvent:
    """Seven players on three boards: every round has a bye."""
    return build_small_event(players=7)


def matches_of(event: SmallEvent, round_of_play: int = 1) -> list[Match]:
    return list(
        Match.objects.filter(stage=event.stage, round_of_play=round_of_play).select_related(
            "board", "entry_a__player", "entry_b__player"
        )
    )


# ---------------------------------------------------------------- the draw sheet


def test_draw_sheet_lists_each_board_with_both_sides_and_their_ids(odd_event, client):
    event = odd_event
    client.force_login(event.users["organizer"])
    response = client.get(draw_url(event, 2))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    by_board, *by_player = page_texts(response.content)
    assert "Competitive Singles · Preliminary · round 2" in by_board
    assert "Small Open" in by_board
    played = [m for m in matches_of(event, 2) if m.entry_b_id]
    assert len(played) == 3
    for match in played:
        a, b = match.entry_a.player, match.entry_b.player
        line = f"{match.board.number} {a.full_name} {a.number} {b.full_name} {b.number}"
        assert line in by_board
    assert by_player and "by player" in by_player[0]


def test_a_bye_prints_as_bye_in_both_listings(odd_event, client):
    event = odd_event
    client.force_login(event.users["organizer"])
    by_board, by_player = page_texts(client.get(draw_url(event)).content)
    (bye,) = [m for m in matches_of(event) if m.entry_b_id is None]
    player = bye.entry_a.player
    assert f"{player.full_name} {player.number} bye" in by_board
    assert f"{player.last_name}, {player.first_name} {player.number} \N{EN DASH} bye" in by_player


def test_by_player_listing_is_alphabetical_with_board_and_opponent(odd_event, client):
    event = odd_event
    client.force_login(event.users["organizer"])
    text = page_texts(client.get(draw_url(event)).content)[1]
    lines = []
    for match in matches_of(event):
        if match.entry_b_id is None:
            continue
        a, b = match.entry_a.player, match.entry_b.player
        for own, other in ((a, b), (b, a)):
            lines.append(
                (
                    own.last_name,
                    f"{own.last_name}, {own.first_name} {own.number} {match.board.number} "
                    f"{other.full_name} ({other.number})",
                )
            )
    for _, line in lines:
        assert line in text
    names = re.findall(r"(Player\d+), [A-Z][a-z]+ \d{3}", text)
    assert names == sorted(names) and len(names) == 7


def test_the_start_time_is_in_the_heading_when_the_round_is_scheduled(event_with_times, client):
    event, start = event_with_times
    client.force_login(event.users["organizer"])
    by_board, by_player = page_texts(client.get(draw_url(event)).content)
    assert f"starts {start:%a} {start.day} {start:%b}, 14:30" in by_board
    assert "starts 14:30" in by_player


def test_a_round_played_in_waves_prints_each_boards_time(event_with_times, client):
    event, start = event_with_times
    late = matches_of(event)[-1]
    late.starts_at = start + timedelta(minutes=45)
    late.save(update_fields=["starts_at"])
    client.force_login(event.users["organizer"])
    by_board, _ = page_texts(client.get(draw_url(event)).content)
    assert "first games start" in by_board
    assert "14:30" in by_board and "15:15" in by_board


def test_an_unscheduled_round_prints_no_start_time(odd_event, client):
    client.force_login(odd_event.users["organizer"])
    by_board, _ = page_texts(client.get(draw_url(odd_event)).content)
    assert "start" not in by_board.lower()


@pytest.fixture
def event_with_times(odd_event) -> tuple[SmallEvent, datetime]:
    start = timezone.make_aware(datetime(2025, 7, 12, 14, 30))
    Match.objects.filter(stage=odd_event.stage, round_of_play=1).update(starts_at=start)
    return odd_event, start


def test_a_doubles_draw_lists_each_partner_with_the_opposing_team():
    event = build_small_event()
    category = CategoryFactory(
        tournament=event.tournament, name="Doubles", kind=Category.Kind.DOUBLES
    )
    names = iter(("Ada Xu", "Ben Yi", "Cal Ash", "Dot Bay"))
    teams = []
    for number in (801, 803):
        people = []
        for n in (number, number + 1):
            first, last = next(names).split()
            people.append(
                PlayerFactory(
                    tournament=event.tournament, first_name=first, last_name=last, number=n
                )
            )
        teams.append(
            TeamFactory(tournament=event.tournament, player_one=people[0], player_two=people[1])
        )
    a, b = (EntryFactory(category=category, player=None, team=t) for t in teams)
    stage = StageFactory(category=category, name="Doubles round robin")
    MatchFactory(stage=stage, entry_a=a, entry_b=b, board=event.boards[0])
    sheet = round_draw(stage, 1)
    (board,) = sheet.boards
    assert [(s.name, s.number) for s in board.sides] == [
        ("Ada Xu / Ben Yi", "801/802"),
        ("Cal Ash / Dot Bay", "803/804"),
    ]
    assert [(line.name, line.opponent_label) for line in sheet.players] == [
        ("Ash, Cal", "Ada Xu / Ben Yi (801/802)"),
        ("Bay, Dot", "Ada Xu / Ben Yi (801/802)"),
        ("Xu, Ada", "Cal Ash / Dot Bay (803/804)"),
        ("Yi, Ben", "Cal Ash / Dot Bay (803/804)"),
    ]


def test_a_three_player_game_prints_a_third_side(small_event, client):
    event = small_event
    a, b, c = (e.player for e in event.entries[:3])
    stage = StageFactory(category=event.category, name="Trios", order=5)
    MatchFactory(
        stage=stage,
        entry_a=event.entries[0],
        entry_b=event.entries[1],
        entry_c=event.entries[2],
        board=event.boards[1],
    )
    client.force_login(event.users["organizer"])
    by_board, by_player = page_texts(client.get(draw_url(event, 1, stage_id=stage.id)).content)
    assert "SIDE C" in by_board
    assert (
        f"2 {a.full_name} {a.number} {b.full_name} {b.number} {c.full_name} {c.number}" in by_board
    )
    assert (
        f"{b.last_name}, {b.first_name} {b.number} 2 "
        f"{a.full_name} ({a.number}) and {c.full_name} ({c.number})"
    ) in by_player


def test_the_draw_reads_one_query_however_large_the_round():
    counts = []
    for players in (4, 12):
        event = build_small_event(players=players, boards=6)
        with CaptureQueriesContext(connection) as queries:
            sheet = round_draw(event.stage, 1)
        counts.append(len(queries))
        assert len(sheet.players) == players
    assert counts == [1, 1]


@pytest.mark.parametrize(
    "target",
    [
        lambda e: draw_url(e, 99),
        lambda e: draw_url(e, 1, stage_id=999_999),
        lambda e: draw_url(e, 1, stage_id=build_small_event().stage.id),
        lambda e: list_url(e) + "?category=999999",
    ],
    ids=["unknown-round", "unknown-stage", "stage-of-another-tournament", "unknown-category"],
)
def test_what_does_not_exist_is_a_404_page(small_event, client, target):
    client.force_login(small_event.users["organizer"])
    response = client.get(target(small_event))
    assert response.status_code == 404
    assert b"%PDF" not in response.content[:10]


def test_a_category_that_is_not_a_number_is_a_400_page(small_event, client):
    client.force_login(small_event.users["organizer"])
    response = client.get(list_url(small_event), {"category": "doubles"})
    assert response.status_code == 400 and b"category=" in response.content


# ---------------------------------------------------------------- who may download them


@pytest.mark.slow
@pytest.mark.parametrize("role", ROLES)
def test_both_pdfs_answer_every_role_as_the_player_sheet_does(small_event, client, role):
    event = small_event
    event.login(client, role)
    expected = client.get(sheet_url(event)).status_code
    assert expected in (200, 302, 403)
    for target in (draw_url(event), list_url(event)):
        response = client.get(target)
        assert response.status_code == expected, (role, target)
        if expected == 200:
            assert response["Content-Type"] == "application/pdf"


def test_anonymous_visitors_are_sent_to_log_in_and_the_organizer_gets_the_pdfs(small_event, client):
    event = small_event
    for target in (draw_url(event), list_url(event)):
        refused = client.get(target)
        assert refused.status_code == 302 and reverse("login") in refused["Location"]
    event.login(client, "organizer")
    for target in (draw_url(event), list_url(event)):
        assert client.get(target).status_code == 200


def test_a_player_is_refused_the_list_of_everyones_links(small_event, client):
    small_event.login(client, "player")
    response = client.get(list_url(small_event))
    assert response.status_code == 403
    assert link_of(small_event.opponent).token.encode() not in response.content


# ---------------------------------------------------------------- the player list


@pytest.fixture
def encoded(monkeypatch) -> list[str]:
    """The URLs drawn as QR codes while a test runs, in order (the template tag's helper,
    wrapped, so that the PDF's pictures can be counted and read)."""
    from tournaments.templatetags import qr_codes

    seen: list[str] = []
    real = qr_codes._data_uri

    def spy(url: str, **kwargs) -> str:
        seen.append(url)
        return real(url, **kwargs)

    monkeypatch.setattr(qr_codes, "_data_uri", spy)
    return seen


def test_the_player_list_has_every_entry_with_its_link_as_qr_code_and_text(
    small_event, client, encoded
):
    event = small_event
    client.force_login(event.users["organizer"])
    response = client.get(list_url(event))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = " ".join(page_texts(response.content))
    joined = "".join(text.split())
    entries = list(event.category.entries.select_related("player"))
    for entry in entries:
        assert f"{entry.player.full_name} ID # {entry.player.number}" in text
        assert link_url(event, entry) in joined
    assert sorted(encoded) == sorted(link_url(event, e) for e in entries)
    assert len(encoded) == len(entries) == 6
    assert joined.count("http://testserver/t/") == len(entries)


def test_the_player_list_of_one_category_leaves_the_others_out(small_event, client, encoded):
    event = small_event
    other = CategoryFactory(tournament=event.tournament, name="Recreational Singles")
    guest = EntryFactory(
        category=other,
        player=PlayerFactory(
            tournament=event.tournament, first_name="Zoe", last_name="Guest", number=900
        ),
    )
    client.force_login(event.users["organizer"])
    everyone = " ".join(page_texts(client.get(list_url(event)).content))
    assert "Zoe Guest ID # 900 · Recreational Singles" in everyone
    assert len(encoded) == 7
    encoded.clear()
    one = client.get(list_url(event), {"category": other.id})
    text = " ".join(page_texts(one.content))
    assert "Zoe Guest" in text and "Recreational Singles" in text
    assert "Competitive Singles" not in text and "Player1" not in text
    assert encoded == [link_url(event, guest)]


def test_withdrawn_entries_get_no_slip(small_event, client, encoded):
    event = small_event
    gone = event.other_player
    Entry.objects.filter(pk=gone.pk).update(withdrawn=True, withdrawal_kind="withdrawal")
    client.force_login(event.users["organizer"])
    text = " ".join(page_texts(client.get(list_url(event)).content))
    assert gone.player.full_name not in text
    assert len(encoded) == 5


def test_the_print_page_links_the_draw_of_each_round_and_the_player_lists(small_event, client):
    event = small_event
    client.force_login(event.users["scoring-table"])
    body = client.get(reverse("scoring:print-index", args=[event.tournament.slug])).content
    body = body.decode()
    assert draw_url(event, 1) + "?paper=a4" in body and draw_url(event, 2) + "?paper=a4" in body
    assert list_url(event) + "?paper=a4" in body
    assert f"{list_url(event)}?category={event.category.id}&amp;paper=a4" in body
