from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from simple_history.models import HistoricalRecords


class Match(models.Model):
    """Games between the same two entries (WCC preliminary: 1 game; final: best 2 of 3)."""

    stage = models.ForeignKey("tournaments.Stage", on_delete=models.CASCADE, related_name="matches")
    pool = models.ForeignKey(
        "tournaments.Pool", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    round_of_play = models.PositiveSmallIntegerField(
        default=1, help_text="Which round of play (draw) of the stage this match belongs to."
    )
    entry_a = models.ForeignKey(
        "tournaments.Entry", on_delete=models.PROTECT, related_name="matches_as_a"
    )
    entry_b = models.ForeignKey(
        "tournaments.Entry",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="matches_as_b",
        help_text="Empty for a bye.",
    )
    best_of = models.PositiveSmallIntegerField(default=1)
    board = models.ForeignKey(
        "tournaments.Board", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    starts_at = models.DateTimeField(null=True, blank=True)
    bracket_slot = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["stage", "round_of_play", "board__number", "id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(condition=~Q(entry_a=F("entry_b")), name="match_entries_differ"),
            models.CheckConstraint(condition=Q(best_of__gte=1), name="match_best_of_positive"),
        ]

    def __str__(self) -> str:
        b = self.entry_b.name if self.entry_b_id else "bye"
        return f"{self.entry_a.name} v {b}"

    @property
    def is_bye(self) -> bool:
        return self.entry_b_id is None


class Game(models.Model):
    """One game of a match: 4 rounds, a 5th when a championship game is tied after 4."""

    class Side(models.TextChoices):
        A = "a", "Entry A"
        B = "b", "Entry B"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(default=1)
    first_side = models.CharField(
        max_length=1,
        choices=Side.choices,
        default=Side.A,
        help_text="Who shoots first in round 1; the other side has the hammer (NCA 4b, 5b).",
    )
    is_playoff = models.BooleanField(
        default=False, help_text="A tied playoff game gets a 5th round (WCC championship rule)."
    )
    simulated = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.match} — game {self.number}"


class Round(models.Model):
    """The official result of one round: points, 20s, optionally the board scores.

    ``scoring`` and ``discs_per_side`` are copied from the category when the round is recorded,
    so that the database itself can refuse a result the category's rules cannot give: points
    other than 2-1-0 in a 2-1-0 game (NCA 2a iv), points that are not the difference of the board
    scores in a game to 100 (family rulebook Scoring 5), more 20s than the side had discs. The
    scoring engine (``scoring.engine.judge``) checks all of it first and words the message; the
    constraints are the last line of defence.
    """

    class Scoring(models.TextChoices):
        TWO_ONE_ZERO = "2-1-0", "2-1-0 per round"
        DIFFERENCE = "difference", "Difference of the board scores"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    points_a = models.PositiveSmallIntegerField()
    points_b = models.PositiveSmallIntegerField()
    twenties_a = models.PositiveSmallIntegerField(default=0)
    twenties_b = models.PositiveSmallIntegerField(default=0)
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    time_expired = models.BooleanField(
        default=False, help_text="Time ran out with no disc shot: the round scores 0-0 (WCC)."
    )
    scoring = models.CharField(
        max_length=10, choices=Scoring.choices, default=Scoring.TWO_ONE_ZERO
    )
    discs_per_side = models.PositiveSmallIntegerField(default=8)
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_number"),
            # NCA 2a iv: 2 to the higher score, 1 each for a tie; WCC: 0-0 when time expired
            # before any disc was shot.
            models.CheckConstraint(
                condition=~Q(scoring="2-1-0")
                | Q(points_a=2, points_b=0)
                | Q(points_a=1, points_b=1)
                | Q(points_a=0, points_b=2)
                | Q(points_a=0, points_b=0, time_expired=True),
                name="round_points_2_1_0",
            ),
            # Family rulebook Scoring 5: the winner adds the difference, the other side 0.
            models.CheckConstraint(
                condition=~Q(scoring="difference")
                | Q(points_a=0, points_b=0, time_expired=True)
                | Q(
                    score_a__isnull=False,
                    score_a__gte=F("score_b"),
                    points_a=F("score_a") - F("score_b"),
                    points_b=0,
                )
                | Q(
                    score_a__isnull=False,
                    score_a__lt=F("score_b"),
                    points_a=0,
                    points_b=F("score_b") - F("score_a"),
                ),
                name="round_points_difference",
            ),
            models.CheckConstraint(
                condition=Q(time_expired=False)
                | Q(points_a=0, points_b=0, twenties_a=0, twenties_b=0),
                name="round_time_expired_scores_nothing",
            ),
            models.CheckConstraint(
                condition=Q(twenties_a__lte=F("discs_per_side"))
                & Q(twenties_b__lte=F("discs_per_side")),
                name="round_twenties_within_discs",
            ),
            models.CheckConstraint(
                condition=Q(score_a__isnull=True, score_b__isnull=True)
                | Q(score_a__isnull=False, score_b__isnull=False),
                name="round_scores_both_or_neither",
            ),
            models.CheckConstraint(
                condition=Q(score_a__isnull=True)
                | (Exact(Mod("score_a", 5), 0) & Exact(Mod("score_b", 5), 0)),
                name="round_scores_multiple_of_5",
            ),
            models.CheckConstraint(
                condition=Q(score_a__isnull=True)
                | Q(score_a__gte=F("twenties_a") * 20, score_b__gte=F("twenties_b") * 20),
                name="round_scores_include_twenties",
            ),
            models.CheckConstraint(
                condition=~Q(scoring="2-1-0")
                | Q(score_a__isnull=True)
                | Q(time_expired=True)
                | Q(score_a__gt=F("score_b"), points_a=2)
                | Q(score_a=F("score_b"), points_a=1)
                | Q(score_a__lt=F("score_b"), points_a=0),
                name="round_points_follow_scores",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} — round {self.number}"
