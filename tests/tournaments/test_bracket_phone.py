"""The bracket's phone layout: the rounds one under another in a drawing no wider than a phone
(360 units, about a pixel each on a 390 px screen), every match and name in it, names cut to
their room with the full name as a tooltip; and the pages that show the bracket carry both
layouts, for CSS to show one by the screen's width."""

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from tests.tournaments.test_public_pages import event
from tests.tournaments.test_svg import final_four
from tournaments.svg import BracketMatch, BracketRound, BracketSide, bracket_svg
from tournaments.svg.bracket import PHONE_NAME_FONT, PHONE_WIDTH
from tournaments.svg.text import CHAR_EM

SVG = "{http://www.w3.org/2000/svg}"
NS = {"svg": SVG[1:-1]}


def phone(rounds, **kwargs):
    return ET.fromstring(bracket_svg(rounds, layout="phone", **kwargs))


def texts(element):
    return [t.text for t in element.iter(f"{SVG}text")]


def titles(element):
    return [t.text for t in element.iter(f"{SVG}title")]


def eight_entries(name_of=lambda i: f"Entry {i}"):
    """Quarterfinals (two decided), semifinals and final still to come, best of 1."""
    qf = tuple(
        BracketMatch(
            f"QF{p + 1}",
            p,
            BracketSide(name_of(2 * p), str(p + 1), games=(8,) if p < 2 else (), winner=p < 2),
            BracketSide(name_of(2 * p + 1), str(8 - p), games=(0,) if p < 2 else ()),
            note=f"Board {p + 1}",
        )
        for p in range(4)
    )
    sf = tuple(
        BracketMatch(
            f"SF{p + 1}",
            p,
            BracketSide(f"Winner of QF{2 * p + 1}", known=False),
            BracketSide(f"Winner of QF{2 * p + 2}", known=False),
        )
        for p in range(2)
    )
    final = (
        BracketMatch("F", 0, BracketSide("Winner of SF1", known=False), BracketSide("?", False)),
    )
    return [
        BracketRound("Quarterfinals", qf),
        BracketRound("Semifinals", sf),
        BracketRound("Final", final),
    ]


def test_phone_bracket_is_at_most_360_units_wide_and_no_text_runs_past_it():
    long = "Maximiliana Wilhelmina von Hohenzollern-Sigmaringen"
    for rounds in (final_four(), eight_entries(lambda i: long if i == 3 else f"Entry {i}")):
        root = phone(rounds)
        _, _, width, _ = (float(v) for v in root.get("viewBox").split())
        assert width == float(root.get("width")) <= PHONE_WIDTH
        for text in root.iter(f"{SVG}text"):
            x = float(text.get("x"))
            assert 0 <= x <= width
            if text.get("class", "").startswith("name"):
                # the generous estimate of the name's right end stays inside the drawing
                assert x + len(text.text) * CHAR_EM * PHONE_NAME_FONT <= width


def test_phone_bracket_stacks_the_rounds_with_every_match_and_every_name():
    root = phone(eight_entries(), title="Open Singles: Knockout")
    assert root.find("svg:title", NS).text == "Open Singles: Knockout"
    assert "layout-phone" in root.get("class")
    matches = [g.get("id") for g in root.iterfind(".//svg:g[@class='match']", NS)]
    assert matches == [f"phone-match-{m}" for m in ("QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F")]
    shown = texts(root)
    for i in range(8):
        assert f"Entry {i}" in shown
    assert "Winner of QF1" in shown and "Board 3" in shown

    def top(match_id):
        return float(root.find(f".//svg:g[@id='phone-match-{match_id}']/svg:rect", NS).get("y"))

    def heading(name):
        return next(float(t.get("y")) for t in root.iter(f"{SVG}text") if t.text == name)

    # One round under another, each under its heading, its matches in bracket order.
    assert heading("Quarterfinals") < top("QF1") < top("QF2") < top("QF3") < top("QF4")
    assert top("QF4") < heading("Semifinals") < top("SF1") < top("SF2")
    assert top("SF2") < heading("Final") < top("F")
    assert not root.findall(".//svg:path", NS)  # no lines between rounds stacked on a phone


def test_phone_bracket_shows_the_winner_bold_scores_and_the_third_place_match_last():
    root = phone(final_four())
    sf1 = root.find(".//svg:g[@id='phone-match-SF1']", NS)
    rows = sf1.findall("svg:g", NS)
    assert [r.get("class") for r in rows] == ["side win", "side"]
    winner = {t.get("class"): t.text for t in rows[0].iter(f"{SVG}text")}
    assert winner == {"seed": "1A", "name win": "Anna Brubacher", "wins": "2", "games": "8 6 ·"}
    ids = [g.get("id") for g in root.iterfind(".//svg:g[@class='match']", NS)]
    assert ids[-1] == "phone-match-3P" and ids[-2] == "phone-match-F"
    assert texts(root).index("Third place") > texts(root).index("Final")


def test_phone_bracket_escapes_names_and_keeps_long_ones_whole_in_a_tooltip():
    long = "Maximiliana Wilhelmina von Hohenzollern-Sigmaringen <the Elder> & Sons"
    rounds = [
        BracketRound(
            "Final",
            (BracketMatch("F", 0, BracketSide(long, "1"), BracketSide("<b>Bo</b> & >", "2")),),
        )
    ]
    svg = bracket_svg(rounds, layout="phone")
    assert "<b>" not in svg and "&lt;b&gt;Bo&lt;/b&gt; &amp; &gt;" in svg
    root = ET.fromstring(svg)
    shown = texts(root)
    assert "<b>Bo</b> & >" in shown
    assert long not in shown and long in titles(root)
    cut = next(t for t in shown if t and t.endswith("…"))
    assert long.startswith(cut[:-1])
    # the first test's names with < & > come through too
    assert "Ben <Schmidt> & Co" in texts(phone(final_four()))


def test_an_empty_phone_bracket_is_still_a_picture():
    root = phone([])
    assert float(root.get("width")) <= PHONE_WIDTH
    assert "drawn when the entries are known" in " ".join(t for t in texts(root) if t)


def test_the_wide_layout_is_still_the_default():
    root = ET.fromstring(bracket_svg(final_four()))
    assert "layout-wide" in root.get("class")
    assert float(root.get("width")) > PHONE_WIDTH
    assert root.find(".//svg:g[@id='match-SF1']", NS) is not None


@pytest.mark.django_db
def test_bracket_pages_carry_both_layouts(client):
    category, entries, stages = event(9)
    slug, knockout = category.tournament.slug, stages["knockout"]
    for name in ("tournaments:bracket", "tournaments:embed-bracket"):
        body = client.get(reverse(name, args=[slug, knockout.id])).content.decode()
        assert 'class="bracket-wrap bracket-wide"' in body, name
        assert 'class="bracket-wrap bracket-phone"' in body, name
        assert 'class="bracket layout-wide"' in body and 'class="bracket layout-phone"' in body
        assert body.count(entries[0].name) >= 2  # in each drawing
    detail = client.get(reverse("tournaments:detail", args=[slug])).content.decode()
    assert 'class="bracket layout-wide"' in detail and 'class="bracket layout-phone"' in detail
    # The file to download stays the wide drawing (for printing or another screen).
    svg = client.get(reverse("tournaments:bracket_svg", args=[slug, knockout.id])).content
    assert b"layout-wide" in svg and b"layout-phone" not in svg
