"""HTML to PDF with WeasyPrint.

Cards are rendered as one HTML document holding many cards, never one WeasyPrint call per card:
layout is the expensive part and a call has a fixed cost (stylesheet cascade, fonts, PDF
writing). For a progress bar, a batch may lay out its cards in a few large chunks and join the
pages into one PDF (WeasyPrint's documented ``Document.copy`` of pages from several documents).

Fonts come from the system (fontconfig; DejaVu on Debian): the print stylesheet names no web font
and the URL fetcher refuses anything that is not a local file or inline data, so rendering
never reaches the network.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

from scoring.printing.cards import Card
from scoring.printing.options import PrintOptions

Progress = Callable[[int, int], None]


def _local_only() -> URLFetcher:
    """WeasyPrint's fetcher limited to inline ``data:`` URLs: no web fonts, no images from the
    internet or the server's disk, whatever a name typed into the app contains."""
    return URLFetcher(allowed_protocols={"data"}, timeout=1)


@lru_cache(maxsize=8)
def _stylesheet(paper: str) -> CSS:
    """The print stylesheet for one paper size, parsed once per process."""
    css = render_to_string("pdf/print.css", {"page_size": PrintOptions(paper).page_size})
    return CSS(string=css, url_fetcher=_local_only())


def _html(template: str, context: Mapping[str, Any], options: PrintOptions) -> HTML:
    markup = render_to_string(template, {**context, "options": options})
    return HTML(string=markup, url_fetcher=_local_only())


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
