"""Reads for the tournament pages."""

from django.db.models import Prefetch, QuerySet

from tournaments.models import Category, Stage, Tournament


def featured_tournament() -> Tournament | None:
    """The tournament the front page shows: the most recent one."""
    return Tournament.objects.order_by("-starts_on", "-id").first()


def tournament_categories(tournament: Tournament) -> QuerySet[Category]:
    """Categories with their stages in order (two queries)."""
    return tournament.categories.prefetch_related(
        Prefetch("stages", queryset=Stage.objects.order_by("order"))
    )
