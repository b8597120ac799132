"""Entries as one write: enter a player or a team, change an entry's seed or check-in, remove an
entry made by mistake.

Entering goes to ``registration.enter_player`` or ``registration.enter_team``, check-in to
``registration.set_checked_in``: the functions the organizer pages call, so a withdrawn entry
cannot be checked in on any path, with the same words. Withdrawing and reinstating are rulings
(``scoring.rulings.actions``: who may, the walkovers they make, the matches those open), never
a field changed here.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Category, Entry, Player, Pool, Team
from tournaments.services import registration
from tournaments.services.errors import StillInUse

#: What a change of an entry takes, named once: the step's inputs
#: (``tournaments.entry_actions.edit_entry``) and the API serializer's fields, besides the
#: category it belongs to. Who plays it is repeated, never changed (``update_entry``).
ENTRY_FIELDS = ("player", "team", "seed", "checked_in")


def check_one_of(player: Player | None, team: Team | None) -> None:
    """An entry is one player or one team, never both nor neither."""
    if (player is None) == (team is None):
        raise ValidationError(_("An entry is either one player or one team."))


@transaction.atomic
def enter(*, category: Category, player: Player | None = None, team: Team | None = None) -> Entry:
    """Enter a registered player (singles) or a paired team (doubles) into ``category``."""
    check_one_of(player, team)
    if player is not None:
        return registration.enter_player(player=player, category=category)
    return registration.enter_team(category=category, team=team)


@transaction.atomic
def update_entry(*, entry: Entry, **fields: Any) -> Entry:
    """Change an entry's seed, check it in or out.

    Who plays an entry cannot change: its matches and cards name them (withdraw the entry and
    enter the other player or team instead)."""
    unknown = set(fields) - set(ENTRY_FIELDS)
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(
            f"update_entry() cannot change {names}"  # untranslated: a programming error
        )
    for field in ("player", "team"):
        if field in fields and getattr(fields[field], "pk", None) != getattr(entry, f"{field}_id"):
            raise ValidationError(
                {
                    field: _(
                        "Who plays %(entry)s cannot change: withdraw this entry and enter the "
                        "other one instead."
                    )
                    % {"entry": entry}
                }
            )
    if "seed" in fields and fields["seed"] != entry.seed:
        entry.seed = fields["seed"]
        entry.save(update_fields=["seed"])
    if "checked_in" in fields and fields["checked_in"] != entry.checked_in:
        registration.set_checked_in(entry=entry, checked_in=fields["checked_in"])
    return entry


@transaction.atomic
def delete_entry(*, entry: Entry) -> None:
    """Remove an entry made by mistake. One that is drawn stays: withdraw it instead, which
    keeps its games in the results and leaves it out of later draws."""
    if entry.matches_as_a.exists() or entry.matches_as_b.exists():
        raise StillInUse(
            _(
                "%(entry)s has matches in %(category)s: withdraw the entry instead; its "
                "games stay in the results."
            )
            % {"entry": entry, "category": entry.category.name}
        )
    pool = Pool.objects.filter(entries=entry).select_related("stage").first()
    if pool is not None:
        raise StillInUse(
            _("%(entry)s is seeded into %(stage)s: withdraw the entry instead.")
            % {"entry": entry, "stage": pool.stage.name}
        )
    entry.delete()
