"""Setting up a tournament: whoever creates one runs it, so they become its first organizer."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction

from tournaments.models import Tournament, TournamentRole


@transaction.atomic
def create_tournament(*, name: str, slug: str, user: AbstractBaseUser, **fields: Any) -> Tournament:
    """Create a tournament and make ``user`` its organizer, both or neither.

    Without the organizer role nobody could add categories, players or stages to the new
    tournament (every change checks ``tournaments.manage_tournament``), so the two writes go
    together. Raises ``ValidationError`` naming the field at fault (a slug already taken, an end
    date before the start) before anything is written.
    """
    if not user.is_authenticated:
        raise PermissionDenied("Sign in to create a tournament: its creator becomes its organizer.")
    tournament = Tournament(name=name, slug=slug, **fields)
    tournament.full_clean()
    tournament.save()
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER
    )
    return tournament
