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
4. The stamped words are laid out by WeasyPrint as light documents (a page per page of cards,
   in chunks for the progress bar): one absolutely placed line per word, with the font, size
   and alignment of its placeholder, each card's words a stacking context of their own.
5. Each page is painted card by card: the shape's drawing (written to the PDF once as a Form
   XObject, placed at the card's offset), the card's QR code as filled module runs (vector, as
   on the ordinary path, without parsing an SVG per card; cached by link, which stays the same
   from round to round), then the card's words; the page's title last.

Only round cards on portrait pages take this path (:func:`can_stamp`); the rest keep the ordinary
one in :mod:`scoring.printing.render`.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import segno
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import gettext as _
from weasyprint import HTML, Document
from weasyprint.draw import draw_page, draw_stacking_context
from weasyprint.formatting_structure.boxes import LineBox, MarginBox
from weasyprint.stacking import StackingContext
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
    # The template's own words (``{% blocktranslate %}`` there), in the same language.
    game_text = _("game %(number)s") % {"number": game} if game else ""
    if not labels:
        return [game_text] if game else []
    texts = []
    for i, (name, number) in enumerate(labels):
        last = i == len(labels) - 1
        texts.append(name)
        if number:
            id_text = _("ID # %(number)s") % {"number": number}
            texts.append(id_text + (f" · {game_text}" if last and game else ""))
        elif last and game:
            texts.append(game_text)
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


def _layout_shape(
    key: Card, options: PrintOptions, stylesheets: list, fonts: Any, fetcher: Any
) -> Shape:
    markup = render_to_string(
        "pdf/cards.html",
        {"cards": [key], "title": "", "options": options, "form": {"qr": _QR_PLACEHOLDER}},
    )
    document = HTML(string=markup, url_fetcher=fetcher).render(
        stylesheets=stylesheets, font_config=fonts
    )
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


#: QR drawings are kept in the cache (Redis in production) this long: an entry's private link is
#: the same every round, so its QR code is encoded once, not once per round and per worker.
QR_CACHE_SECONDS = 14 * 24 * 3600


def _qr_path(url: str) -> tuple[int, bytes]:
    """The QR code of ``url`` (as ``tournaments.qr`` makes it, quiet zone included): its size in
    modules and the PDF path operators outlining each run of dark modules, in module units.

    Choosing the best mask is most of a QR code's cost (about 10 ms), more than a stamped card's
    layout, so the drawing is cached by URL in memory and in Django's cache.
    """
    key = "print-qr-path:v1:" + hashlib.sha256(url.encode()).hexdigest()
    found = _QR_MEMORY.get(key) or cache.get(key)
    if found is None:
        code = segno.make(url, error="m", micro=False)
        rows = [list(row) for row in code.matrix_iter(scale=1, border=4)]
        ops = []
        for y, row in enumerate(rows):
            for x0, x1 in _dark_runs(row):
                ops.append(f"{x0} {y} m\n{x1} {y} l\n{x1} {y + 1} l\n{x0} {y + 1} l\nh")
        found = (len(rows), "\n".join(ops).encode())
        cache.set(key, found, QR_CACHE_SECONDS)
    if len(_QR_MEMORY) > 4096:
        _QR_MEMORY.clear()
    _QR_MEMORY[key] = found
    return found


_QR_MEMORY: dict[str, tuple[int, bytes]] = {}


def _dark_runs(row: Sequence[int]) -> list[tuple[int, int]]:
    """The runs of dark modules of a row, as ``(first column, column after the last)``."""
    runs, start = [], None
    for x, dark in enumerate([*row, 0]):
        if dark and start is None:
            start = x
        elif not dark and start is not None:
            runs.append((start, x))
            start = None
    return runs


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
        self._parts = [(words._page_box, placed)]
        self._cache = forms

    def add(self, words: Any, placed: list[Placed]) -> None:
        """More cards of this page, whose words were laid out in the next chunk."""
        self._parts.append((words._page_box, placed))

    def paint(self, stream: Any, scale: float = 1) -> None:
        with stream.stacked():
            stream.transform(a=scale, d=scale)
            for words_page, cards in self._parts:
                context = StackingContext.from_page(words_page)
                for placed, words in zip(cards, _card_contexts(context), strict=True):
                    self._paint_card(stream, placed)
                    # Each card's words right after its drawing: text read in the PDF's order
                    # (copying, searching, screen readers) comes card by card, as on the
                    # ordinary path.
                    draw_stacking_context(stream, words)
                for margin in context.zero_z_contexts:  # the page's title
                    if isinstance(margin.box, MarginBox):
                        draw_stacking_context(stream, margin)

    def _paint_card(self, stream: Any, placed: Placed) -> None:
        shape = placed.shape
        form = self._cache.form_of(stream, shape, self.width, self.height)
        with stream.stacked():
            stream.transform(f=placed.top)
            stream.draw_x_object(form)
        if shape.qr and placed.qr_url:
            _draw_qr(stream, placed.qr_url, shape.qr, shape.top + placed.top)


def _card_contexts(context: StackingContext) -> list[StackingContext]:
    """The stacking contexts of the page's cards' words, in the cards' order."""
    found = []
    todo = [context]
    while todo:
        current = todo.pop()
        element = getattr(current.box, "element", None)
        if element is not None and element.get("data-card") is not None:
            found.append((int(element.get("data-card")), current))
            continue
        todo += current.negative_z_contexts + current.zero_z_contexts
        todo += current.positive_z_contexts
    return [words for _, words in sorted(found, key=lambda item: item[0])]


def _draw_qr(stream: Any, url: str, box: tuple[float, float, float], top: float) -> None:
    """The QR code as filled polygons, one per run of dark modules."""
    x0, y0, size = box
    modules, path = _qr_path(url)
    step = size / modules
    with stream.stacked():
        stream.set_color_rgb(0, 0, 0)
        stream.transform(a=step, d=step, e=x0, f=top + y0)
        stream.stream.append(path)  # written once per URL, not operator by operator
        stream.fill()


def _words_markup(pages: list[tuple[list[Placed], bool]], title: str, avail: float) -> str:
    """A light page per page of cards (``(cards, whether the page starts here)``): each card's
    stamped words in a box of their own (a stacking context, drawn after the card's drawing),
    each word absolutely placed at its slot; the chunk that starts a page prints its title."""
    styles: dict[str, str] = {}
    parts = []
    for number, (page, starts) in enumerate(pages):
        last = number == len(pages) - 1
        parts.append(
            f'<div class="stamp-page{"" if starts else " rest"}" style="height:{avail - 1}px'
            f'{"" if last else ";break-after:page"}">'
        )
        for index, placed in enumerate(page):
            parts.append(f'<div class="card-words" data-card="{index}" style="top:{placed.top}px">')
            for slot, text in zip(placed.shape.slots, placed.texts, strict=True):
                if not text:
                    continue
                name = styles.setdefault(slot.style, f"s{len(styles)}")
                parts.append(
                    f'<div class="{name}" style="left:{slot.x}px;top:{slot.y}px;'
                    f'{_fits(text, slot)}">{escape(text)}</div>'
                )
            parts.append("</div>")
        parts.append("</div>")
    rules = "".join(f".{name}{{{css}}}" for css, name in styles.items())
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><style>'
        ".stamp-page{position:relative;margin:0}"
        # The second chunk of a page prints no title: the first one did.
        "@page rest{@bottom-left{content:none}}.stamp-page.rest{page:rest}"
        ".card-words{position:absolute;z-index:0;left:0;right:0;margin:0}"
        ".card-words>div{position:absolute;white-space:nowrap;margin:0;padding:0}"
        f"{rules}</style></head>"
        f'<body class="cards" data-title="{escape(title)}">{"".join(parts)}</body></html>'
    )


class Stamper:
    """Lays out each kind of card once and stamps cards onto pages, for one paper and options.

    One stamper serves every chunk of a batch, so the shapes are laid out and written to the PDF
    once however many chunks the cards are cut into.
    """

    def __init__(
        self, options: PrintOptions, stylesheets: list, url_fetcher: Any, words_stylesheets: list
    ) -> None:
        """``stylesheets`` lay the cards out; ``words_stylesheets`` (their page rules) the
        stamped words."""
        self.options = options
        self.url_fetcher = url_fetcher
        self.stylesheets = stylesheets
        self.words_stylesheets = words_stylesheets
        self.fonts = FontConfiguration()
        self.shapes: dict[Card, Shape] = {}
        self.forms = _FormCache()

    def shape(self, card: Card) -> Shape:
        key = shape_of(card)
        shape = self.shapes.get(key)
        if shape is None:
            shape = self.shapes[key] = _layout_shape(
                key, self.options, self.stylesheets, self.fonts, self.url_fetcher
            )
        return shape

    def paginate(self, cards: Sequence[Card]) -> list[list[Placed]]:
        """The cards flowed onto pages as WeasyPrint flows them: top to bottom, a card that does
        not fit in what is left of a page starts the next one."""
        pages: list[list[Placed]] = [[]]
        y = 0.0
        for card in cards:
            shape = self.shape(card)
            if pages[-1] and y + shape.height > shape.page_box.height:
                pages.append([])
                y = 0.0
            url = self.options.site + card.link_path if card.link_path else ""
            pages[-1].append(Placed(shape, y, stamped_texts(card), url))
            y += shape.height + shape.margin_bottom
        return pages if pages[-1] else []

    def document(
        self,
        pages: list[list[Placed]],
        title: str,
        *,
        chunk: int | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> Document:
        """The pages as a WeasyPrint document, ready to be written or joined with others.

        With ``chunk``, the words of ``chunk`` cards are laid out at a time and
        ``progress(done, total)`` is called after each.
        """
        cards = [(number, placed) for number, page in enumerate(pages) for placed in page]
        total = len(cards)
        size = chunk or max(total, 1)
        first: Document | None = None
        stamped: list[StampedPage] = []
        for start in range(0, total, size):
            part = cards[start : start + size]
            numbers = sorted({number for number, _ in part})
            # A page cut between two chunks is stamped twice: its first cards, then the rest.
            grouped = [
                (
                    [placed for n, placed in part if n == number],
                    number != part[0][0] or pages[number][0] is part[0][1],
                )
                for number in numbers
            ]
            avail = pages[numbers[0]][0].shape.page_box.height
            document = HTML(
                string=_words_markup(grouped, title, avail), url_fetcher=self.url_fetcher
            ).render(stylesheets=self.words_stylesheets, font_config=self.fonts)
            if len(document.pages) != len(grouped):
                raise RuntimeError(f"{len(grouped)} pages of cards, {len(document.pages)} laid out")
            for (placed, starts), words in zip(grouped, document.pages, strict=True):
                if starts:
                    stamped.append(StampedPage(words, placed, self.forms))
                else:
                    stamped[-1].add(words, placed)
            first = first or document
            if progress is not None:
                progress(min(start + size, total), total)
        if first is None:
            raise ValueError("no cards to stamp")  # untranslated: developer error
        return first.copy(stamped)


def page_chunks(pages: list[list[Placed]], size: int) -> list[list[list[Placed]]]:
    """The pages cut into runs of whole pages of about ``size`` cards each (at least one page):
    a chunk laid out on its own then gives the same pages as the whole."""
    chunks: list[list[list[Placed]]] = []
    count = size
    for page in pages:
        if count >= size:
            chunks.append([])
            count = 0
        chunks[-1].append(page)
        count += len(page)
    return chunks
