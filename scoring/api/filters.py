"""Query-string filters for scorecards and their rows (django-filter)."""

import django_filters

from scoring.models import CardRow, ScoreCard
from tournaments.api.filters import BoundedFilterSet, IntegerFilter


class ScoreCardFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="stage__category__tournament__slug")

    class Meta:
        model = ScoreCard
        fields = ["tournament", "stage", "entry"]


class CardRowFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="card__stage__category__tournament__slug")
    stage = IntegerFilter(field_name="card__stage")
    entry = IntegerFilter(field_name="card__entry")
    match = IntegerFilter(field_name="game__match")

    class Meta:
        model = CardRow
        fields = ["tournament", "stage", "card", "entry", "match", "game", "status"]
