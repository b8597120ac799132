from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_lazy
from simple_history.models import HistoricalRecords


class Player(models.Model):
    """A person registered at a tournament, with the ID number printed on their scorecard."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="players"
    )
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    number = models.PositiveIntegerField(
        help_text=gettext_lazy("Player ID number as on the scorecard.")
    )
    club = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=60, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    #: The human behind this player in the site-wide registry (empty until matched).
    person = models.ForeignKey(
        "tournaments.Person",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="players",
    )
    #: The private-link token with which ``user`` said "this is me" (empty when the account was
    #: linked another way): renewing that link undoes the claim, as it ends the link's sessions.
    claimed_with = models.CharField(max_length=64, blank=True, default="")

    #: Who changed what and when, before and after (the organizer's audit page).
    history = HistoricalRecords()

    class Meta:
        ordering = ["last_name", "first_name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="player_unique_number"),
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Team(models.Model):
    """Two partners of a doubles category: they sit opposite and share a colour (NCA 5a)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField(max_length=200, blank=True)
    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")

    #: Who changed what and when, before and after (the organizer's audit page).
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(player_one=models.F("player_two")),
                name="team_two_different_players",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.player_one.full_name} / {self.player_two.full_name}"

    def clean(self) -> None:
        if self.player_one_id and self.player_one_id == self.player_two_id:
            raise ValidationError(gettext("A team needs two different players."))


#: The relations through which an entry's people are read (its player, or its team's two): what
#: a query selects with an entry so that its name, ID and people need no further query.
ENTRY_PEOPLE = ("player", "team__player_one", "team__player_two")


def people_paths(*entries: str) -> tuple[str, ...]:
    """:data:`ENTRY_PEOPLE` under each relation that leads to an entry, for ``select_related``:
    ``people_paths("entry_a", "entry_b")`` reads both sides' people with a match; with no
    relation, the entry's own."""
    if not entries:
        return ENTRY_PEOPLE
    return tuple(f"{entry}__{path}" for entry in entries for path in ENTRY_PEOPLE)


def played_by(user, entry: str = "") -> models.Q:
    """The condition that ``user``'s account plays for an entry (as its player or either
    partner), on the entry itself or under the relation ``entry`` (``"card__entry"``)."""
    prefix = f"{entry}__" if entry else ""
    return (
        models.Q(**{f"{prefix}player__user": user})
        | models.Q(**{f"{prefix}team__player_one__user": user})
        | models.Q(**{f"{prefix}team__player_two__user": user})
    )


class Entry(models.Model):
    """Who plays one side in a category: a player (singles) or a team (doubles)."""

    category = models.ForeignKey(
        "tournaments.Category", on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    seed = models.PositiveIntegerField(null=True, blank=True)
    checked_in = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)

    class WithdrawalKind(models.TextChoices):
        """How an entry left: of its own accord, or disqualified (WCC: "possible
        disqualification from the tournament")."""

        WITHDRAWAL = "withdrawal", gettext_lazy("Withdrawal")
        DISQUALIFICATION = "disqualification", gettext_lazy("Disqualification")

    withdrawal_kind = models.CharField(
        max_length=20, choices=WithdrawalKind.choices, blank=True, default=""
    )
    withdrawal_reason = models.TextField(blank=True, default="")

    #: Who changed what and when, before and after (the organizer's audit page).
    history = HistoricalRecords()

    class Meta:
        verbose_name_plural = gettext_lazy("entries")
        ordering = ["category", "seed", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(withdrawn=True) | models.Q(withdrawal_kind=""),
                name="entry_withdrawal_kind_only_when_withdrawn",
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False, team__isnull=True)
                | models.Q(player__isnull=True, team__isnull=False),
                name="entry_player_xor_team",
            ),
            models.UniqueConstraint(
                fields=["category", "player"], name="entry_unique_player_per_category"
            ),
            models.UniqueConstraint(
                fields=["category", "team"], name="entry_unique_team_per_category"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return str(self.player if self.player_id else self.team)

    @property
    def people(self) -> tuple[Player, ...]:
        """The players of the entry: its player, or both partners of its team (the one home of
        "an entry's people"; select :data:`ENTRY_PEOPLE` to read them without a query)."""
        if self.player_id:
            return (self.player,)
        return (self.team.player_one, self.team.player_two)

    @property
    def number(self) -> str:
        """The ID printed on scorecards: the player's, or both partners' for a team."""
        if self.player_id:
            return str(self.player.number)
        return f"{self.team.player_one.number}/{self.team.player_two.number}"

    def clean(self) -> None:
        if (self.player_id is None) == (self.team_id is None):
            raise ValidationError(gettext("An entry is either one player or one team."))
        if self.category_id:
            doubles = self.category.kind == self.category.Kind.DOUBLES
            if doubles and self.player_id:
                raise ValidationError(
                    gettext("A doubles category takes teams, not single players.")
                )
            if not doubles and self.team_id:
                raise ValidationError(gettext("A singles category takes players, not teams."))
