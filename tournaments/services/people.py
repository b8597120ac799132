"""Players and doubles teams after registration: correcting them and removing them.

The rules a registration and a later change share (a free ID number, two different partners of
the same tournament) are written here once; ``registration`` registers and pairs with them, so
the organizer pages and the API refuse the same things in the same words.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from tournaments.models import Player, Team, Tournament
from tournaments.services.errors import StillInUse

#: What a change of a player may touch; the tournament they are registered at is fixed.
PLAYER_FIELDS = frozenset({"first_name", "last_name", "number", "club", "country", "user"})
TEXT_FIELDS = ("first_name", "last_name", "club", "country")


def lock_registrations(tournament: Tournament) -> None:
    """Serialise registrations of one tournament, so two desks cannot take the same ID."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()


def next_free_number(tournament: Tournament) -> int:
    """The ID number to suggest for the next player: one above the highest in use."""
    highest = tournament.players.aggregate(highest=Max("number"))["highest"]
    return (highest or 0) + 1


#: Scorecard IDs: positive, and small enough for every database's integer column.
MAX_PLAYER_NUMBER = 2_147_483_647


def check_number_range(number: int) -> None:
    """An ID number is printed on scorecards and read back from them: 0 or a negative number
    would be taken for a blank box, so the range is said here for the pages and the API alike."""
    if not 1 <= number <= MAX_PLAYER_NUMBER:
        raise ValidationError(
            {
                "number": _("A player ID number must be between 1 and %(max)s.")
                % {"max": MAX_PLAYER_NUMBER}
            }
        )


def check_number_free(tournament: Tournament, number: int, *, player: Player | None = None) -> None:
    """Refuse an ID number another player of the tournament holds, naming them and the next
    free number (the ID is printed on scorecards and validates the opponent's row)."""
    check_number_range(number)
    holders = tournament.players.filter(number=number)
    if player is not None:
        holders = holders.exclude(pk=player.pk)
    holder = holders.first()
    if holder is not None:
        raise ValidationError(
            {
                "number": _(
                    "ID %(number)s is already registered to %(name)s; the next free ID is %(next)s."
                )
                % {
                    "number": number,
                    "name": holder.full_name,
                    "next": next_free_number(tournament),
                }
            }
        )


@transaction.atomic
def update_player(*, player: Player, **fields: Any) -> Player:
    """Correct a player's name, ID number, club or country, or unlink their account. Linking
    one is the account owner's act (their private link, or an invitation they accept), never
    an organizer's: ``user`` may only be None here."""
    unknown = set(fields) - PLAYER_FIELDS
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(
            f"update_player() cannot change {names}"  # untranslated: a programming error
        )
    if fields.get("user") is not None:
        raise TypeError(
            "update_player() only unlinks an account (user=None); "  # untranslated: programming
            "an account is linked by its owner accepting an invitation"
        )
    for name in TEXT_FIELDS:
        if isinstance(fields.get(name), str):
            fields[name] = fields[name].strip()
    number = fields.get("number", player.number)
    if number != player.number:
        lock_registrations(player.tournament)
        check_number_free(player.tournament, number, player=player)
    for name, value in fields.items():
        setattr(player, name, value)
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def delete_player(*, player: Player) -> None:
    """Remove a player registered by mistake; one who is entered anywhere stays until those
    entries (or teams) are removed, so that no result loses its player."""
    categories = sorted(player.entries.values_list("category__name", flat=True))
    if categories:
        raise StillInUse(
            _(
                "%(player)s is entered in %(categories)s: delete those entries first (or "
                "withdraw them, which keeps the player)."
            )
            % {"player": player, "categories": ", ".join(categories)}
        )
    team = teams_of(player).first()
    if team is not None:
        raise StillInUse(
            _("%(player)s plays in the team %(team)s: delete that team first.")
            % {"player": player, "team": team}
        )
    player.delete()


# Doubles teams ----------------------------------------------------------------------------------


def teams_of(player: Player):
    return Team.objects.filter(Q(player_one=player) | Q(player_two=player)).select_related(
        "player_one", "player_two"
    )


def check_partners(tournament_id: int, player_one: Player, player_two: Player) -> None:
    """Two different players, both registered at the tournament of the team."""
    if player_one.pk == player_two.pk:
        raise ValidationError({"player_two": _("A team needs two different players.")})
    for field, player in (("player_one", player_one), ("player_two", player_two)):
        if player.tournament_id != tournament_id:
            raise ValidationError(
                {field: _("%(player)s is not registered at this tournament.") % {"player": player}}
            )


def partnership(tournament_id: int, player_one: Player, player_two: Player) -> Team | None:
    """The team these two already form at the tournament, in either order, if any."""
    pair = [player_one.pk, player_two.pk]
    return (
        Team.objects.filter(tournament_id=tournament_id, player_one__in=pair, player_two__in=pair)
        .select_related("player_one", "player_two")
        .first()
    )


@transaction.atomic
def create_team(
    *, tournament: Tournament, player_one: Player, player_two: Player, name: str = ""
) -> Team:
    """Pair two registered players; the same two are one team across doubles categories, so a
    partnership that exists already is refused (enter that team instead)."""
    check_partners(tournament.pk, player_one, player_two)
    existing = partnership(tournament.pk, player_one, player_two)
    if existing is not None:
        raise ValidationError(
            {
                "player_two": _("%(one)s and %(two)s already form the team %(team)s.")
                % {"one": player_one, "two": player_two, "team": existing}
            }
        )
    team = Team(
        tournament=tournament, player_one=player_one, player_two=player_two, name=name.strip()
    )
    team.full_clean()
    team.save()
    return team


@transaction.atomic
def update_team(*, team: Team, **fields: Any) -> Team:
    """Rename a team, or change its partners while it is entered nowhere (once entered, its
    matches and cards name these two players: pair a new team instead)."""
    unknown = set(fields) - {"name", "player_one", "player_two"}
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(
            f"update_team() cannot change {names}"  # untranslated: a programming error
        )
    one = fields.get("player_one", team.player_one)
    two = fields.get("player_two", team.player_two)
    changed = [
        field
        for field, player in (("player_one", one), ("player_two", two))
        if player.pk != getattr(team, f"{field}_id")
    ]
    if changed:
        categories = sorted(team.entries.values_list("category__name", flat=True))
        if categories:
            raise ValidationError(
                {
                    changed[0]: _(
                        "%(team)s is entered in %(categories)s: its players cannot change; pair a "
                        "new team and enter it instead."
                    )
                    % {"team": team, "categories": ", ".join(categories)}
                }
            )
        check_partners(team.tournament_id, one, two)
        existing = partnership(team.tournament_id, one, two)
        if existing is not None and existing.pk != team.pk:
            raise ValidationError(
                {
                    changed[0]: _("%(one)s and %(two)s already form the team %(team)s.")
                    % {"one": one, "two": two, "team": existing}
                }
            )
    team.player_one, team.player_two = one, two
    if "name" in fields:
        team.name = (fields["name"] or "").strip()
    team.full_clean()
    team.save()
    return team


@transaction.atomic
def delete_team(*, team: Team) -> None:
    """Remove a team entered nowhere."""
    categories = sorted(team.entries.values_list("category__name", flat=True))
    if categories:
        raise StillInUse(
            _(
                "%(team)s is entered in %(categories)s: delete those entries first (or "
                "withdraw them, which keeps the team)."
            )
            % {"team": team, "categories": ", ".join(categories)}
        )
    team.delete()
