"""The rows a page or a client has seen, as they send them with a verify, a void or a ruling."""

from collections.abc import Iterable

from scoring.models import CardRow


def _fresh(rows: Iterable[CardRow]) -> list[CardRow]:
    return list(CardRow.objects.filter(pk__in=[r.pk for r in rows]).order_by("pk"))


def seen_fields(rows: Iterable[CardRow]) -> dict[str, int]:
    """The hidden ``seen-<row id>`` fields of the table and dispute pages, for ``rows`` as they
    are stored now."""
    return {f"seen-{r.pk}": r.version for r in _fresh(rows)}


def seen_versions(rows: Iterable[CardRow]) -> list[dict[str, int]]:
    """The API's ``versions`` list for ``rows`` as they are stored now."""
    return [{"row": r.pk, "version": r.version} for r in _fresh(rows)]


def waiting(card) -> list[CardRow]:
    """The card's validated rows: what the table sees waiting for verification."""
    return list(card.rows.filter(status=CardRow.Status.VALIDATED))


def disputed(game) -> list[CardRow]:
    """The game's disputed rows: what the head referee sees side by side."""
    return list(CardRow.objects.filter(game=game, status=CardRow.Status.DISPUTED))
