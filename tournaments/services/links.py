"""Private links of entries: created on first need, renewed by the organizer, claimed by a player
who has an account."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Entry, EntryLink, Player, people_paths
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
    """A new token for the entry: the old link stops working everywhere at once, and every
    account that said "this is me" with it is unlinked from the entry's players (a link that
    leaked let whoever held it claim the entry; renewing must end that too). Accounts linked
    another way (by the organizer's invitation, accepted by their owner) stay linked."""
    link = link_of(entry)
    link = EntryLink.objects.select_for_update().get(pk=link.pk)
    old = link.token
    link.token = new_token()
    link.save(update_fields=["token", "renewed_at"])
    for player in Player.objects.filter(pk__in=[p.pk for p in entry.people], claimed_with=old):
        # One save per player, so that the history says who lost the account and why.
        player.user = None
        player.claimed_with = ""
        player._change_reason = _("private link renewed: its claim undone")
        player.save(update_fields=["user", "claimed_with"])
    return link


def entry_of_token(tournament_id: int, token: str) -> Entry | None:
    """The entry of a current token in this tournament, or None (unknown, renewed, elsewhere)."""
    link = (
        EntryLink.objects.filter(token=token, entry__category__tournament_id=tournament_id)
        .select_related("entry__category__tournament", *people_paths("entry"))
        .first()
    )
    return link.entry if link else None


@transaction.atomic
def claim_entry(*, entry: Entry, user, token: str, player: Player | None = None) -> Player:
    """Link the logged-in ``user``'s account to the entry's player (for a team, to ``player``,
    one of the two partners, or the first partner without an account), with the entry's current
    private link ``token`` as the proof: the claim lasts as long as that link (``renew_link``
    undoes it). Refuses if another account is already linked; linking the same account twice
    is harmless."""
    current = link_of(entry).token
    if not token or token != current:
        raise ValidationError(
            _("This private link is no longer current: ask the organizer for your new link.")
        )
    if not user.is_authenticated:
        raise ValidationError(_("Log in first: the link is made to the account you are logged in."))
    candidates = list(entry.people)
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
    chosen.claimed_with = token
    chosen.save(update_fields=["user", "claimed_with"])
    return chosen
