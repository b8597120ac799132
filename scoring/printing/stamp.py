"""Round cards laid out once per kind of card, then stamped with each card's names and numbers.

A round of play prints hundreds of cards that differ only in a few words: the names and ID
numbers, the board and the QR code of the private link. Laying every card out with WeasyPrint
(cascade, table layout, drawing) costs tens of milliseconds a card, so a 400-card round took
longer than the printer. Here:

1. Cards are grouped by *shape*: the card with the stamped words blanked out (two cards of a
   round usually share one; a bye or a walkover makes another).
2. Each shape is laid out once by WeasyPrint from the same template as the ordinary path
   (``pdf/_card.html`` in ``form`` mode), with invisible placeholders where the words go. The
   layout gives the card's height and where each placeholder's line sits.
3. Cards are flowed onto pages as WeasyPrint flows them (top to bottom, none split across pages).
4. The stamped words of all pages are laid out by WeasyPrint as one light document: one
   absolutely placed line per word, with the font, size and alignment of its placeholder.
5. Each page is painted as the shapes' drawings, each written to the PDF once as a Form XObject
   and placed at its card's offset, then the words, then each card's QR code drawn as filled
   module runs (vector, as on the ordinary path, without parsing an SVG per card).

Only round cards on portrait pages take this path (:func:`can_stamp`); the rest keep the ordinary
one in :mod:`scoring.printing.render`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import segno
from django.template.loader import render_to_string
from django.utils.html import escape
from weasyprint import HTML, Document
from weasyprint.draw import draw_page
from weasyprint.formatting_structure.boxes import LineBox
from weasyprint.text.fonts import FontConfiguration

from scoring.printing.cards import Card, GameLine, Person
from scoring.printing.options import PrintOptions

#: A placeholder picture for the QR code in a shape's layout: same size box, nothing to draw.
_QR_PLACEHOLDER = (
    "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='1'%20height='1'/%3E"
)
#: Round card columns beyond which a card is printed landscape on a page of its own kind.
_WIDE_ROUNDS = 6
#: Average advance of a DejaVu Sans glyph, in ems (bold is wider): enough to tell a name that
#: would overflow its box and print it smaller rather than across the lines of the card.
_EM_ADVANCE = {False: 0.6, True: 0.68}
_MIN_FONT_PX = 6.0


@dataclass(frozen=True)
class Slot:
    """Where a stamped line goes on a card, relative to the card's top, in CSS pixels, and how
    it is set (the placeholder's font, size, alignment and colour)."""

    x: float
    y: float
    width: float
    style: str
    font_px: float
    bold: bool


@dataclass(frozen=True)
class Shape:
    """One kind of card laid out: its drawing (the page box of a one-card page), the card's top
    on that page, its height and bottom margin, its stamped lines (``x`` from the page's content
    box, ``y`` from the card's top) and its QR code box (from the page's left, the card's top)."""

    key: Card
    page_box: Any
    top: float
    height: float
    margin_bottom: float
    slots: tuple[Slot, ...]
    qr: tuple[float, float, float] | None


@dataclass(frozen=True)
class Placed:
    """A card on a page: its shape, its top below the page's content box, and what is stamped
    on it."""

    shape: Shape
    top: float
    texts: tuple[str, ...]
    qr_url: str


def can_stamp(cards: Sequence[Card]) -> bool:
    """Whether every card is a round card printed portrait, the kind this module lays out."""
    return bool(cards) and all(c.kind == "round" and c.rounds <= _WIDE_ROUNDS for c in cards)


def shape_of(card: Card) -> Card:
    """The card with every stamped word blanked, keeping what decides the layout (how many
    people, opponents and lines, which numbers are printed at all)."""
    blank = Person("", "")
    lines = tuple(
        dataclasses.replace(
            line,
            board=None,
            opponents=tuple(
                tuple(Person("", "#" if p.number else "") for p in people)
                for people in line.opponents
            ),
        )
        for line in card.lines
    )
    return dataclasses.replace(
        card,
        people=tuple(blank for _ in card.people),
        board=None,
        link_path="qr" if card.link_path else "",
        lines=lines,
    )


def _opponent_texts(line: GameLine) -> list[str]:
    """The opponent cell's lines, as ``pdf/_card.html`` prints them."""
    if line.bye:
        return []
    labels = line.opponent_labels
    game = line.game_number
    if not labels:
        return [f"game {game}"] if game else []
    texts = []
    for i, (name, number) in enumerate(labels):
        last = i == len(labels) - 1
        texts.append(name)
        if number:
            texts.append(f"ID # {number}" + (f" · game {game}" if last and game else ""))
        elif last and game:
            texts.append(f"game {game}")
    return texts


def stamped_texts(card: Card) -> tuple[str, ...]:
    """The card's stamped words in the order of the template's placeholders."""
    texts = ["" if card.board is None else str(card.board)]
    for person in card.person_slots:
        texts += [person.name, person.number] if person else ["", ""]
    for line in card.lines:
        texts.append("" if line.board is None else str(line.board))
        texts += _opponent_texts(line)
    return tuple(texts)


def _css_color(color: Any) -> str:
    red, green, blue, alpha = (round(c * 255) if i < 3 else c for i, c in enumerate(color))
    return f"rgba({red},{green},{blue},{alpha})"


def _line_height(style: Any) -> str:
    value = style["line_height"]
    if value == "normal":
        return "normal"
    if isinstance(value, int | float):  # a factor of the font size
        return str(value)
    return f"{value.value}{value.unit}"


def _slot(box: Any, left: float, card_top: float) -> Slot:
    # The line's top, not its left: an aligned line is moved within its box to where its text
    # starts, and the stamped line is aligned the same way across the whole box.
    line = next((b for b in box.descendants() if isinstance(b, LineBox)), None)
    x, y = box.content_box_x(), line.position_y if line else box.content_box_y()
    style = box.style
    bold = style["font_weight"] >= 600
    css = (
        f"font-size:{style['font_size']}px;font-weight:{style['font_weight']};"
        f"line-height:{_line_height(style)};text-align:{style['text_align_all']};"
        f"color:{_css_color(style['color'])};text-transform:{style['text_transform']};"
        f"width:{box.width}px"
    )
    return Slot(x - left, y - card_top, box.width, css, style["font_size"], bold)


def _outermost_boxes(page_box: Any) -> dict[Any, Any]:
    """The first (outermost) box generated for each element of the page."""
    seen: dict[Any, Any] = {}
    for box in page_box.descendants():
        element = getattr(box, "element", None)
        if element is not None and element not in seen:
            seen[element] = box
    return seen


def _layout_shape(key: Card, options: PrintOptions, stylesheets: list, fonts: Any) -> Shape:
    markup = render_to_string(
        "pdf/cards.html",
        {"cards": [key], "title": "", "options": options, "form": {"qr": _QR_PLACEHOLDER}},
    )
    document = HTML(string=markup).render(stylesheets=stylesheets, font_config=fonts)
    page_box = document.pages[0]._page_box
    boxes = _outermost_boxes(page_box)
    article = next(b for e, b in boxes.items() if e.tag == "article")
    top = article.border_box_y()
    left = page_box.content_box_x()
    slots, qr = [], None
    for element, box in boxes.items():
        slot = element.get("data-slot")
        if slot == "text":
            slots.append(_slot(box, left, top))
        elif slot == "qr":
            qr = (box.content_box_x(), box.content_box_y() - top, box.width)
    return Shape(
        key=key,
        page_box=page_box,
        top=top,
        height=article.border_height(),
        margin_bottom=article.margin_bottom,
        slots=tuple(slots),
        qr=qr,
    )


def _fits(text: str, slot: Slot) -> str:
    """A size for ``text`` that keeps it inside its box (a very long name prints smaller)."""
    width = len(text) * slot.font_px * _EM_ADVANCE[slot.bold]
    if width <= slot.width:
        return ""
    return f"font-size:{max(_MIN_FONT_PX, slot.font_px * slot.width / width):.2f}px;"


@lru_cache(maxsize=4096)
def _qr_runs(url: str) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """The QR code of ``url`` (as ``tournaments.qr`` makes it, quiet zone included) as its size
    in modules and the runs of dark modules, ``(row, first column, length)``."""
    code = segno.make(url, error="m", micro=False)
    matrix = [list(row) for row in code.matrix_iter(scale=1, border=4)]
    runs = []
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append((y, start, x - start))
            else:
                x += 1
    return len(matrix), tuple(runs)


class _FormCache:
    """The Form XObjects written for the shapes, for one PDF being written."""

    def __init__(self) -> None:
        self.resources: Any = None
        self.ids: dict[int, str] = {}

    def form_of(self, stream: Any, shape: Shape, width: float, height: float) -> str:
        if self.resources is not stream._resources:
            self.resources, self.ids = stream._resources, {}
        if id(shape) not in self.ids:
            group = stream.add_group(0, 0, width, height)
            group.extra.pop("Group", None)  # an opaque drawing, not a transparency group
            draw_page(shape.page_box, group)
            self.ids[id(shape)] = group.id
        return self.ids[id(shape)]


class StampedPage:
    """A page of stamped cards, painted as WeasyPrint paints its own pages (``Page.paint``), so
    that ``Document.copy`` writes it with ordinary pages' fonts and resources."""

    def __init__(self, words: Any, placed: list[Placed], forms: _FormCache) -> None:
        self.width, self.height = words.width, words.height
        self.bleed = words.bleed
        self.bookmarks, self.links, self.anchors = [], [], {}
        self.forms = {None: []}
        self._words = words._page_box
        self._placed = placed
        self._cache = forms

    def paint(self, stream: Any, scale: float = 1) -> None:
        with stream.stacked():
            stream.transform(a=scale, d=scale)
            for placed in self._placed:
                shape = placed.shape
                form = self._cache.form_of(stream, shape, self.width, self.height)
                with stream.stacked():
                    stream.transform(f=placed.top)
                    stream.draw_x_object(form)
                if shape.qr and placed.qr_url:
                    _draw_qr(stream, placed.qr_url, shape.qr, shape.top + placed.top)
            draw_page(self._words, stream)


def _draw_qr(stream: Any, url: str, box: tuple[float, float, float], top: float) -> None:
    """The QR code as filled polygons, one per run of dark modules."""
    x0, y0, size = box
    modules, runs = _qr_runs(url)
    step = size / modules
    with stream.stacked():
        stream.set_color_rgb(0, 0, 0)
        stream.transform(a=step, d=step, e=x0, f=top + y0)
        for row, column, length in runs:
            stream.move_to(column, row)
            stream.line_to(column + length, row)
            stream.line_to(column + length, row + 1)
            stream.line_to(column, row + 1)
            stream.close()
        stream.fill()


def _words_markup(pages: list[list[Placed]], title: str, avail: float) -> str:
    """One light page per page of cards: each stamped word absolutely placed at its slot."""
    styles: dict[str, str] = {}
    parts = []
    for number, page in enumerate(pages):
        last = number == len(pages) - 1
        parts.append(
            f'<div class="stamp-page" style="height:{avail - 1}px'
            f'{"" if last else ";break-after:page"}">'
        )
        for placed in page:
            for slot, text in zip(placed.shape.slots, placed.texts, strict=True):
                if not text:
                    continue
                name = styles.setdefault(slot.style, f"s{len(styles)}")
                parts.append(
                    f'<div class="{name}" style="left:{slot.x}px;top:{placed.top + slot.y}px;'
                    f'{_fits(text, slot)}">{escape(text)}</div>'
                )
        parts.append("</div>")
    rules = "".join(f".{name}{{{css}}}" for css, name in styles.items())
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><style>'
        ".stamp-page{position:relative;margin:0}"
        ".stamp-page>div{position:absolute;white-space:nowrap;margin:0;padding:0}"
        f"{rules}</style></head>"
        f'<body class="cards" data-title="{escape(title)}">{"".join(parts)}</body></html>'
    )


def stamp_document(
    cards: Sequence[Card], options: PrintOptions, *, title: str, stylesheets: list
) -> Document:
    """The cards as a WeasyPrint document of stamped pages (see the module's docstring)."""
    fonts = FontConfiguration()
    shapes: dict[Card, Shape] = {}
    pages: list[list[Placed]] = [[]]
    avail = 0.0
    y = 0.0
    for card in cards:
        key = shape_of(card)
        shape = shapes.get(key)
        if shape is None:
            shape = shapes[key] = _layout_shape(key, options, stylesheets, fonts)
        avail = shape.page_box.height
        if pages[-1] and y + shape.height > avail:
            pages.append([])
            y = 0.0
        url = options.site + card.link_path if card.link_path else ""
        pages[-1].append(Placed(shape, y, stamped_texts(card), url))
        y += shape.height + shape.margin_bottom
    markup = _words_markup(pages, title, avail)
    words = HTML(string=markup).render(stylesheets=stylesheets, font_config=fonts)
    if len(words.pages) != len(pages):
        raise RuntimeError(f"{len(pages)} pages of cards, {len(words.pages)} of their words")
    forms = _FormCache()
    stamped = [
        StampedPage(page, placed, forms) for page, placed in zip(words.pages, pages, strict=True)
    ]
    return words.copy(stamped)
