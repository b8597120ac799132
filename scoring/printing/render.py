"""HTML to PDF with WeasyPrint.

Cards are rendered as one HTML document holding many cards, never one WeasyPrint call per card:
layout is the expensive part and a call has a fixed cost (stylesheet cascade, fonts, PDF
writing). For a progress bar, a batch may lay out its cards in a few large chunks and join the
pages into one PDF (WeasyPrint's documented ``Document.copy`` of pages from several documents).

Round cards, hundreds of nearly identical ones, have a faster way: :func:`render_round_pdf` lays
each kind of card out once and stamps the names, numbers and QR codes on it
(:mod:`scoring.printing.stamp`); :func:`card_ranges` cuts such a round into chunks of whole pages
that workers lay out apart and :func:`join_pdfs` puts back together in order.

Fonts come from the system (fontconfig; DejaVu on Debian): the print stylesheet names no web font
and the URL fetcher refuses anything that is not a local file or inline data, so rendering
never reaches the network.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import tinycss2
from django.template.loader import render_to_string
from django.utils.translation import get_language
from pypdf import PdfWriter
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from scoring.printing.cards import Card
from scoring.printing.options import PrintOptions
from scoring.printing.stamp import Stamper, can_stamp, page_chunks

Progress = Callable[[int, int], None]


def _local_only() -> URLFetcher:
    """WeasyPrint's fetcher limited to inline ``data:`` URLs: no web fonts, no images from the
    internet or the server's disk, whatever a name typed into the app contains."""
    return URLFetcher(allowed_protocols={"data"}, timeout=1)


def _stylesheet(paper: str) -> CSS:
    """The print stylesheet for one paper size in the active language (its page footer has
    words), parsed once per process."""
    return _parsed_stylesheet(paper, get_language())


@lru_cache(maxsize=16)
def _parsed_stylesheet(paper: str, language: str | None) -> CSS:
    css = render_to_string("pdf/print.css", {"page_size": PrintOptions(paper).page_size})
    return CSS(string=css, url_fetcher=_local_only())


def _html(template: str, context: Mapping[str, Any], options: PrintOptions) -> HTML:
    markup = render_to_string(template, {**context, "options": options})
    return HTML(string=markup, url_fetcher=_local_only())


def _page_stylesheet(paper: str) -> CSS:
    """The print stylesheet's page rules, root font and page title alone, for the stamped
    words: they take their own sizes from their slots, and matching every rule of the cards
    against hundreds of words would cost more than laying them out. In the active language,
    as :func:`_stylesheet`."""
    return _parsed_page_stylesheet(paper, get_language())


@lru_cache(maxsize=16)
def _parsed_page_stylesheet(paper: str, language: str | None) -> CSS:
    css = render_to_string("pdf/print.css", {"page_size": PrintOptions(paper).page_size})
    rules = [
        rule
        for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
        if (rule.type == "at-rule" and rule.lower_at_keyword == "page")
        or (
            rule.type == "qualified-rule"
            and tinycss2.serialize(rule.prelude).strip() in ("html", "body")
        )
    ]
    return CSS(string=tinycss2.serialize(rules), url_fetcher=_local_only())


def render_pdf(template: str, context: Mapping[str, Any], options: PrintOptions) -> bytes:
    """One template rendered to PDF bytes in a single WeasyPrint call."""
    return _html(template, context, options).write_pdf(stylesheets=[_stylesheet(options.paper)])


def render_cards(
    cards: Sequence[Card],
    options: PrintOptions,
    *,
    title: str,
    chunk: int | None = None,
    progress: Progress | None = None,
) -> bytes:
    """Cards to one PDF, several to a page where they fit.

    Without ``chunk`` every card goes into one HTML document and one WeasyPrint call. With
    ``chunk`` the cards are laid out ``chunk`` at a time, ``progress(done, total)`` is called
    after each, and the pages are joined into one PDF at the end.
    """
    total = len(cards)
    size = chunk or max(total, 1)
    stylesheets = [_stylesheet(options.paper)]
    fonts = FontConfiguration()
    documents = []
    for start in range(0, max(total, 1), size):
        part = cards[start : start + size]
        html = _html("pdf/cards.html", {"cards": part, "title": title}, options)
        documents.append(html.render(stylesheets=stylesheets, font_config=fonts))
        if progress is not None:
            progress(min(start + size, total), total)
    if len(documents) == 1:
        return documents[0].write_pdf()
    pages = [page for document in documents for page in document.pages]
    return documents[0].copy(pages).write_pdf()


def render_round_pdf(
    cards: Sequence[Card],
    options: PrintOptions,
    *,
    title: str,
    chunk: int | None = None,
    progress: Progress | None = None,
) -> bytes:
    """Round cards to one PDF, stamped (each kind of card laid out once); cards the stamper does
    not lay out (:func:`~scoring.printing.stamp.can_stamp`) go the way of :func:`render_cards`.

    With ``chunk``, the words of ``chunk`` cards are laid out at a time and ``progress(done,
    total)`` is called after each; the pages are the same as without.
    """
    if not can_stamp(cards):
        return render_cards(cards, options, title=title, chunk=chunk, progress=progress)
    stamper = Stamper(
        options, [_stylesheet(options.paper)], _local_only(), [_page_stylesheet(options.paper)]
    )
    pages = stamper.paginate(cards)
    return stamper.document(pages, title, chunk=chunk, progress=progress).write_pdf()


def card_ranges(cards: Sequence[Card], options: PrintOptions, size: int) -> list[range]:
    """The cards cut into runs of whole pages of about ``size`` cards, as index ranges: each run
    rendered apart by :func:`render_round_pdf` gives the pages the whole would have there."""
    if len(cards) <= size:
        return [range(len(cards))]
    if not can_stamp(cards):
        return [range(start, min(start + size, len(cards))) for start in range(0, len(cards), size)]
    stamper = Stamper(
        options, [_stylesheet(options.paper)], _local_only(), [_page_stylesheet(options.paper)]
    )
    ranges, start = [], 0
    for pages in page_chunks(stamper.paginate(cards), size):
        count = sum(len(page) for page in pages)
        ranges.append(range(start, start + count))
        start += count
    return ranges


def join_pdfs(parts: Sequence[bytes]) -> bytes:
    """PDFs joined into one, pages in order (the chunks of a batch laid out by several workers)."""
    if len(parts) == 1:
        return parts[0]
    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
