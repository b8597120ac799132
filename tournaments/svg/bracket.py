"""The knockout bracket as an SVG picture.

Players crowd round the printed bracket after every match; on a phone the same picture must
scale without losing the names. So the bracket is drawn once as SVG, from plain data (rounds of
matches, each with two sides), and the page only embeds it. Each round is a column; a match sits
halfway between the two matches that feed it, so the lines show the path to the final. A side
shows its seed label, its name, the points of each game and, in a best-of-N match, the games won
(WCC: "A championship match will be played best two out of three games"); the winner is
highlighted. The third-place match, when played, is drawn under the final.

That wide drawing cannot be read on a phone: shrunk to 390 px its names fall to 5 px, and
shown at full size it scrolls sideways. So there is a second layout, ``layout="phone"``, which
the page shows below 760 px (CSS picks one of the two, as for the standings chart): the rounds
stacked one under another, each under its heading, each match a box with both sides in full
width. It is :data:`PHONE_WIDTH` units wide, so on a 390 px phone (about 374 px for the picture)
a unit is about a pixel and every text, drawn at 12 units or more, stays at 12 px or more. Text
does not wrap in SVG, so a name is cut with "…" to the room it has (estimated from the width of
its characters, ``tournaments.svg.text``) and keeps its full form in a ``<title>`` tooltip. The wide
layout stays for laptops, the hall screen and the printed sheet.

Text goes through ``xml.etree.ElementTree``, which escapes it, so any player name is safe.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tournaments.svg.text import fit, text_width
from tournaments.translation import _

Layout = Literal["wide", "phone"]

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
"""  # untranslated: CSS

#: Width of the phone layout, in SVG units: a 390 px phone gives the picture about 374 px.
PHONE_WIDTH = 360
PHONE_LINE_H = 30
PHONE_BOX_H = 2 * PHONE_LINE_H
PHONE_HEAD = 34
PHONE_NOTE_H = 18
PHONE_GAP = 12
PHONE_PAD = 4
#: Font sizes of the phone layout, in SVG units (about pixels on a phone): 12 at the least.
PHONE_NAME_FONT = 15
PHONE_SMALL_FONT = 12
PHONE_ROUND_FONT = 15

# Scoped to the phone drawing: both drawings sit in the same page, and a <style> inside an
# inline SVG applies to the whole page, so the phone's larger sizes must not reach the wide one.
PHONE_STYLE = f"""
.layout-phone .round{{font-size:{PHONE_ROUND_FONT}px}}
.layout-phone .name,.layout-phone .wins{{font-size:{PHONE_NAME_FONT}px}}
.layout-phone .seed,.layout-phone .games,.layout-phone .note{{font-size:{PHONE_SMALL_FONT}px}}
"""  # untranslated: CSS


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


def bracket_svg(
    rounds: Sequence[BracketRound], *, title: str | None = None, layout: Layout = "wide"
) -> str:
    """The bracket as a standalone SVG document (a string, no XML declaration, so it can be
    embedded in a page as it is or served as ``image/svg+xml``), in the ``layout`` asked for:
    "wide" (rounds side by side, for laptops, the hall screen and print) or "phone" (rounds one
    under another, :data:`PHONE_WIDTH` units wide). The title defaults to "Knockout bracket"."""
    if title is None:
        title = _("Knockout bracket")
    if layout == "phone":
        return _phone_svg(rounds, title)
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
            "class": "bracket layout-wide",  # untranslated: CSS classes
        },
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "style").text = STYLE
    if not rounds:
        _text(svg, PAD, HEAD, _("The bracket is drawn when the entries are known."), "note")
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
        _text(svg, x, top + HEAD - 12, _("Third place"), "round")
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
    classes = "side win" if side.winner else "side"  # untranslated: CSS classes
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
    name_class = "name" if side.known else "name tbd"  # untranslated: CSS classes
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


def _phone_svg(rounds: Sequence[BracketRound], title: str) -> str:
    """The phone layout: each round under its heading, its matches one under another in bracket
    order (byes leave no gap here: there are no lines to keep aligned), then the third-place
    match under the final."""
    sections = [(r.name, [m for m in r.matches if not m.third_place]) for r in rounds]
    third = [m for r in rounds for m in r.matches if m.third_place]
    if third:
        sections.append((_("Third place"), third))
    sections = [(name, sorted(ms, key=lambda m: m.position)) for name, ms in sections if ms]
    seeds = [s.seed for _name, ms in sections for m in ms for s in (m.a, m.b) if s.seed]
    seed_room = max((text_width(s, PHONE_SMALL_FONT) for s in seeds), default=0)
    name_x = PHONE_PAD + 6 + (seed_room + 8 if seeds else 0)

    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "role": "img"})
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "style").text = STYLE + PHONE_STYLE
    y = 0.0
    if not sections:
        y = PHONE_HEAD
        _text(svg, PHONE_PAD, y - 12, _("The bracket is drawn when the entries are known."), "note")
    for name, matches in sections:
        y += PHONE_HEAD
        _text(svg, PHONE_PAD, y - 10, name, "round")
        for match in matches:
            if match.note:
                y += PHONE_NOTE_H
                _text(svg, PHONE_WIDTH - PHONE_PAD, y - 4, match.note, "note", anchor="end")
            _phone_match(svg, y, match, name_x)
            y += PHONE_BOX_H + PHONE_GAP
    height = int(y + PHONE_PAD)
    svg.attrib.update(
        {
            "viewBox": f"0 0 {PHONE_WIDTH} {height}",
            "width": str(PHONE_WIDTH),
            "height": str(height),
            "class": "bracket layout-phone",  # untranslated: CSS classes
        }
    )
    return ET.tostring(svg, encoding="unicode")


def _phone_scores(side: BracketSide, best_of: int) -> tuple[str, str]:
    """What a side shows at the right of its line: its points per game and its games won (best
    of N), or the points of its one game."""
    if best_of > 1:
        games = " ".join("·" if p is None else str(p) for p in side.games)
        return games, "" if side.wins is None else str(side.wins)
    if side.games and side.games[0] is not None:
        return "", str(side.games[0])
    return "", ""


def _phone_match(svg: ET.Element, top: float, match: BracketMatch, name_x: float) -> None:
    """One match as a box across the drawing: a line per side with seed, name (cut to the room
    the scores leave), points per game and games won; the winner's line green and bold."""
    left, box_w = PHONE_PAD, PHONE_WIDTH - 2 * PHONE_PAD
    right = left + box_w - 8
    group = ET.SubElement(svg, "g", {"class": "match", "id": f"phone-match-{match.id}"})
    ET.SubElement(
        group,
        "rect",
        {
            "class": "box",
            "x": f"{left:g}",
            "y": f"{top:g}",
            "width": f"{box_w:g}",
            "height": str(PHONE_BOX_H),
            "rx": "3",
        },
    )
    sides = (match.a, match.b)
    scores = [_phone_scores(side, match.best_of) for side in sides]
    wins_room = max((text_width(w, PHONE_NAME_FONT) for _, w in scores), default=0)
    games_right = right - (wins_room + 8 if wins_room else 0)
    games_room = max((text_width(g, PHONE_SMALL_FONT) for g, _ in scores), default=0)
    name_room = games_right - (games_room + 10 if games_room else 0) - name_x
    for row, (side, (games, wins)) in enumerate(zip(sides, scores, strict=True)):
        line_top = top + row * PHONE_LINE_H
        classes = "side win" if side.winner else "side"  # untranslated: CSS classes
        line = ET.SubElement(group, "g", {"class": classes})
        ET.SubElement(
            line,
            "rect",
            {
                "class": classes,
                "x": f"{left + 1:g}",
                "y": f"{line_top + 1:g}",
                "width": f"{box_w - 2:g}",
                "height": str(PHONE_LINE_H - 2),
            },
        )
        baseline = line_top + PHONE_LINE_H - 10
        if side.seed:
            _text(line, left + 6, baseline, side.seed, "seed")
        shown = fit(side.name, name_room, PHONE_NAME_FONT)
        name_class = "name" if side.known else "name tbd"  # untranslated: CSS classes
        if side.winner:
            name_class += " win"
        label = _text(line, name_x, baseline, shown, name_class)
        if shown != side.name:
            ET.SubElement(label, "title").text = side.name
        if wins:
            _text(line, right, baseline, wins, "wins", anchor="end")
        if games:
            _text(line, games_right, baseline, games, "games", anchor="end")


def _text(
    parent: ET.Element, x: float, y: float, text: str, cls: str, *, anchor: str = "start"
) -> ET.Element:
    attrs = {"x": f"{x:g}", "y": f"{y:g}", "class": cls}
    if anchor != "start":
        attrs["text-anchor"] = anchor
    element = ET.SubElement(parent, "text", attrs)
    element.text = text
    return element
