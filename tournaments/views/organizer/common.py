"""What every organizer page shares: the permission check, a service's errors on a form, and
the reads several pages show (the entries list, the check-in counts)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.forms import Form
from django.utils.translation import gettext_lazy as _

from tournaments.models import ENTRY_PEOPLE, Entry, Match, Tournament
from tournaments.views.access import MANAGE, tournament_page

TEMPLATES = "tournaments/organizer"

#: Every organizer page needs ``tournaments.manage_tournament`` on its tournament.
organizer_page = tournament_page(
    MANAGE,
    _(
        "Organizers only: these pages set up and run the tournament, and only its organizers "
        "open them."
    ),
)


def form_errors_from(form: Form, exc: ValidationError) -> None:
    """Put a service's error next to the field it names (a step's ``Refused`` names it as its
    ``field``), or above the form."""
    field = getattr(exc, "field", None)
    if field in form.fields:
        form.add_error(field, exc)
        return
    if hasattr(exc, "error_dict"):
        for name, errors in exc.message_dict.items():
            form.add_error(name if name in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def tournament_entries(tournament: Tournament) -> QuerySet[Entry]:
    """Entries with everything their names need (one query), roughly by last name; a page
    lists them in the order of :func:`tournaments.names.by_name`, which files accented names
    where a reader looks for them.

    ``drawn``: whether the entry is in a drawn match of any stage. Before that, a withdrawal
    turns nothing into a walkover, so the rows offer no "walkovers" page."""
    drawn = Match.objects.filter(
        Q(entry_a=OuterRef("pk")) | Q(entry_b=OuterRef("pk")) | Q(entry_c=OuterRef("pk"))
    )
    return (
        Entry.objects.filter(category__tournament=tournament)
        .annotate(drawn=Exists(drawn))
        # the tournament too: each row asks a step, whose permission is the tournament's
        .select_related("category__tournament", *ENTRY_PEOPLE)
        .order_by(
            Coalesce("player__last_name", "team__player_one__last_name"),
            Coalesce("player__first_name", "team__player_one__first_name"),
            "category__name",
            "id",
        )
    )


def checkin_summary(tournament: Tournament) -> dict[str, int]:
    return Entry.objects.filter(category__tournament=tournament).aggregate(
        total=Count("id", filter=Q(withdrawn=False)),
        checked_in=Count("id", filter=Q(withdrawn=False, checked_in=True)),
        withdrawn=Count("id", filter=Q(withdrawn=True)),
    )
