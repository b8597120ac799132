"""Query-string filters for scorecards and their rows (django-filter)."""

import django_filters

from scoring.models import CardRow, ScoreCard


class ScoreCardFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="stage__category__tournament__slug")

    class Meta:
        model = ScoreCard
        fields = ["tournament", "stage", "entry"]


class CardRowFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="card__stage__category__tournament__slug")
    stage = django_filters.NumberFilter(field_name="card__stage")
    entry = django_filters.NumberFilter(field_name="card__entry")
    match = django_filters.NumberFilter(field_name="game__match")

    class Meta:
        model = CardRow
        fields = ["tournament", "stage", "card", "entry", "match", "game", "status"]
