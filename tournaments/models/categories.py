from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext, gettext_lazy
from simple_history.models import HistoricalRecords

from tournaments.presets import PRESETS

#: The longest clock a category may set for its games, in minutes.
MAX_GAME_MINUTES = 180

#: The family rulebook's systems: its games are played without a clock unless the organizer
#: sets one for the category, and by its rules of play.
FAMILY_SYSTEMS = frozenset({"difference-to-100", "match-play-to-8", "three-player"})


class Category(models.Model):
    """A competition inside a tournament: who plays (singles or doubles), how, and for what."""

    class Kind(models.TextChoices):
        SINGLES = "singles", gettext_lazy("Singles")
        DOUBLES = "doubles", gettext_lazy("Doubles")

    class Discipline(models.TextChoices):
        FINGERS = "fingers", gettext_lazy("Fingers")
        CUE = "cue", gettext_lazy("Cue")

    class ScoringSystem(models.TextChoices):
        NCA = "nca", gettext_lazy("NCA: 2-1-0 per round, games of 4 rounds")
        DIFFERENCE_TO_100 = (
            "difference-to-100",
            gettext_lazy("Family rulebook: difference, play to 100"),
        )
        MATCH_PLAY_TO_8 = "match-play-to-8", gettext_lazy("Family rulebook: match play, first to 8")
        THREE_PLAYER = "three-player", gettext_lazy("Family rulebook: three players, 2-1-0")
        FIRST_TO_N = "first-to-N", gettext_lazy("Event practice: 2-1-0, first to N points")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="categories"
    )
    name = models.CharField(max_length=100)
    preset = models.CharField(
        max_length=40,
        blank=True,
        # The preset names are marked in ``tournaments.presets`` (free of Django).
        choices=[(k, gettext_lazy(p.name)) for k, p in PRESETS.items()],
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SINGLES)
    discipline = models.CharField(
        max_length=10, choices=Discipline.choices, default=Discipline.FINGERS
    )
    discs_per_player = models.PositiveSmallIntegerField(default=8)
    rounds_per_game = models.PositiveSmallIntegerField(default=4)
    scoring_system = models.CharField(
        max_length=20, choices=ScoringSystem.choices, default=ScoringSystem.NCA
    )
    target_points = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy("N for first-to-N (and 100/8 for the family systems)."),
    )
    #: The category's own clock. Empty: an NCA or first-to-N category takes the tournament's game
    #: time, a family-rulebook category plays untimed (the family rulebook has no clock).
    game_minutes = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(1, gettext_lazy("A game's clock is at least 1 minute.")),
            MaxValueValidator(
                MAX_GAME_MINUTES,
                gettext_lazy("A game's clock is at most %(limit_value)s minutes."),
            ),
        ],
        help_text=gettext_lazy(
            "Time limit per game for this category, in minutes. Empty: the tournament's game "
            "time, or no clock for the family rulebook's systems."
        ),
    )
    #: The public entry form (``EntryRequest``): open or not, until when, for how many entries
    #: (beyond it, a waitlist promoted in order when someone withdraws).
    registration_open = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Players may ask to enter through the public entry form."),
    )
    registration_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("The entry form closes at this time (empty: open until closed)."),
    )
    capacity = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy("Most entries accepted; later ones wait on the waitlist."),
    )

    #: Who changed what and when, before and after (the organizer's audit page).
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name_plural = gettext_lazy("categories")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="category_unique_name"),
            models.CheckConstraint(
                condition=models.Q(discs_per_player__gte=1, discs_per_player__lte=12),
                name="category_discs_per_player_1_to_12",
            ),
            models.CheckConstraint(
                condition=models.Q(rounds_per_game__gte=1), name="category_rounds_per_game_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — {self.name}"

    @property
    def players_per_side(self) -> int:
        return 2 if self.kind == self.Kind.DOUBLES else 1

    @property
    def discs_per_side(self) -> int:
        """All the discs one side shoots in a round: the most 20s it can make in it."""
        return self.discs_per_player * self.players_per_side

    @property
    def shootout_shots_per_player(self) -> int:
        """WCC Shoot-Out Procedure: 12 opportunities, 6 each for doubles."""
        return 12 // self.players_per_side

    @property
    def is_family_system(self) -> bool:
        """Scored by one of the family rulebook's systems, so played by its rules of play."""
        return self.scoring_system in FAMILY_SYSTEMS

    @property
    def rules_of_play(self) -> str:
        """The simulation's rule set for this category's games: the family rulebook's for its
        systems, the NCA's for the others."""
        return "family" if self.is_family_system else "nca"

    def time_limit_minutes(self) -> int | None:
        """The one place that decides a game's clock in this category (None: untimed).

        The category's own clock when the organizer set one; otherwise the tournament's game
        time for NCA and first-to-N play (WCC timing rule), and none for the family rulebook's
        systems, whose games are played to the end.
        """
        if self.game_minutes:
            return self.game_minutes
        if self.is_family_system:
            return None
        return self.tournament.game_minutes or None

    def clean(self) -> None:
        if self.scoring_system == self.ScoringSystem.FIRST_TO_N and not self.target_points:
            raise ValidationError({"target_points": gettext("first-to-N needs the target N.")})

    @classmethod
    def from_preset(cls, tournament, key: str, **overrides) -> "Category":
        """A category with the WCC preset's discs and rounds (unsaved)."""
        try:
            p = PRESETS[key]
        except KeyError:
            raise ValueError(
                gettext("unknown category preset %(key)r; known presets: %(known)s")
                % {"key": key, "known": ", ".join(PRESETS)}
            ) from None
        fields = {
            "name": p.name,
            "preset": p.key,
            "kind": p.kind,
            "discipline": p.discipline,
            "discs_per_player": p.discs_per_player,
            "rounds_per_game": p.rounds_per_game,
            "scoring_system": p.scoring_system,
        }
        fields.update(overrides)
        return cls(tournament=tournament, **fields)
