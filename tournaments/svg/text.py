"""How wide text is drawn in SVG, estimated without a font engine.

Text does not wrap in SVG, so every drawing (the bracket, the standings chart) cuts its labels
to the room they have, by one shared estimate of a character's width.
"""

from __future__ import annotations

#: A generous estimate of a character's width in ems (system sans-serif averages about 0.5),
#: so that a name cut to fit by it does fit.
CHAR_EM = 0.6


def text_width(text: str, font: float) -> float:
    """Estimated width of ``text`` at ``font`` units; generous, so what fits by it fits."""
    return len(text) * CHAR_EM * font


def fit(text: str, width: float, font: float) -> str:
    """``text`` cut with "…" to what fits in ``width`` units."""
    if text_width(text, font) <= width:
        return text
    keep = max(1, int(width / (CHAR_EM * font)) - 1)
    return text[:keep].rstrip() + "…"
