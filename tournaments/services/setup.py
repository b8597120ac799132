"""Setting up a tournament: whoever creates one runs it, so they become its first organizer; the
organizers may change its details later, but not its web address; its organizer may delete it.

The checks here are the only ones: the organizer pages and the API both call these functions,
so a taken web address or a last day before the first reads the same on either path.
"""

import datetime
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import Truncator
from django.utils.translation import gettext as _

from tournaments.actions import Forbidden, Kind, Refused
from tournaments.models import Entry, Stage, Team, Tournament, TournamentRole
from tournaments.permissions import ADD_TOURNAMENT, ADD_TOURNAMENT_REFUSAL
from tournaments.selectors import DeletionSummary, deletion_summary

#: A tournament's details, in the order the page shows them: the inputs of creating it and of
#: changing it, named once here. The steps (``tournaments.setup_actions``) take these, and the
#: page's form and the API's serializer are made from this list (and checked against the steps).
TOURNAMENT_FIELDS = (
    "name",
    "slug",
    "venue",
    "starts_on",
    "ends_on",
    "game_minutes",
    "count_validated_cards",
    "paper_rows_need_confirmation",
    "cards_in_order",
    "published",
)
#: What an organizer may change after creating the tournament: all but the slug, its address
#: (a change may repeat the slug it has; ``update_tournament``).
CHANGEABLE = frozenset(TOURNAMENT_FIELDS) - {"slug"}


def _check_slug_free(slug: str) -> None:
    if slug and Tournament.objects.filter(slug=slug).exists():
        raise ValidationError(
            {"slug": _("The web address %(slug)s is taken; choose another.") % {"slug": repr(slug)}}
        )


def _check_dates(starts: datetime.date | None, ends: datetime.date | None) -> None:
    if starts and ends and ends < starts:
        raise ValidationError({"ends_on": _("The last day cannot be before the first.")})


def who_creates(user: AbstractBaseUser, permission: str = ADD_TOURNAMENT, obj: Any = None) -> str:
    """Why ``user`` may not create a tournament: a visitor signs in first (the creator becomes
    its organizer); a login without the site permission is told whom to ask. The words of the
    step's refusal (``setup_actions.create_tournament``) and of the service's."""
    if not user.is_authenticated:
        return _("Sign in to create a tournament: its creator becomes its organizer.")
    return str(ADD_TOURNAMENT_REFUSAL)


@transaction.atomic
def create_tournament(*, name: str, slug: str, user: AbstractBaseUser, **fields: Any) -> Tournament:
    """Create a tournament and make ``user`` its organizer, both or neither.

    Without the organizer role nobody could add categories, players or stages to the new
    tournament (every change checks ``tournaments.manage_tournament``), so the two writes go
    together. Only users with the site permission ``tournaments.add_tournament`` may create one
    (``Forbidden`` otherwise, saying whom to ask: ``who_creates``). Raises ``ValidationError``
    naming the field at fault (a slug already taken, an end date before the start) before
    anything is written.
    """
    if not user.is_authenticated or not user.has_perm(ADD_TOURNAMENT):
        raise Forbidden(who_creates(user))
    _check_slug_free(slug)
    _check_dates(fields.get("starts_on"), fields.get("ends_on"))
    tournament = Tournament(name=name, slug=slug, **fields)
    tournament.full_clean()
    tournament.save()
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    return tournament


@transaction.atomic
def update_tournament(*, tournament: Tournament, **fields: Any) -> Tournament:
    """Change the tournament's details: name, venue, dates, time limit, which cards count.

    The web address (``slug``) is printed on scorecards and shared as a link, so it cannot
    change; passing the current one is accepted, so a full update may repeat it.
    """
    slug = fields.pop("slug", tournament.slug)
    if slug != tournament.slug:
        raise ValidationError(
            {
                "slug": _(
                    "The web address is the tournament's link on printed cards and shared "
                    "pages; it cannot change."
                )
            }
        )
    unknown = set(fields) - CHANGEABLE
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(
            f"update_tournament() cannot change {names}"  # untranslated: a programming error
        )
    _check_dates(
        fields.get("starts_on", tournament.starts_on), fields.get("ends_on", tournament.ends_on)
    )
    for name, value in fields.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save()
    return tournament


#: What else must hold before a tournament is deleted, contributed by the apps above this one
#: (the simulation's work under way on it), each ``check(tournament) -> words or None``: this app
#: cannot see their models, and a deletion under a running task would pull the rows from under
#: its worker.
DELETION_CHECKS: list[Callable[[Tournament], str | None]] = []


def nothing_running(tournament: Tournament) -> Refused | None:
    """The first refusal of :data:`DELETION_CHECKS` (a conflict: wait, or stop the work
    first), or None."""
    for check in DELETION_CHECKS:
        words = check(tournament)
        if words:
            return Refused(str(words), kind=Kind.CONFLICT)
    return None


def _squeezed(text: str) -> str:
    return " ".join((text or "").split()).casefold()


def confirmation_refusal(tournament: Tournament, typed: str) -> Refused | None:
    """Deleting a tournament is asked twice: the organizer types its web address or its name
    again (letter case and spaces aside), so that a click on the wrong tournament's page deletes
    nothing. The refusal names the box at fault (``confirm``); None once it matches."""
    if _squeezed(typed) in {_squeezed(tournament.slug), _squeezed(tournament.name)}:
        return None
    named = {"slug": tournament.slug, "typed": Truncator(" ".join(typed.split())).chars(60)}
    if not named["typed"]:
        words = _(
            "Type the tournament's web address (%(slug)s) or its name to confirm; nothing was "
            "deleted."
        )
    else:
        words = _(
            "“%(typed)s” is neither the web address (%(slug)s) nor the name of this tournament; "
            "nothing was deleted."
        )
    return Refused(words % named, field="confirm")


@transaction.atomic
def delete_tournament(
    *, tournament: Tournament, confirm: str, actor: AbstractBaseUser
) -> DeletionSummary:
    """Delete the tournament and everything in it, all or nothing, once its web address or its
    name is typed again (``confirmation_refusal``); returns what went with it.

    The deletion is kept in the tournament's own history (django-simple-history keeps history
    rows when their object is gone): its last row names who deleted it, when, and how many
    players, matches and cards went with it; the players, entries, cards and the rest keep
    their own deletion rows. The staff log (``RoleChange``) goes with the tournament.

    Django would not delete the tournament in one go, since a match protects its entries, a team
    its players and a shoot-out score its entry: the stages go first (with their matches, games,
    cards and shoot-outs), then the entries, the teams, and the tournament with the rest.
    """
    refusal = nothing_running(tournament) or confirmation_refusal(tournament, confirm)
    if refusal is not None:
        raise refusal
    summary = deletion_summary(tournament)
    Stage.objects.filter(category__tournament=tournament).delete()
    Entry.objects.filter(category__tournament=tournament).delete()
    Team.objects.filter(tournament=tournament).delete()
    reason = _(
        "Deleted with its players (%(players)s), matches (%(matches)s) and cards (%(cards)s)"
    ) % {"players": summary.players, "matches": summary.matches, "cards": summary.cards}
    tournament._history_user = actor
    tournament._change_reason = Truncator(reason).chars(100)  # the history's column holds 100
    tournament.delete()
    return summary
