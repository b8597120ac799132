"""QR codes of private links, as SVG (segno, pure Python): inline on pages, as a ``data:`` URL in
PDFs (the PDF renderer fetches nothing but inline data)."""

from __future__ import annotations

import segno


def _code(url: str) -> segno.QRCode:
    # Error level M survives a crease or a smudge on a card kept in a pocket all day.
    return segno.make(url, error="m", micro=False)


def qr_svg(url: str, *, scale: int = 4) -> str:
    """The QR code of ``url`` as an inline ``<svg>`` element."""
    return _code(url).svg_inline(scale=scale, title=url)


def qr_data_uri(url: str, *, scale: int = 4) -> str:
    """The QR code of ``url`` as a ``data:image/svg+xml`` URL for an ``<img>``."""
    return _code(url).svg_data_uri(scale=scale)
