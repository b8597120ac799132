"""Stamped round cards (scoring/printing/stamp.py) and batches cut across workers.

A stamped card must print what the ordinary path prints: the same text at the same places
(compared through poppler's ``pdftotext``, which reads a page by where its words are), card by
card in the PDF's own order, with the QR code of the private link. Chunks and parts are only a
way of getting there faster: joined in order they give the pages of one render. Speed itself is
measured in bench/web.py, not here.
"""

import dataclasses
import io
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader

from scoring.printing import batch as batch_module
from scoring.printing.cards import round_cards
from scoring.printing.options import PrintOptions
from scoring.printing.render import card_ranges, join_pdfs, render_cards, render_round_pdf
from scoring.printing.stamp import can_stamp
from scoring.printing.tasks import render_round_cards
from tests.celery_support import running_worker
from tests.factories import CategoryFactory, PlayerFactory, StageFactory, TournamentFactory
from tests.scoring.test_pdf import card_texts, singles_round
from tournaments.models import Category, Entry, Game, Match, Team

pytestmark = pytest.mark.django_db

OPTIONS = PrintOptions(site="http://testserver")


def pdftotext(content: bytes, tmp_path: Path) -> list[str]:
    """Each page's text as poppler reads it (by where the words are on the page)."""
    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, timeout=60
    ).stdout.decode()
    return text.split("\f")[:-1]


def page_count(content: bytes) -> int:
    return len(PdfReader(io.BytesIO(content)).pages)


def doubles_round():
    tournament = TournamentFactory(name="Doubles Day")
    category = CategoryFactory(tournament=tournament, name="Doubles", kind=Category.Kind.DOUBLES)
    people = [
        PlayerFactory(tournament=tournament, first_name=f"Pat{i}", last_name="Duo", number=700 + i)
        for i in range(8)
    ]
    teams = [
        Team.objects.create(tournament=tournament, player_one=people[i], player_two=people[i + 1])
        for i in range(0, 8, 2)
    ]
    entries = [Entry.objects.create(category=category, team=team) for team in teams]
    stage = StageFactory(category=category, name="Doubles round robin")
    for a, b in ((0, 1), (2, 3)):
        match = Match.objects.create(stage=stage, entry_a=entries[a], entry_b=entries[b])
        Game.objects.create(match=match, number=1)
    return stage


@pytest.mark.parametrize(
    "make",
    [
        lambda: singles_round(11, boards=4),  # an odd field: a bye card, and cards with no board
        lambda: singles_round(12, games=2),
        doubles_round,
    ],
    ids=["singles-with-bye", "two-games", "doubles"],
)
def test_stamped_cards_print_what_the_ordinary_path_prints(make, tmp_path):
    stage = make()
    cards = round_cards(stage, 1)
    assert can_stamp(cards)
    ordinary = render_cards(cards, OPTIONS, title="Round 1")
    stamped = render_round_pdf(cards, OPTIONS, title="Round 1")
    assert pdftotext(stamped, tmp_path) == pdftotext(ordinary, tmp_path)
    # In the PDF's own order too, every card's text is its own: names, ID numbers, opponents.
    by_card = card_texts(stamped)
    assert len(by_card) == len(cards)
    for card, text in zip(cards, by_card, strict=True):
        for person in card.people:
            assert person.name in text and person.number in text
        for line in card.lines:
            for name, number in line.opponent_labels:
                assert name in text and number in text


def test_long_names_print_smaller_inside_their_box(tmp_path):
    stage = singles_round(4)
    entry = stage.category.entries.first()
    entry.player.first_name = "Maximiliana-Konstantina Wilhelmina Bartholomea"
    entry.player.last_name = "von Hohenzollern-Sigmaringen-Vasquez"
    entry.player.save()
    cards = round_cards(stage, 1)
    stamped = render_round_pdf(cards, OPTIONS, title="Round 1")
    text = " ".join(" ".join(pdftotext(stamped, tmp_path)).split())
    assert entry.player.full_name in text


def test_chunks_joined_in_order_give_the_pages_of_one_render(tmp_path):
    # 12 cards: three pages, four chunks that end inside a page, and two parts of whole pages.
    stage = singles_round(12, boards=6)
    cards = round_cards(stage, 1)
    whole = render_round_pdf(cards, OPTIONS, title="Round 1")
    seen = []
    chunked = render_round_pdf(
        cards, OPTIONS, title="Round 1", chunk=3, progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(n, 12) for n in (3, 6, 9, 12)]
    assert page_count(whole) > 1
    assert pdftotext(chunked, tmp_path) == pdftotext(whole, tmp_path)
    # Parts of whole pages, laid out apart (as by several workers) and joined in order.
    ranges = card_ranges(cards, OPTIONS, 7)
    assert len(ranges) > 1 and [r.start for r in ranges[1:]] == [r.stop for r in ranges[:-1]]
    parts = [render_round_pdf(cards[r.start : r.stop], OPTIONS, title="Round 1") for r in ranges]
    joined = join_pdfs(parts)
    assert pdftotext(joined, tmp_path) == pdftotext(whole, tmp_path)
    assert (
        page_count(joined)
        == page_count(whole)
        == page_count(render_cards(cards, OPTIONS, title="Round 1"))
    )
    assert len(card_texts(joined)) == len(cards)


def test_the_qr_code_of_the_private_link_is_drawn_on_each_card():
    cards = round_cards(singles_round(4), 1)
    bare = [dataclasses.replace(c, link_path="") for c in cards]

    def lines_drawn(content: bytes) -> int:
        page = PdfReader(io.BytesIO(content)).pages[0]
        return sum(1 for op in page.get_contents().get_data().split(b"\n") if op.endswith(b" l"))

    with_qr = render_round_pdf(cards, OPTIONS, title="t")
    without = render_round_pdf(bare, OPTIONS, title="t")
    assert lines_drawn(with_qr) > lines_drawn(without) + 100 * len(cards)


def test_a_batch_reads_a_fixed_number_of_queries(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    counts = []
    for stage in (singles_round(4), singles_round(30, boards=15)):
        with CaptureQueriesContext(connection) as queries:
            batch = batch_module.build_round_batch(
                stage_id=stage.id, round_of_play=1, batch_id=f"b{stage.id}", options=OPTIONS
            )
        counts.append(len(queries))
        assert batch.cards == stage.matches.filter(round_of_play=1).count() * 2
    assert counts[0] == counts[1]


class FakeResult:
    def __init__(self, state: str, info: object = None) -> None:
        self.state, self.info = state, info


def test_a_batch_cut_across_workers_counts_the_cards_of_its_parts(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    parts = {
        "p0": FakeResult("SUCCESS", "stored.part-0.pdf"),
        "p1": FakeResult("PROGRESS", {"done": 3, "total": 5, "at": 2000.0}),
        "p2": FakeResult("PENDING"),
    }
    info = {"done": 0, "total": 15, "at": 1000.0, "parts": [["p0", 5], ["p1", 5], ["p2", 5]]}
    batch = batch_module.batch_state(
        FakeResult("PROGRESS", info), tournament_slug="open", name="x.pdf", lookup=parts.__getitem__
    )
    assert (batch.state, batch.done, batch.total, batch.updated_at) == ("running", 8, 15, 2000.0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_round_is_cut_across_workers_and_joined_in_order(settings, tmp_path, monkeypatch):
    settings.MEDIA_ROOT = str(tmp_path)
    monkeypatch.setattr(batch_module, "PART_CARDS", 4)
    stage = singles_round(12)
    expected = render_round_pdf(round_cards(stage, 1), OPTIONS, title="whole")
    seen = []
    with running_worker() as counter:
        result = render_round_cards.delay(stage.id, 1, site=OPTIONS.site)
        deadline = time.monotonic() + 90
        while not result.ready() and time.monotonic() < deadline:
            meta = result.backend.get_task_meta(result.id)
            if meta["status"] == "PROGRESS":
                seen.append(dict(meta["result"]))
            time.sleep(0.01)
        value = result.get(timeout=30)
        counter.wait_until_idle()
    assert value["cards"] == 12 and value["tournament"] == stage.category.tournament.slug
    assert any(len(m.get("parts", [])) > 1 for m in seen), seen
    stored = tmp_path / value["file"]
    content = stored.read_bytes()
    texts = [" ".join(t.split()) for t in pdftotext(content, tmp_path)]
    whole = [" ".join(t.split()) for t in pdftotext(expected, tmp_path)]
    # The same pages, in order, but for the title at the foot of each page.
    assert [t.replace("whole", "") for t in whole] == [
        t.replace(batch_module.round_title(stage, 1), "") for t in texts
    ]
    assert [p.name for p in stored.parent.iterdir()] == [stored.name]  # the parts are removed
