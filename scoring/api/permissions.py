"""Who may read which scorecards through the API.

Scorecards carry players' ID numbers and initials, so unlike standings they are not public: a
card is shown to the players on it, to the players they met in that stage (the opponent reads a
row to validate it) and to the tournament's officials. Writes are checked by the services
themselves (``scoring.permissions``).
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet

from scoring.models import CardRow, ScoreCard
from tournaments.models import Entry, Match, Stage, TournamentRole, played_by


def entries_of(user: AbstractBaseUser) -> QuerySet[Entry]:
    """The entries the user plays in, alone or as either partner of a team."""
    return Entry.objects.filter(played_by(user))


def visible_cards(user: AbstractBaseUser | AnonymousUser) -> QuerySet[ScoreCard]:
    """The cards the user may read.

    The user's own entries and the tournaments where they hold a role are read first (two small
    queries), so that the cards' query filters on plain ids: built from subqueries instead, it
    cost more CPU to compile than to run, on every card request of the end of a round.
    """
    if not user.is_authenticated:
        return ScoreCard.objects.none()
    if user.is_superuser:
        return ScoreCard.objects.all()
    mine = list(entries_of(user).values_list("pk", flat=True))
    officiating = list(
        TournamentRole.objects.filter(user=user).values_list("tournament_id", flat=True).distinct()
    )
    visible = Q(entry_id__in=mine) | Q(stage__category__tournament_id__in=officiating)
    if mine:
        # The cards of everyone the user met: a match of the card's stage with both in it.
        met = (
            Match.objects.filter(stage=OuterRef("stage"))
            .filter(Q(entry_a_id__in=mine) | Q(entry_b_id__in=mine) | Q(entry_c_id__in=mine))
            .filter(
                Q(entry_a=OuterRef("entry"))
                | Q(entry_b=OuterRef("entry"))
                | Q(entry_c=OuterRef("entry"))
            )
        )
        visible |= Q(Exists(met))
    return ScoreCard.objects.filter(visible)


def visible_rows(user: AbstractBaseUser | AnonymousUser) -> QuerySet[CardRow]:
    return CardRow.objects.filter(card__in=visible_cards(user))


def may_open_card(user: AbstractBaseUser, stage: Stage, entry: Entry) -> bool:
    """Whoever may fill the card's rows (its players, referees) or print the stage's cards
    (organizers, scoring table, head referee) may open a card."""
    probe = CardRow(card=ScoreCard(stage=stage, entry=entry))
    return user.has_perm("scoring.fill_row", probe) or user.has_perm("scoring.print_cards", stage)
