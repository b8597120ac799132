"""The record: every game that counts for a person's crokinole life, from this app or imported.

A verified game of a tournament here and a line of a past results file (the Crokinole Reference
layout) become the same thing: one ``RecordedGame`` between people of the registry, with its
rounds, points and 20s. Ratings, profiles, rankings and leaderboards read the record and nothing
else, so an imported season and a game verified a minute ago count alike.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class Discipline(models.TextChoices):
    """What a rating and a ranking are kept for (singles and doubles rate apart; doubles rates
    the two partners as two people)."""

    SINGLES = "singles", gettext_lazy("Singles")
    DOUBLES = "doubles", gettext_lazy("Doubles")
    CUE_SINGLES = "cue-singles", gettext_lazy("Cue singles")
    CUE_DOUBLES = "cue-doubles", gettext_lazy("Cue doubles")


class RecordImport(models.Model):
    """A file of past results, read and previewed; written into the record only once confirmed."""

    class Layout(models.TextChoices):
        CROKINOLE_REFERENCE = "crokinole-reference", gettext_lazy("Crokinole Reference (CSV)")
        APP_EXPORT = "app-export", gettext_lazy("This app's tournament export")

    class Status(models.TextChoices):
        PREVIEWED = "previewed", gettext_lazy("Previewed")
        CONFIRMED = "confirmed", gettext_lazy("Confirmed")

    layout = models.CharField(max_length=30, choices=Layout.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PREVIEWED)
    filename = models.CharField(max_length=255, blank=True, default="")
    #: The file as uploaded, so that confirming writes exactly what was previewed.
    content = models.TextField()
    #: What the preview found: counts, new and matched people, bad lines by number.
    summary = models.JSONField(default=dict)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.get_layout_display()} {self.filename}".strip()


class RecordedGame(models.Model):
    """One game between people, with its rounds as ``[points_a, points_b, twenties_a,
    twenties_b]`` lists (a fifth item, the side that shot first in that round, 0 for A and 1 for
    B, where known: the other side had the hammer)."""

    #: Identifies the game wherever it came from, so a re-import or a second verification
    #: changes nothing: ``"game:<id>"`` for a game of this app, ``"ref:<digest>"`` for a line of
    #: an imported file (of its date, event, stage, pool, game number and players).
    key = models.CharField(max_length=120, unique=True)
    game = models.OneToOneField(
        "tournaments.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="recorded",
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="recorded_games",
    )
    source = models.ForeignKey(
        RecordImport, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    discipline = models.CharField(max_length=20, choices=Discipline.choices)
    played_on = models.DateField(db_index=True)
    event = models.CharField(max_length=200)
    stage = models.CharField(max_length=100, blank=True, default="")
    pool = models.CharField(max_length=40, blank=True, default="")
    number = models.PositiveSmallIntegerField(default=1)
    #: Order of games on the same day (ratings walk the record in this order).
    sequence = models.PositiveBigIntegerField(default=0)
    person_a = models.ForeignKey("tournaments.Person", on_delete=models.PROTECT, related_name="+")
    partner_a = models.ForeignKey(
        "tournaments.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    person_b = models.ForeignKey("tournaments.Person", on_delete=models.PROTECT, related_name="+")
    partner_b = models.ForeignKey(
        "tournaments.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rounds = models.JSONField(default=list)
    points_a = models.PositiveSmallIntegerField(default=0)
    points_b = models.PositiveSmallIntegerField(default=0)
    twenties_a = models.PositiveSmallIntegerField(default=0)
    twenties_b = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["played_on", "sequence", "id"]
        indexes = [
            models.Index(fields=["discipline", "played_on", "sequence"]),
            models.Index(fields=["person_a", "played_on"]),
            models.Index(fields=["person_b", "played_on"]),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.stage} {self.played_on}: {self.points_a}-{self.points_b}"


class Rating(models.Model):
    """A person's current rating in one discipline: the mean of the belief and its spread (the
    rating model's own units; pages show them on the display scale of ``scoring.engine.rating``)."""

    person = models.ForeignKey(
        "tournaments.Person", on_delete=models.CASCADE, related_name="ratings"
    )
    discipline = models.CharField(max_length=20, choices=Discipline.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["person", "discipline"], name="rating_one_per_discipline"
            )
        ]
        indexes = [models.Index(fields=["discipline", "-mu"])]

    def __str__(self) -> str:
        return f"{self.person_id} {self.discipline}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingPoint(models.Model):
    """A person's rating right after one recorded game: the rating over time (the profile's
    chart) and what a ranking looked like at any date."""

    person = models.ForeignKey(
        "tournaments.Person", on_delete=models.CASCADE, related_name="rating_points"
    )
    discipline = models.CharField(max_length=20, choices=Discipline.choices)
    game = models.ForeignKey(RecordedGame, on_delete=models.CASCADE, related_name="rating_points")
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["played_on", "game__sequence", "id"]
        indexes = [models.Index(fields=["person", "discipline", "played_on"])]

    def __str__(self) -> str:
        return f"{self.person_id} {self.discipline} {self.played_on}: {self.mu:.2f}"


class RankingSnapshot(models.Model):
    """A published ranking as it stood after an event or a nightly run: movers are measured
    against the last one taken after an event."""

    class Reason(models.TextChoices):
        EVENT = "event", gettext_lazy("After an event")
        NIGHTLY = "nightly", gettext_lazy("Nightly")
        IMPORT = "import", gettext_lazy("After an import")

    discipline = models.CharField(max_length=20, choices=Discipline.choices)
    reason = models.CharField(max_length=10, choices=Reason.choices)
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    taken_at = models.DateTimeField(auto_now_add=True)
    #: ``[{"person": id, "rank": 1, "mu": .., "sigma": .., "games": ..}, ...]`` in rank order.
    rows = models.JSONField(default=list)

    class Meta:
        ordering = ["-taken_at", "-id"]

    def __str__(self) -> str:
        return f"{self.discipline} {self.get_reason_display()} {self.taken_at:%Y-%m-%d}"


class RatingBookState(models.Model):
    """What the rating book knows of a discipline's whole field after its newest rated game
    (``scoring.ratings.book_state``): kept in the database, in the same transaction as the
    ratings it goes with, so a one-game update on any process starts from exactly the state
    the full replay would have reached."""

    discipline = models.CharField(max_length=20, choices=Discipline.choices, unique=True)
    #: The newest game the state includes, as ``[played_on, sequence, id]``.
    after = models.JSONField(null=True, blank=True)
    state = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"{self.discipline} after {self.after}"
