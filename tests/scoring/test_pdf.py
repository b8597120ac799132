"""Printable PDFs: round, stage, filled and blank scorecards, standings and bracket sheets, and the
background batch of a whole round of play with its progress bar.

PDFs are read back with pypdf (the text WeasyPrint wrote) and page 1 is rasterised with poppler's
``pdftoppm`` to check that something visible was drawn; the pictures are kept in tests/artifacts/.
"""

import io
import re
import shutil
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Q
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape
from pypdf import PdfReader

from scoring.engine import round_data
from scoring.models import CardRow, ScoreCard
from scoring.printing import batch as batch_module
from scoring.printing.cards import round_cards, stage_cards
from scoring.printing.errors import PrintError
from scoring.printing.lookups import print_menu
from scoring.printing.tasks import render_round_cards
from scoring.results.services import record_game
from scoring.standings.selectors import stage_standings
from tests.celery_support import running_worker
from tests.factories import CategoryFactory, PlayerFactory, StageFactory, TournamentFactory
from tournaments.models import (
    Board,
    Category,
    Entry,
    Game,
    Match,
    Player,
    Stage,
    Team,
    TournamentRole,
)
from tournaments.services.draws import draw_knockout, draw_preliminary

Role = TournamentRole.Role
CARD_MARK = "TOURNAMENT"  # the first heading of every card


# ---------------------------------------------------------------- helpers


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def card_texts(content: bytes) -> list[str]:
    """The text of each card, in print order (every card starts with its TOURNAMENT heading),
    with line breaks and runs of spaces made single spaces."""
    text = " ".join(pdf_text(content).split())
    return [CARD_MARK + part for part in text.split(CARD_MARK)[1:]]


def png_pixels(data: bytes) -> tuple[int, int, list[int]]:
    """Grey levels of an 8-bit, non-interlaced PNG (what pdftoppm writes): just enough of a PNG
    reader to look at a page without an imaging library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    assert depth == 8 and interlace == 0
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
    raw, stride = zlib.decompress(idat), width * channels
    previous, grey = bytearray(stride), []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + b) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        grey.extend(
            line[i] if channels < 3 else sum(line[i : i + 3]) // 3
            for i in range(0, stride, channels)
        )
        previous = line
    return width, height, grey


def rasterise_page_one(content: bytes, tmp_path: Path, artifacts_dir: str, name: str) -> bytes:
    """Page 1 at 50 dpi through pdftoppm, saved under tests/artifacts/ for people to look at."""
    pdf = tmp_path / f"{name}.pdf"
    pdf.write_bytes(content)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "50",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(pdf),
            str(tmp_path / name),
        ],
        check=True,
        timeout=60,
    )
    png = tmp_path / f"{name}.png"
    assert png.exists() and png.stat().st_size > 1000
    shutil.copy(png, Path(artifacts_dir) / f"{name}.png")
    return png.read_bytes()


def assert_drawn(png: bytes) -> None:
    width, height, grey = png_pixels(png)
    assert width > 300 and height > 300
    dark = sum(1 for g in grey if g < 128) / len(grey)
    light = sum(1 for g in grey if g > 200) / len(grey)
    assert dark > 0.002, f"hardly any ink on the page ({dark:.2%} dark pixels)"
    assert light > 0.5, f"the page is mostly dark ({light:.2%} light pixels)"


def user_with(tournament, role: str | None, name: str) -> User:
    user = User.objects.create_user(name)
    if role:
        TournamentRole.objects.create(tournament=tournament, user=user, role=role)
    return user


def singles_round(entries: int = 8, *, boards: int = 10, games: int = 1) -> Stage:
    """A drawn preliminary stage with ``entries`` players, named and numbered predictably."""
    tournament = TournamentFactory(name="Tavistock Open")
    Board.objects.bulk_create(Board(tournament=tournament, number=n) for n in range(1, boards + 1))
    category = CategoryFactory(tournament=tournament, name="Competitive Singles")
    for i in range(entries):
        player = PlayerFactory(
            tournament=tournament,
            first_name=f"Anna{i:02d}",
            last_name=f"Zed{i:02d}",
            number=500 + i,
        )
        Entry.objects.create(category=category, player=player, checked_in=True)
    stage = StageFactory(category=category, name="Preliminary", games_per_entry=games)
    draw_preliminary(stage)
    return Stage.objects.select_related("category__tournament").get(pk=stage.pk)


def play_round(stage: Stage, round_of_play: int = 1) -> None:
    """Record every game of the round: entry A wins three rounds, with 20s by board number."""
    for match in stage.matches.filter(round_of_play=round_of_play, entry_b__isnull=False):
        for game in match.games.all():
            record_game(
                game,
                [round_data(points=(2, 0), twenties=(match.board.number % 4, 1))] * 3
                + [round_data(points=(0, 2), twenties=(0, 2))],
            )


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return Path(settings.MEDIA_ROOT)


def url(name: str, stage: Stage, **kwargs) -> str:
    return reverse(f"scoring:{name}", kwargs={"slug": stage.category.tournament.slug, **kwargs})


# ---------------------------------------------------------------- round cards


@pytest.mark.django_db
@pytest.mark.slow
def test_round_cards_carry_names_ids_category_round_and_board_for_every_entry(client):
    stage = singles_round(8, games=2)
    table = user_with(stage.category.tournament, Role.SCORING_TABLE, "table")
    client.force_login(table)
    response = client.get(url("print-round-cards", stage, stage_id=stage.id, round_of_play=2))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    cards = card_texts(response.content)
    matches = list(stage.matches.filter(round_of_play=2).select_related("board"))
    assert len(cards) == 2 * len(matches) == 8
    by_number = {}
    for card in cards:
        own = re.search(r"FULL NAME (.+?) ID # (\d+)", card)
        assert own, card
        by_number[own.group(2)] = card
    for match in matches:
        for entry, opponent in ((match.entry_a, match.entry_b), (match.entry_b, match.entry_a)):
            card = by_number[str(entry.player.number)]
            assert entry.player.full_name in card
            assert f"{opponent.player.full_name} ID # {opponent.player.number}" in card
            assert "Tavistock Open" in card and "Competitive Singles" in card
            assert "Preliminary" in card
            assert f"ROUND OF PLAY 2 BOARD {match.board.number}" in card
            # The game row: round of play, board, opponent.
            assert re.search(rf"\b2 {match.board.number} {opponent.player.full_name}", card)


@pytest.mark.django_db
def test_an_odd_field_prints_a_bye_card_for_the_entry_that_sits_out():
    stage = singles_round(5)
    cards = round_cards(stage, 1)
    assert len(cards) == 5
    (bye,) = [c for c in cards if c.lines[0].bye]
    bye_match = stage.matches.get(round_of_play=1, entry_b__isnull=True)
    assert bye.people[0].number == str(bye_match.entry_a.player.number)
    assert bye.lines[0].note == f"Bye: {stage.bye_points} points"


@pytest.mark.django_db
@pytest.mark.slow
def test_doubles_round_card_names_both_partners_with_their_ids(client):
    tournament = TournamentFactory()
    category = CategoryFactory(tournament=tournament, name="Doubles", kind=Category.Kind.DOUBLES)
    people = [
        PlayerFactory(tournament=tournament, first_name=f"P{i}", last_name="Duo", number=700 + i)
        for i in range(4)
    ]
    teams = [
        Team.objects.create(tournament=tournament, player_one=people[i], player_two=people[i + 1])
        for i in (0, 2)
    ]
    a, b = (Entry.objects.create(category=category, team=t) for t in teams)
    stage = StageFactory(category=category, name="Doubles round robin")
    Game.objects.create(match=Match.objects.create(stage=stage, entry_a=a, entry_b=b), number=1)
    client.force_login(user_with(tournament, Role.ORGANIZER, "org"))
    response = client.get(url("print-round-cards", stage, stage_id=stage.id, round_of_play=1))
    cards = card_texts(response.content)
    assert len(cards) == 2
    assert "PARTNER 1 P0 Duo ID # 700" in cards[0] and "PARTNER 2 P1 Duo ID # 701" in cards[0]
    assert "P2 Duo / P3 Duo ID # 702/703" in cards[0]
    assert "PARTNER 1 P2 Duo ID # 702" in cards[1] and "P0 Duo / P1 Duo ID # 700/701" in cards[1]


@pytest.mark.django_db
def test_round_cards_read_a_fixed_number_of_queries():
    small, large = singles_round(4), singles_round(40, boards=30)
    counts = []
    for stage in (small, large):
        with CaptureQueriesContext(connection) as queries:
            cards = round_cards(stage, 1)
        counts.append(len(queries))
        assert len(cards) == stage.matches.filter(round_of_play=1).count() * 2
    # 3 for the cards, 3 for the private links of their QR codes (read, make the missing, read)
    assert counts[0] == counts[1] <= 6


@pytest.mark.django_db
def test_stage_cards_read_a_fixed_number_of_queries():
    counts = []
    for stage in (singles_round(4, games=2), singles_round(24, boards=12, games=3)):
        for entry in stage.category.entries.all()[:3]:
            ScoreCard.objects.create(stage=stage, entry=entry)
        with CaptureQueriesContext(connection) as queries:
            cards = stage_cards(stage)
        counts.append(len(queries))
        assert len(cards) == stage.category.entries.count()
    # 4 for the cards, 3 for the private links of their QR codes (read, make the missing, read)
    assert counts[0] == counts[1] <= 7


@pytest.mark.django_db
@pytest.mark.slow
def test_round_cards_page_one_is_drawn(client, tmp_path, artifacts_dir):
    stage = singles_round(8)
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    response = client.get(url("print-round-cards", stage, stage_id=stage.id, round_of_play=1))
    assert_drawn(rasterise_page_one(response.content, tmp_path, artifacts_dir, "pdf-round-cards"))


@pytest.mark.django_db
@pytest.mark.slow
def test_letter_paper_and_board_score_boxes_on_request(client):
    stage = singles_round(4)
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    target = url("print-round-cards", stage, stage_id=stage.id, round_of_play=1)
    letter = client.get(target, {"paper": "letter", "scores": "1"})
    page = PdfReader(io.BytesIO(letter.content)).pages[0]
    assert (round(page.mediabox.width), round(page.mediabox.height)) == (612, 792)
    assert "PTS 20S SCORE" in pdf_text(letter.content)
    a4 = client.get(target)
    page = PdfReader(io.BytesIO(a4.content)).pages[0]
    assert (round(page.mediabox.width), round(page.mediabox.height)) == (595, 842)
    assert "SCORE" not in pdf_text(a4.content).replace("SCORING", "")


# ---------------------------------------------------------------- blank, filled, stage cards


@pytest.mark.django_db
@pytest.mark.slow
def test_blank_cards_have_the_headings_and_no_names_and_are_public(client, tmp_path, artifacts_dir):
    stage = singles_round(6)
    tournament = stage.category.tournament
    response = client.get(
        reverse("scoring:print-blank", args=[tournament.slug]), {"count": 3, "games": 5}
    )
    assert response.status_code == 200
    cards = card_texts(response.content)
    assert len(cards) == 3
    for card in cards:
        for heading in (
            "CATEGORY",
            "STAGE",
            "FULL NAME",
            "ID #",
            "OPPONENT: NAME, ID #",
            "ROUND 1",
            "ROUND 4",
            "GAME TOTAL",
            "OPPONENT ID # +",
            "REFEREE",
        ):
            assert heading in card
        assert "Tavistock Open" in card
        assert "ROUND 5" not in card
    text = pdf_text(response.content)
    for player in Player.objects.filter(tournament=tournament):
        assert player.last_name not in text and str(player.number) not in text
    assert "Competitive Singles" not in text
    assert_drawn(rasterise_page_one(response.content, tmp_path, artifacts_dir, "pdf-blank-cards"))


@pytest.mark.django_db
@pytest.mark.slow
def test_blank_cards_for_a_doubles_category_print_two_name_lines(client):
    tournament = TournamentFactory()
    category = CategoryFactory(tournament=tournament, name="Open Doubles", kind="doubles")
    response = client.get(
        reverse("scoring:print-blank", args=[tournament.slug]), {"category": category.id}
    )
    text = pdf_text(response.content)
    assert "PARTNER 1" in text and "PARTNER 2" in text and "Open Doubles" in text


def _filled_card(stage: Stage) -> tuple[ScoreCard, Entry, list[Match]]:
    entry = stage.category.entries.get(player__number=500)
    matches = list(
        Match.objects.filter(Q(entry_a=entry) | Q(entry_b=entry), stage=stage).order_by(
            "round_of_play"
        )
    )
    card = ScoreCard.objects.create(stage=stage, entry=entry)
    first, second = (m.games.get() for m in matches[:2])
    CardRow.objects.create(
        card=card,
        game=first,
        status=CardRow.Status.VALIDATED,
        rounds=[
            {"points": [2, 0], "twenties": [3, 1], "score": None, "time_expired": False},
            {"points": [1, 1], "twenties": [1, 1], "score": None, "time_expired": False},
            {"points": [2, 0], "twenties": [0, 0], "score": None, "time_expired": False},
            {"points": [0, 0], "twenties": [0, 0], "score": None, "time_expired": True},
        ],
        validated_number="777",
        validated_initials="JD",
        referee_initials="RF",
    )
    CardRow.objects.create(
        card=card,
        game=second,
        status=CardRow.Status.VOIDED,
        void_reason="illegible",
        rounds=[{"points": [0, 2], "twenties": [0, 4], "score": None, "time_expired": False}],
    )
    return card, entry, matches


@pytest.mark.django_db
@pytest.mark.slow
def test_filled_card_shows_totals_computed_from_its_rows(client, tmp_path, artifacts_dir):
    stage = singles_round(8, games=3)
    card, entry, matches = _filled_card(stage)
    client.force_login(user_with(stage.category.tournament, Role.HEAD_REFEREE, "head"))
    response = client.get(url("print-card", stage, card_id=card.id))
    assert response.status_code == 200
    (text,) = card_texts(response.content)
    assert "FULL NAME Anna00 Zed00 ID # 500" in text
    # Rounds 2/3, 1/1, 2/0, 0*/0 -> 5 points and 4 20s, then the opponent's ID and initials
    # and the referee's initials for the correction.
    assert re.search(r"2 3 1 1 2 0 0\* 0 5 4 777 JD RF", text), text
    assert "VALIDATED BY THE OPPONENT · CORRECTED, REF. RF" in text
    assert "VOIDED: ILLEGIBLE" in text and "VOIDED · VOIDED" not in text
    # The third game has no row yet: its opponent is printed, its boxes are empty.
    third = matches[2]
    opponent = third.entry_b if third.entry_a_id == entry.id else third.entry_a
    assert opponent.player.full_name in text
    assert_drawn(rasterise_page_one(response.content, tmp_path, artifacts_dir, "pdf-filled-card"))


@pytest.mark.django_db
@pytest.mark.slow
def test_stage_cards_print_one_card_per_entry_in_id_order(client):
    stage = singles_round(6, games=2)
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    response = client.get(url("print-stage-cards", stage, stage_id=stage.id))
    cards = card_texts(response.content)
    assert [re.search(r"FULL NAME .+? ID # (\d+)", c).group(1) for c in cards] == [
        str(500 + i) for i in range(6)
    ]
    assert all(len(re.findall(r"ID # 5\d\d", c)) == 1 + 2 for c in cards)  # own + 2 opponents


# ---------------------------------------------------------------- sheets


@pytest.mark.django_db
@pytest.mark.slow
def test_standings_sheet_lists_entries_in_rank_order(client, tmp_path, artifacts_dir):
    stage = singles_round(8)
    play_round(stage)
    expected = [line.entry.name for line in stage_standings(stage).lines]
    client.force_login(user_with(stage.category.tournament, Role.ORGANIZER, "org"))
    response = client.get(url("print-standings", stage, stage_id=stage.id))
    assert response.status_code == 200
    text = pdf_text(response.content)
    table = text[text.index("RANK") :]
    positions = [table.index(name) for name in expected]
    assert positions == sorted(positions)
    assert re.search(rf"1 {re.escape(expected[0])} \d+ 1 6 ", table)
    png = rasterise_page_one(response.content, tmp_path, artifacts_dir, "pdf-standings")
    assert_drawn(png)


@pytest.mark.django_db
def test_bracket_sheet_draws_the_bracket_and_lists_games_won(client, tmp_path, artifacts_dir):
    stage = singles_round(4)
    knockout = Stage.objects.create(
        category=stage.category, name="Final four", kind=Stage.Kind.KNOCKOUT, order=9, best_of=3
    )
    entries = list(stage.category.entries.order_by("player__number"))
    draw_knockout(knockout, entries)  # seeds 1 v 4 (SF1) and 2 v 3 (SF2)
    semi = knockout.matches.get(bracket_slot="SF1")
    for number, points in ((1, (2, 0)), (2, (0, 2)), (3, (2, 0))):
        game = semi.games.get(number=number)
        record_game(game, [round_data(points=points)] * 4)
    client.force_login(user_with(stage.category.tournament, Role.ORGANIZER, "org"))
    response = client.get(url("print-bracket", stage, stage_id=knockout.id))
    assert response.status_code == 200
    text = " ".join(pdf_text(response.content).split())
    # The table under the picture: slot, entries, games won, every game's points.
    assert re.search(r"SF1 \d+ Anna00 Zed00 2 \N{EN DASH} 1 Anna03 Zed03 8-0, 0-8, 8-0", text), text
    assert re.search(r"SF2 \d+ Anna01 Zed01 0 \N{EN DASH} 0 Anna02 Zed02", text)
    # The picture (tournaments.svg.bracket_svg): the final, not drawn as a match yet, is in it.
    assert "Final 1 Anna00 Zed00 Winner of SF2" in text
    assert_drawn(rasterise_page_one(response.content, tmp_path, artifacts_dir, "pdf-bracket"))


def test_bracket_svg_uses_longhand_fonts_for_weasyprint():
    """WeasyPrint draws `font: 600 13px ...` at a wrong size (Kozea/WeasyPrint#2255)."""
    from tournaments.svg.bracket import STYLE

    assert "font:" not in STYLE.replace(" ", "")
    assert "font-size:13px" in STYLE


@pytest.mark.django_db
def test_bracket_sheet_of_hand_entered_matches_is_a_table_and_other_stages_are_refused(client):
    stage = singles_round(4)
    knockout = Stage.objects.create(
        category=stage.category, name="Final", kind=Stage.Kind.KNOCKOUT, order=9
    )
    entries = list(stage.category.entries.order_by("player__number"))
    Match.objects.create(stage=knockout, entry_a=entries[0], entry_b=entries[1], bracket_slot="F")
    client.force_login(user_with(stage.category.tournament, Role.ORGANIZER, "org"))
    response = client.get(url("print-bracket", stage, stage_id=knockout.id))
    text = " ".join(pdf_text(response.content).split())
    assert (
        "Final (round of play 1) SLOT" in text and "F Anna00 Zed00 0 \N{EN DASH} 0 Anna01" in text
    )
    refused = client.get(url("print-bracket", stage, stage_id=stage.id))
    assert refused.status_code == 400 and b"knockout stages only" in refused.content


# ---------------------------------------------------------------- bad input


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "query", "status", "message"),
    [
        ("round", {}, 400, "round of play 7 has no matches (rounds of play with matches: 1)"),
        ("unknown-stage", {}, 404, "has no stage 999999"),
        ("other-stage", {}, 404, "has no stage"),
        ("round1", {"paper": "a3"}, 400, "paper=&#x27;a3&#x27; is not a paper size"),
        ("blank", {"count": "0"}, 400, "count=0 is out of range; give a number from 1 to 100"),
        ("blank", {"games": "many"}, 400, "games=&#x27;many&#x27; is not a whole number"),
        ("blank", {"category": "999999"}, 404, "has no category 999999"),
        ("card", {}, 404, "has no scorecard 999999"),
    ],
)
def test_bad_input_gets_a_clear_message_not_a_server_error(client, path, query, status, message):
    stage = singles_round(4)
    other = StageFactory()
    slug = stage.category.tournament.slug
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    target = {
        "round": url("print-round-cards", stage, stage_id=stage.id, round_of_play=7),
        "round1": url("print-round-cards", stage, stage_id=stage.id, round_of_play=1),
        "unknown-stage": url("print-stage-cards", stage, stage_id=999999),
        "other-stage": url("print-stage-cards", stage, stage_id=other.id),
        "blank": reverse("scoring:print-blank", args=[slug]),
        "card": url("print-card", stage, card_id=999999),
    }[path]
    response = client.get(target, query)
    assert response.status_code == status
    assert message in response.content.decode()


@pytest.mark.django_db
def test_a_batch_for_a_round_without_matches_is_refused_before_it_starts(client, media):
    stage = singles_round(4)
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    response = client.post(url("print-batch-start", stage, stage_id=stage.id, round_of_play=3))
    assert response.status_code == 400
    assert "round of play 3 has no matches" in response.content.decode()
    assert not media.exists() or not any(media.rglob("*.pdf"))


# ---------------------------------------------------------------- permissions


@pytest.fixture
def guarded():
    stage = singles_round(4)
    card = ScoreCard.objects.create(stage=stage, entry=stage.category.entries.first())
    batch = "7b1f3a52-2a1b-4d5c-9c3e-0d5f0e1a2b3c"
    gets = [
        url("print-round-cards", stage, stage_id=stage.id, round_of_play=1),
        url("print-stage-cards", stage, stage_id=stage.id),
        url("print-card", stage, card_id=card.id),
        url("print-standings", stage, stage_id=stage.id),
        url("print-bracket", stage, stage_id=stage.id),
        url("print-batch", stage, stage_id=stage.id, round_of_play=1, batch_id=batch),
        url("print-batch-status", stage, stage_id=stage.id, round_of_play=1, batch_id=batch),
        url("print-batch-download", stage, stage_id=stage.id, round_of_play=1, batch_id=batch),
    ]
    post = url("print-batch-start", stage, stage_id=stage.id, round_of_play=1)
    return stage, gets, post


@pytest.mark.django_db
def test_anonymous_users_are_sent_to_log_in(client, guarded, media):
    _, gets, post = guarded
    for target in gets:
        response = client.get(target)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    response = client.post(post)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not any(media.rglob("*.pdf")) if media.exists() else True


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["player", Role.REFEREE, "other-tournament-organizer", None])
def test_players_referees_and_strangers_may_not_print(client, guarded, role, media):
    stage, gets, post = guarded
    tournament = stage.category.tournament
    if role == "player":
        user = User.objects.create_user("player")
        Player.objects.filter(tournament=tournament).update(user=user)
    elif role == "other-tournament-organizer":
        user = user_with(TournamentFactory(), Role.ORGANIZER, "elsewhere")
    else:
        user = user_with(tournament, role, "someone")
    client.force_login(user)
    for target in gets:
        assert client.get(target).status_code == 403, target
    assert client.post(post).status_code == 403
    assert not media.exists() or not any(media.rglob("*.pdf"))


@pytest.mark.django_db
@pytest.mark.parametrize("role", [Role.ORGANIZER, Role.SCORING_TABLE, Role.HEAD_REFEREE])
@pytest.mark.slow
def test_organizers_the_scoring_table_and_the_head_referee_may_print(client, guarded, role):
    stage, gets, _ = guarded
    client.force_login(user_with(stage.category.tournament, role, "official"))
    for target in gets[:4]:
        response = client.get(target)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


@pytest.mark.django_db
def test_print_page_offers_rounds_to_printers_and_blank_cards_to_everyone(client):
    stage = singles_round(8, games=2)
    slug = stage.category.tournament.slug
    page = reverse("scoring:print-index", args=[slug])
    anonymous = client.get(page).content.decode()
    assert "Blank cards (PDF)" in anonymous and "Print round 1" not in anonymous
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    with CaptureQueriesContext(connection) as queries:
        body = client.get(page, {"paper": "letter"}).content.decode()
    assert "Print round 1" in body and "Print round 2" in body
    assert (
        url("print-round-cards", stage, stage_id=stage.id, round_of_play=2) + "?paper=letter"
        in body
    )
    assert len(queries) <= 12


@pytest.mark.django_db
def test_print_menu_costs_the_same_queries_for_more_stages():
    stage = singles_round(4)
    tournament = stage.category.tournament
    with CaptureQueriesContext(connection) as few:
        print_menu(tournament)
    for order in range(10, 15):
        StageFactory(category=stage.category, order=order)
    with CaptureQueriesContext(connection) as many:
        menu = print_menu(tournament)
    assert len(few) == len(many) <= 3
    (drawn,) = [item for item in menu[0].stages if item.stage.id == stage.id]
    assert len(menu[0].stages) == 6 and [(r.number, r.matches) for r in drawn.rounds] == [(1, 2)]


# ---------------------------------------------------------------- the batch


class FakeResult:
    """What ``batch_state`` reads of a Celery ``AsyncResult``."""

    def __init__(self, state: str, info: object = None) -> None:
        self.state, self.info = state, info


@pytest.mark.parametrize(
    ("state", "info", "stored", "expected", "message"),
    [
        ("PENDING", None, False, "waiting", ""),
        ("STARTED", None, False, "running", ""),
        ("PROGRESS", {"done": 25, "total": 200}, False, "running", ""),
        ("SUCCESS", {"cards": 200, "tournament": "open"}, True, "done", ""),
        ("SUCCESS", {"cards": 200, "tournament": "open"}, False, "failed", "no longer stored"),
        ("SUCCESS", {"cards": 2, "tournament": "elsewhere"}, True, "failed", "another tournament"),
        (
            "FAILURE",
            PrintError("round of play 9 has no matches"),
            False,
            "failed",
            "round of play 9",
        ),
        ("FAILURE", RuntimeError("disk full at /srv"), False, "failed", "see the worker's log"),
        ("PENDING", None, True, "done", ""),  # the result expired, the file is still there
    ],
)
def test_batch_state_reads_the_result_and_the_storage(
    media, state, info, stored, expected, message
):
    name = batch_module.batch_file_name("open", 1, 1, "some-id")
    if stored:
        (media / name).parent.mkdir(parents=True)
        (media / name).write_bytes(b"%PDF-1.7")
    batch = batch_module.batch_state(FakeResult(state, info), tournament_slug="open", name=name)
    assert batch.state == expected and message in batch.message
    assert "/srv" not in batch.message
    if state == "PROGRESS":
        assert (batch.done, batch.total) == (25, 200)


@pytest.mark.parametrize(
    ("state", "updated", "queued", "stalled"),
    [
        ("running", 1000.0, None, 300.0),  # no progress for 300 s
        ("running", 1250.0, None, None),  # progress 50 s ago: slow, not stalled
        ("running", None, 1000.0, None),  # running, its clock is its progress, not the queue
        ("waiting", None, 1000.0, 300.0),  # queued 300 s ago, never taken
        ("waiting", None, None, None),  # nobody knows when it was queued
        ("done", 1000.0, 1000.0, None),
        ("failed", 1000.0, 1000.0, None),
    ],
)
def test_a_batch_is_stalled_after_a_while_without_a_sign_of_moving(state, updated, queued, stalled):
    batch = batch_module.BatchState(state, updated_at=updated)
    assert batch.stalled_for(now=1300.0, queued_at=queued, after=120) == stalled


@pytest.fixture
def unread_queue(tmp_path, settings):
    """A real queue (the file queue of ``make run``) that no worker reads: what a site looks
    like when its worker is not running."""
    conf = render_round_cards.app.conf
    saved = (
        conf.broker_url,
        conf.broker_transport,
        conf.broker_transport_options,
        conf.task_always_eager,
    )
    folder = tmp_path / "queue"
    folder.mkdir()
    conf.broker_url, conf.broker_transport = (
        "filesystem://localhost/",
        "config.celery:FilesystemTransport",
    )
    conf.broker_transport_options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(tmp_path / "control"),
    }
    conf.task_always_eager = False
    render_round_cards.app._after_fork()
    settings.PRINT_STALL_SECONDS = 60
    yield folder
    (
        conf.broker_url,
        conf.broker_transport,
        conf.broker_transport_options,
        conf.task_always_eager,
    ) = saved
    render_round_cards.app._after_fork()


@pytest.mark.django_db
def test_a_batch_no_worker_takes_is_stalled_and_printed_again_with_its_options(
    client, media, unread_queue
):
    stage = singles_round(4)
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    start_url = url("print-batch-start", stage, stage_id=stage.id, round_of_play=1)
    start = client.post(start_url, {"paper": "letter"})
    assert start.status_code == 302 and len(list(unread_queue.iterdir())) == 1
    path = start["Location"].split("?")[0]
    waiting = client.get(start["Location"]).content.decode()
    assert "Waiting for a worker to start" in waiting and "Stalled" not in waiting
    # Two minutes later nothing has taken it: the page says so and offers to print again.
    queued = int(time.time()) - 120
    later = f"{path}?queued={queued}&paper=letter"
    stalled = client.get(later).content.decode()
    assert "<strong>Stalled</strong>" in stalled and "hx-trigger" not in stalled
    assert "has not been taken by a worker for 2 minutes" in stalled
    again = f"{path}again/?queued={queued}&paper=letter"
    assert f'action="{escape(again)}"' in stalled and "Print it again" in stalled
    # A batch still waiting is not printed again (its step says why): only a stalled one.
    early = client.post(f"{path}again/?queued={int(time.time())}&paper=letter", follow=True)
    assert "it is printed again only once it stalled or failed" in early.content.decode()
    assert len(list(unread_queue.iterdir())) == 1
    retried = client.post(again)
    assert retried.status_code == 302 and retried["Location"].split("?")[0] != path
    assert "paper=letter" in retried["Location"]
    assert len(list(unread_queue.iterdir())) == 2


@pytest.fixture
def eager_celery():
    """Celery as ``make run`` has it without REDIS_URL, whatever this run's settings are."""
    conf = render_round_cards.app.conf
    before = conf.task_always_eager
    conf.task_always_eager = True
    yield
    conf.task_always_eager = before


def count_cards(content: bytes) -> int:
    return len(card_texts(content))


@pytest.mark.django_db
@pytest.mark.slow
def test_eager_batch_shows_the_download_link_at_once(client, media, eager_celery):
    """Without REDIS_URL, Celery runs the task in the request: the page shows the link."""
    stage = singles_round(10)
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    response = client.post(url("print-batch-start", stage, stage_id=stage.id, round_of_play=1))
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Download the PDF" in page and 'hx-trigger="every 1s"' not in page
    download = re.search(r'href="([^"]+/download/)"', page).group(1)
    pdf = client.get(download)
    assert pdf["Content-Type"] == "application/pdf"
    assert count_cards(b"".join(pdf.streaming_content)) == 10
    stored = list(media.rglob("*.pdf"))
    assert len(stored) == 1 and stored[0].parent.name == stage.category.tournament.slug


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_batch_on_a_worker_reports_progress_and_stores_one_card_per_entry(media, monkeypatch):
    monkeypatch.setattr(batch_module, "CHUNK", 4)
    stage = singles_round(12)
    seen = []
    with running_worker():
        result = render_round_cards.delay(stage.id, 1)
        deadline = time.monotonic() + 90
        while not result.ready() and time.monotonic() < deadline:
            # State and info read together: read apart, the task may end between the two.
            meta = result.backend.get_task_meta(result.id)
            if meta["status"] == "PROGRESS":
                seen.append(dict(meta["result"]))
            time.sleep(0.01)
        value = result.get(timeout=30)
    assert value["cards"] == 12 and value["tournament"] == stage.category.tournament.slug
    assert seen, "no PROGRESS state was reported"
    # (0, 0) when a worker takes the batch, then after each chunk of 4 cards; each report says
    # when it was made, for the page's stall check.
    laid = [m for m in seen if m["total"]]
    assert all(m["total"] == 12 and m["done"] in (4, 8, 12) for m in laid)
    assert all((m["done"], m["total"]) == (0, 0) for m in seen if not m["total"])
    assert [m["done"] for m in seen] == sorted(m["done"] for m in seen)
    assert [m["at"] for m in seen] == sorted(m["at"] for m in seen)
    stored = media / value["file"]
    content = stored.read_bytes()
    assert count_cards(content) == 12
    numbers = {re.search(r"FULL NAME .+? ID # (\d+)", c).group(1) for c in card_texts(content)}
    assert numbers == {str(500 + i) for i in range(12)}


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_batch_page_polls_progress_then_offers_the_download(client, media):
    stage = singles_round(8)
    client.force_login(user_with(stage.category.tournament, Role.SCORING_TABLE, "table"))
    with running_worker():
        start = client.post(url("print-batch-start", stage, stage_id=stage.id, round_of_play=1))
        assert start.status_code == 302
        page = client.get(start["Location"]).content.decode()
        path, query = start["Location"].split("?")
        assert "queued=" in query and "paper=a4" in query  # carried for the stall check
        status_url = f"{path}status/?{query}"
        if "Download the PDF" not in page:
            assert 'id="batch-status"' in page and f'hx-get="{escape(status_url)}"' in page
            assert 'hx-trigger="every 1s"' in page
        deadline = time.monotonic() + 90
        fragment = ""
        while "Download the PDF" not in fragment and time.monotonic() < deadline:
            fragment = client.get(status_url).content.decode()
            assert "could not be made" not in fragment
            time.sleep(0.2)
    assert "Ready: 8 cards" in fragment and "hx-trigger" not in fragment
    download = client.get(path + "download/")
    assert count_cards(b"".join(download.streaming_content)) == 8
