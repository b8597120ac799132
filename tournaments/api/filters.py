"""Query-string filters for the tournament endpoints (django-filter).

Tournaments are named by slug everywhere, as in the page URLs; a board by its number in the
hall, as players read it on the board itself.
"""

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from tournaments.models import Category, Entry, Match, Player, Stage, Team

#: What every database's integer column holds (64-bit signed); a number past it would reach the
#: query and end as a 500 (an ``OverflowError`` on SQLite, ``bigint out of range`` on PostgreSQL).
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


def _out_of_range() -> str:
    return gettext("Must be a whole number between %(low)s and %(high)s.") % {
        "low": INT_MIN,
        "high": INT_MAX,
    }


#: Built when shown, in the language of the request.
OUT_OF_RANGE = lazy(_out_of_range, str)()


class BoundedIntegerField(forms.IntegerField):
    """A query-string integer that the database can take."""

    default_error_messages = {
        "invalid": OUT_OF_RANGE,
        "min_value": OUT_OF_RANGE,
        "max_value": OUT_OF_RANGE,
    }

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("min_value", INT_MIN)
        kwargs.setdefault("max_value", INT_MAX)
        super().__init__(**kwargs)


class IntegerFilter(django_filters.NumberFilter):
    """``NumberFilter`` for ids and counts: whole numbers in the 64-bit range, refused with a
    message otherwise (django-filter's own takes any decimal, however large)."""

    field_class = BoundedIntegerField


class BoundedFilterSet(django_filters.FilterSet):
    """Every generated number filter of the API's filter sets is an ``IntegerFilter``."""

    @classmethod
    def filter_for_lookup(cls, field, lookup_type):
        filter_class, params = super().filter_for_lookup(field, lookup_type)
        if filter_class is django_filters.NumberFilter:
            filter_class = IntegerFilter
        return filter_class, params


class CategoryFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")

    class Meta:
        model = Category
        fields = ["tournament", "kind", "discipline"]


class PlayerFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")
    club = django_filters.CharFilter(lookup_expr="iexact")
    country = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = Player
        fields = ["tournament", "club", "country", "number"]


class TeamFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="tournament__slug")

    class Meta:
        model = Team
        fields = ["tournament"]


class EntryFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="category__tournament__slug")

    class Meta:
        model = Entry
        fields = ["tournament", "category", "player", "team", "checked_in", "withdrawn"]


class StageFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="category__tournament__slug")

    class Meta:
        model = Stage
        fields = ["tournament", "category", "kind"]


class MatchFilter(BoundedFilterSet):
    tournament = django_filters.CharFilter(field_name="stage__category__tournament__slug")
    category = IntegerFilter(field_name="stage__category")
    board = IntegerFilter(field_name="board__number", help_text=gettext_lazy("Board number."))
    entry = IntegerFilter(
        method="filter_entry",
        help_text=gettext_lazy("Entry on any side (A, B, or C in a three-player game)."),
    )

    class Meta:
        model = Match
        fields = ["tournament", "category", "stage", "pool", "round_of_play", "board", "entry"]

    def filter_entry(self, queryset: QuerySet[Match], name: str, value: int) -> QuerySet[Match]:
        return queryset.filter(Q(entry_a=value) | Q(entry_b=value) | Q(entry_c=value))
