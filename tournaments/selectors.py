"""Reads for the tournament pages."""

from django.db.models import F, Prefetch, QuerySet

from tournaments.models import Category, Stage, Tournament


def featured_tournament() -> Tournament | None:
    """The tournament the front page shows: the most recent real one (dry-run copies live on
    their own pages). Tournaments without a date come last."""
    return (
        Tournament.objects.filter(dry_run_copy__isnull=True)
        .order_by(F("starts_on").desc(nulls_last=True), "-id")
        .first()
    )


def tournament_categories(tournament: Tournament) -> QuerySet[Category]:
    """Categories with their stages in order (two queries)."""
    return tournament.categories.prefetch_related(
        Prefetch("stages", queryset=Stage.objects.order_by("order"))
    )
