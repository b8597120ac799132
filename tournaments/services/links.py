"""Private links of entries: created on first need, renewed by the organizer, claimed by a player
who has an account."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Entry, EntryLink, Player
from tournaments.models.links import new_token


def links_of(entries: Iterable[Entry]) -> dict[int, EntryLink]:
    """The link of each entry by entry id, creating the missing ones in one insert (entries are
    made in many places: registration, imports, the demo; their link is made when first shown)."""
    entries = list(entries)
    found = {
        link.entry_id: link for link in EntryLink.objects.filter(entry__in=[e.pk for e in entries])
    }
    missing = [EntryLink(entry_id=e.pk) for e in entries if e.pk not in found]
    if missing:
        EntryLink.objects.bulk_create(missing, ignore_conflicts=True)
        found = {
            link.entry_id: link
            for link in EntryLink.objects.filter(entry__in=[e.pk for e in entries])
        }
    return found


def link_of(entry: Entry) -> EntryLink:
    return links_of([entry])[entry.pk]


@transaction.atomic
def renew_link(entry: Entry) -> EntryLink:
    """A new token for the entry: the old link stops working everywhere at once."""
    link = link_of(entry)
    link = EntryLink.objects.select_for_update().get(pk=link.pk)
    link.token = new_token()
    link.save(update_fields=["token", "renewed_at"])
    return link


def entry_of_token(tournament_id: int, token: str) -> Entry | None:
    """The entry of a current token in this tournament, or None (unknown, renewed, elsewhere)."""
    link = (
        EntryLink.objects.filter(token=token, entry__category__tournament_id=tournament_id)
        .select_related(
            "entry__category__tournament",
            "entry__player",
            "entry__team__player_one",
            "entry__team__player_two",
        )
        .first()
    )
    return link.entry if link else None


def players_of(entry: Entry) -> list[Player]:
    if entry.player_id:
        return [entry.player]
    return [entry.team.player_one, entry.team.player_two]


@transaction.atomic
def claim_entry(*, entry: Entry, user, player: Player | None = None) -> Player:
    """Link the logged-in ``user``'s account to the entry's player (for a team, to ``player``,
    one of the two partners, or the first partner without an account). Refuses if another
    account is already linked; linking the same account twice is harmless."""
    if not user.is_authenticated:
        raise ValidationError(_("Log in first: the link is made to the account you are logged in."))
    candidates = players_of(entry)
    if player is not None:
        if player.pk not in {p.pk for p in candidates}:
            raise ValidationError(
                _("%(player)s does not play in %(entry)s.") % {"player": player, "entry": entry}
            )
        candidates = [player]
    candidates = list(Player.objects.select_for_update().filter(pk__in=[p.pk for p in candidates]))
    for p in candidates:
        if p.user_id == user.pk:
            return p
    if any(
        p.user_id == user.pk
        for p in Player.objects.filter(tournament_id=candidates[0].tournament_id)
    ):
        raise ValidationError(
            _("Your account is already linked to another player of this tournament.")
        )
    free = [p for p in candidates if p.user_id is None]
    if not free:
        raise ValidationError(
            _("%(entry)s is already linked to another account; ask the organizer if this is wrong.")
            % {"entry": entry}
        )
    chosen = free[0]
    chosen.user = user
    chosen.save(update_fields=["user"])
    return chosen
