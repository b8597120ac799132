from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from simple_history.models import HistoricalRecords

from scoring.engine import points_from_score


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


VALID_ROUND_POINTS = ((2, 0), (1, 1), (0, 2))


class Round(models.Model):
    """The official result of one round: points (2-1-0), 20s, optionally the board scores.

    ``discs_per_side`` is copied from the category when the round is recorded so that the
    database itself can refuse more 20s than the side had discs.
    """

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
    discs_per_side = models.PositiveSmallIntegerField(default=8)
    history = HistoricalRecords()

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_number"),
            # NCA 2a iv: 2 to the higher score, 1 each for a tie; WCC: 0-0 when time expired
            # before any disc was shot.
            models.CheckConstraint(
                condition=Q(points_a=2, points_b=0)
                | Q(points_a=1, points_b=1)
                | Q(points_a=0, points_b=2)
                | Q(points_a=0, points_b=0, time_expired=True),
                name="round_points_2_1_0",
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
                condition=Q(score_a__isnull=True)
                | Q(time_expired=True)
                | Q(score_a__gt=F("score_b"), points_a=2)
                | Q(score_a=F("score_b"), points_a=1)
                | Q(score_a__lt=F("score_b"), points_a=0),
                name="round_points_follow_scores",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} — round {self.number}"

    def clean(self) -> None:
        where = f"round {self.number}"
        errors: dict[str, str] = {}
        pts = (self.points_a, self.points_b)
        if self.time_expired:
            if pts != (0, 0) or self.twenties_a or self.twenties_b:
                errors["time_expired"] = (
                    f"{where}: time expired with no disc shot scores 0-0 with no 20s."
                )
        elif pts not in VALID_ROUND_POINTS:
            errors["points_a"] = (
                f"{where}: points {pts[0]}-{pts[1]} are impossible; a round scores 2-0, 1-1 "
                "or 0-2 (0-0 only when time expired before any disc was shot)."
            )
        for side in ("a", "b"):
            twenties = getattr(self, f"twenties_{side}")
            if twenties > self.discs_per_side:
                errors[f"twenties_{side}"] = (
                    f"{where}: {twenties} 20s but the side had only {self.discs_per_side} discs."
                )
            score = getattr(self, f"score_{side}")
            if score is not None:
                if score % 5:
                    errors[f"score_{side}"] = f"{where}: a board score is a multiple of 5."
                elif score < 20 * twenties:
                    errors[f"score_{side}"] = (
                        f"{where}: a board score of {score} cannot include {twenties} 20s."
                    )
        if (self.score_a is None) != (self.score_b is None):
            errors["score_b"] = f"{where}: give both board scores or neither."
        elif self.score_a is not None and not self.time_expired and not errors:
            expected = points_from_score((self.score_a, self.score_b))
            if expected != pts:
                errors["points_a"] = (
                    f"{where}: board scores {self.score_a}-{self.score_b} give points "
                    f"{expected[0]}-{expected[1]}, not {pts[0]}-{pts[1]}."
                )
        if errors:
            raise ValidationError(errors)
