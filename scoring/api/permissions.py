"""Who may read which scorecards through the API.

Scorecards carry players' ID numbers and initials, so unlike standings they are not public: a
card is shown to the players on it, to the players they met in that stage (the opponent reads a
row to validate it) and to the tournament's officials. Writes are checked by the services
themselves (``scoring.permissions``).
"""

import itertools

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet

from scoring.models import CardRow, ScoreCard
from tournaments.models import Entry, Match, Stage, TournamentRole


def entries_of(user: AbstractBaseUser) -> QuerySet[Entry]:
    """The entries the user plays in, alone or as either partner of a team."""
    return Entry.objects.filter(
        Q(player__user=user) | Q(team__player_one__user=user) | Q(team__player_two__user=user)
    )


def visible_cards(user: AbstractBaseUser | AnonymousUser) -> QuerySet[ScoreCard]:
    """The cards the user may read (one query, whatever the number of cards)."""
    if not user.is_authenticated:
        return ScoreCard.objects.none()
    if user.is_superuser:
        return ScoreCard.objects.all()
    mine = entries_of(user)
    official = TournamentRole.objects.filter(
        user=user, tournament=OuterRef("stage__category__tournament")
    )
    # Any two sides of a match met (A, B, and C in a three-player game).
    together = Q()
    for own, other in itertools.permutations("abc", 2):
        together |= Q(**{f"entry_{own}": OuterRef("entry"), f"entry_{other}__in": mine})
    met = Match.objects.filter(stage=OuterRef("stage")).filter(together)
    return ScoreCard.objects.filter(Q(entry__in=mine) | Q(Exists(official)) | Q(Exists(met)))


def visible_rows(user: AbstractBaseUser | AnonymousUser) -> QuerySet[CardRow]:
    return CardRow.objects.filter(card__in=visible_cards(user))


def may_open_card(user: AbstractBaseUser, stage: Stage, entry: Entry) -> bool:
    """Whoever may fill the card's rows (its players, referees) or print the stage's cards
    (organizers, scoring table, head referee) may open a card."""
    probe = CardRow(card=ScoreCard(stage=stage, entry=entry))
    return user.has_perm("scoring.fill_row", probe) or user.has_perm("scoring.print_cards", stage)
