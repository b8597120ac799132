"""Pictures drawn as SVG from plain data: no Django, no database, so they are easy to test and
can be drawn anywhere (a page, a printed sheet, a Celery worker)."""

from .bracket import BracketMatch, BracketRound, BracketSide, bracket_svg

__all__ = ["BracketMatch", "BracketRound", "BracketSide", "bracket_svg"]
