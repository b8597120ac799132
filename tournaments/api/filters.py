"""Query-string filters for the tournament endpoints (django-filter).

Tournaments are named by slug everywhere, as in the page URLs; a board by its number in the
hall, as players read it on the board itself.
"""

import django_filters
from django.db.models import Q, QuerySet

from tournaments.models import Category, Entry, Match, Player, Stage, Team


class CategoryFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")

    class Meta:
        model = Category
        fields = ["tournament", "kind", "discipline"]


class PlayerFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")
    club = django_filters.CharFilter(lookup_expr="iexact")
    country = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = Player
        fields = ["tournament", "club", "country", "number"]


class TeamFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")

    class Meta:
        model = Team
        fields = ["tournament"]


class EntryFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="category__tournament__slug")

    class Meta:
        model = Entry
        fields = ["tournament", "category", "player", "team", "checked_in", "withdrawn"]


class StageFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="category__tournament__slug")

    class Meta:
        model = Stage
        fields = ["tournament", "category", "kind"]


class MatchFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="stage__category__tournament__slug")
    category = django_filters.NumberFilter(field_name="stage__category")
    board = django_filters.NumberFilter(field_name="board__number", help_text="Board number.")
    entry = django_filters.NumberFilter(
        method="filter_entry", help_text="Entry on any side (A, B, or C in a three-player game)."
    )

    class Meta:
        model = Match
        fields = ["tournament", "category", "stage", "pool", "round_of_play", "board", "entry"]

    def filter_entry(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(Q(entry_a=value) | Q(entry_b=value) | Q(entry_c=value))
