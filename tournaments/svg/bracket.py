"""The knockout bracket as an SVG picture.

Players crowd round the printed bracket after every match; on a phone the same picture must
scale without losing the names. So the bracket is drawn once as SVG, from plain data (rounds of
matches, each with two sides), and the page only embeds it. Each round is a column; a match sits
halfway between the two matches that feed it, so the lines show the path to the final. A side
shows its seed label, its name, the points of each game and, in a best-of-N match, the games won
(WCC: "A championship match will be played best two out of three games"); the winner is
highlighted. The third-place match, when played, is drawn under the final.

Text goes through ``xml.etree.ElementTree``, which escapes it, so any player name is safe.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

BOX_W = 250
LINE_H = 22
BOX_H = 2 * LINE_H
GAP_X = 44
GAP_Y = 22
HEAD = 30
PAD = 10
NAME_CHARS = 22

# Longhand font properties: WeasyPrint (printed bracket sheets) misreads the `font` shorthand
# with a weight in front (Kozea/WeasyPrint#2255); browsers draw both the same.
STYLE = """
.round{font-weight:600;font-size:13px;font-family:system-ui,sans-serif;fill:#7a3e12}
.box{fill:#fff;stroke:#bbb}
.side{fill:#fff}
.side.win{fill:#e3f1dc}
.seed{font-size:11px;font-family:system-ui,sans-serif;fill:#666}
.name{font-size:13px;font-family:system-ui,sans-serif;fill:#222}
.win .name,.name.win{font-weight:700}
.tbd{font-style:italic;fill:#888}
.games{font-size:11px;font-family:system-ui,sans-serif;fill:#666}
.wins{font-weight:700;font-size:13px;font-family:system-ui,sans-serif;fill:#222}
.note{font-size:10px;font-family:system-ui,sans-serif;fill:#666}
.link{fill:none;stroke:#999;stroke-width:1.5}
"""


@dataclass(frozen=True)
class BracketSide:
    """One side of a match. ``known`` is False while the entry is still to come ("Winner of
    SF1"); ``games`` holds its points per game played (None for a game not played yet, or a
    word such as "W/O" for a game won or lost by walkover)."""

    name: str
    seed: str = ""
    wins: int | None = None
    games: tuple[int | str | None, ...] = ()
    winner: bool = False
    known: bool = True


@dataclass(frozen=True)
class BracketMatch:
    """A match at ``position`` (from 0, top to bottom, counting byes) within its round."""

    id: str
    position: int
    a: BracketSide
    b: BracketSide
    best_of: int = 1
    note: str = ""
    third_place: bool = False


@dataclass(frozen=True)
class BracketRound:
    name: str
    matches: tuple[BracketMatch, ...]


def bracket_svg(rounds: Sequence[BracketRound], *, title: str = "Knockout bracket") -> str:
    """The bracket as a standalone SVG document (a string, no XML declaration, so it can be
    embedded in a page as it is or served as ``image/svg+xml``)."""
    main = [BracketRound(r.name, tuple(m for m in r.matches if not m.third_place)) for r in rounds]
    consolation = [m for r in rounds for m in r.matches if m.third_place]
    columns = len(main)
    unit = BOX_H + GAP_Y
    first_round_slots = 2 ** max(columns - 1, 0)
    height = HEAD + unit * max(first_round_slots, 1) + PAD
    if consolation:
        height += HEAD + unit
    width = PAD * 2 + max(columns, 1) * BOX_W + max(columns - 1, 0) * GAP_X

    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {width} {height}",
            "width": str(width),
            "height": str(height),
            "role": "img",
            "class": "bracket",
        },
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "style").text = STYLE
    if not rounds:
        _text(svg, PAD, HEAD, "The bracket is drawn when the entries are known.", "note")
        return ET.tostring(svg, encoding="unicode")

    centres: dict[tuple[int, int], float] = {}
    for column, rnd in enumerate(main):
        x = PAD + column * (BOX_W + GAP_X)
        _text(svg, x, HEAD - 12, rnd.name, "round")
        span = unit * 2**column
        for match in rnd.matches:
            centre = HEAD + (match.position + 0.5) * span
            centres[(column, match.position)] = centre
            _match(svg, x, centre, match)
    for column in range(columns - 1):
        x = PAD + column * (BOX_W + GAP_X) + BOX_W
        for match in main[column].matches:
            target = centres.get((column + 1, match.position // 2))
            if target is None:
                continue
            start = centres[(column, match.position)]
            end = target + (-LINE_H / 2 if match.position % 2 == 0 else LINE_H / 2)
            middle = x + GAP_X / 2
            ET.SubElement(
                svg,
                "path",
                {
                    "class": "link",
                    "d": f"M{x:g} {start:g}H{middle:g}V{end:g}H{x + GAP_X:g}",
                },
            )
    for match in consolation:
        x = PAD + (columns - 1) * (BOX_W + GAP_X)
        top = HEAD + unit * first_round_slots + PAD
        _text(svg, x, top + HEAD - 12, "Third place", "round")
        _match(svg, x, top + HEAD + unit / 2, match)
    return ET.tostring(svg, encoding="unicode")


def _match(svg: ET.Element, x: float, centre: float, match: BracketMatch) -> None:
    top = centre - BOX_H / 2
    group = ET.SubElement(svg, "g", {"class": "match", "id": f"match-{match.id}"})
    ET.SubElement(
        group,
        "rect",
        {
            "class": "box",
            "x": f"{x:g}",
            "y": f"{top:g}",
            "width": str(BOX_W),
            "height": str(BOX_H),
            "rx": "3",
        },
    )
    if match.note:
        _text(group, x + BOX_W, top - 3, match.note, "note", anchor="end")
    for row, side in enumerate((match.a, match.b)):
        _side(group, x, top + row * LINE_H, side, match.best_of)


def _side(group: ET.Element, x: float, top: float, side: BracketSide, best_of: int) -> None:
    classes = "side win" if side.winner else "side"
    row = ET.SubElement(group, "g", {"class": classes})
    ET.SubElement(
        row,
        "rect",
        {
            "class": classes,
            "x": f"{x + 1:g}",
            "y": f"{top + 1:g}",
            "width": str(BOX_W - 2),
            "height": str(LINE_H - 2),
        },
    )
    baseline = top + LINE_H - 7
    if side.seed:
        _text(row, x + 6, baseline, side.seed, "seed")
    name = side.name if len(side.name) <= NAME_CHARS else side.name[: NAME_CHARS - 1] + "…"
    name_class = "name" if side.known else "name tbd"
    if side.winner:
        name_class += " win"
    label = _text(row, x + 34, baseline, name, name_class)
    if name != side.name:
        ET.SubElement(label, "title").text = side.name
    right = x + BOX_W - 8
    if best_of > 1:
        if side.wins is not None:
            _text(row, right, baseline, str(side.wins), "wins", anchor="end")
        scores = " ".join("·" if p is None else str(p) for p in side.games)
        if scores:
            _text(row, right - 18, baseline, scores, "games", anchor="end")
    elif side.games and side.games[0] is not None:
        _text(row, right, baseline, str(side.games[0]), "wins", anchor="end")


def _text(
    parent: ET.Element, x: float, y: float, text: str, cls: str, *, anchor: str = "start"
) -> ET.Element:
    attrs = {"x": f"{x:g}", "y": f"{y:g}", "class": cls}
    if anchor != "start":
        attrs["text-anchor"] = anchor
    element = ET.SubElement(parent, "text", attrs)
    element.text = text
    return element
