"""The bracket picture: plain data in, a well-formed SVG document out."""

import xml.etree.ElementTree as ET

from tournaments.svg import BracketMatch, BracketRound, BracketSide, bracket_svg

NS = {"svg": "http://www.w3.org/2000/svg"}


def texts(root):
    return [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


def final_four():
    """Semifinals played best of 3 (one decided 2-0, one going on), the final and the match for
    third place still waiting for their entries."""
    sf1 = BracketMatch(
        id="SF1",
        position=0,
        best_of=3,
        a=BracketSide("Anna Brubacher", "1A", wins=2, games=(8, 6, None), winner=True),
        b=BracketSide("Ben <Schmidt> & Co", "2B", wins=0, games=(0, 2, None)),
        note="Board 1",
    )
    sf2 = BracketMatch(
        id="SF2",
        position=1,
        best_of=3,
        a=BracketSide("Carla Martin", "1B", wins=1, games=(6, 3)),
        b=BracketSide("Dan Okafor", "2A", wins=1, games=(2, 5)),
    )
    final = BracketMatch(
        id="F",
        position=0,
        best_of=3,
        a=BracketSide("Anna Brubacher", "1A"),
        b=BracketSide("Winner of SF2", known=False),
    )
    third = BracketMatch(
        id="3P",
        position=1,
        best_of=3,
        a=BracketSide("Ben <Schmidt> & Co", "2B"),
        b=BracketSide("Loser of SF2", known=False),
        third_place=True,
    )
    return [BracketRound("Semifinals", (sf1, sf2)), BracketRound("Final", (final, third))]


def test_bracket_parses_as_xml_and_names_every_entry():
    root = ET.fromstring(bracket_svg(final_four(), title="Competitive Singles: Final four"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.find("svg:title", NS).text == "Competitive Singles: Final four"
    shown = texts(root)
    for name in ("Anna Brubacher", "Ben <Schmidt> & Co", "Carla Martin", "Dan Okafor"):
        assert name in shown
    for label in ("1A", "2B", "1B", "2A", "Semifinals", "Final", "Third place", "Board 1"):
        assert label in shown
    assert "Winner of SF2" in shown and "Loser of SF2" in shown


def test_winner_is_highlighted_and_best_of_three_shows_games_won():
    root = ET.fromstring(bracket_svg(final_four()))
    sf1 = root.find(".//svg:g[@id='match-SF1']", NS)
    rows = sf1.findall("svg:g", NS)
    assert [r.get("class") for r in rows] == ["side win", "side"]
    winner_texts = [t.text for t in rows[0].iter("{http://www.w3.org/2000/svg}text")]
    assert "2" in winner_texts  # games won
    assert "8 6 ·" in winner_texts  # points per game; game 3 not played
    sf2 = root.find(".//svg:g[@id='match-SF2']", NS)
    assert all(r.get("class") == "side" for r in sf2.findall("svg:g", NS))  # still going on


def test_third_place_match_is_drawn_below_the_final_and_lines_join_the_rounds():
    root = ET.fromstring(bracket_svg(final_four()))

    def top(match_id):
        box = root.find(f".//svg:g[@id='match-{match_id}']/svg:rect", NS)
        return float(box.get("y"))

    assert top("3P") > top("F") > top("SF1")
    assert top("SF1") < top("F") < top("SF2")  # the final sits between its two feeders
    assert len(root.findall("svg:path", NS)) == 2  # SF1 -> F and SF2 -> F; none to 3P


def test_long_names_are_shortened_with_the_full_name_as_a_tooltip():
    long_name = "Maximiliana Wilhelmina von Hohenzollern-Sigmaringen"
    rounds = [
        BracketRound(
            "Final",
            (BracketMatch("F", 0, BracketSide(long_name, "1"), BracketSide("Bo", "2")),),
        )
    ]
    root = ET.fromstring(bracket_svg(rounds))
    shown = texts(root)
    assert long_name not in shown
    assert any(t and t.endswith("…") and long_name.startswith(t[:-1]) for t in shown)
    assert long_name in [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]


def test_byes_leave_gaps_and_an_empty_bracket_is_still_a_picture():
    """Six entries: the first round has two matches at positions 1 and 3 (seeds 1 and 2 have
    byes); each is drawn at its bracket position."""
    qf = [
        BracketMatch(f"QF{p + 1}", p, BracketSide(f"E{p}a", "4"), BracketSide(f"E{p}b", "5"))
        for p in (1, 3)
    ]
    sf = [
        BracketMatch(f"SF{p + 1}", p, BracketSide("Seed", "1"), BracketSide("?", known=False))
        for p in (0, 1)
    ]
    final = [BracketMatch("F", 0, BracketSide("?", known=False), BracketSide("?", known=False))]
    rounds = [
        BracketRound("Quarterfinals", tuple(qf)),
        BracketRound("Semifinals", tuple(sf)),
        BracketRound("Final", tuple(final)),
    ]
    root = ET.fromstring(bracket_svg(rounds))
    ys = [
        float(root.find(f".//svg:g[@id='match-{m}']/svg:rect", NS).get("y")) for m in ("QF2", "QF4")
    ]
    assert ys[1] - ys[0] > 100  # two slots apart, not packed together
    assert len(root.findall("svg:path", NS)) == 2 + 2

    empty = ET.fromstring(bracket_svg([]))
    assert "drawn when the entries are known" in " ".join(t for t in texts(empty) if t)
