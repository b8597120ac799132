from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from simple_history.models import HistoricalRecords


class Match(models.Model):
    """Games between the same two entries (WCC preliminary: 1 game; final: best 2 of 3)."""

    stage = models.ForeignKey("tournaments.Stage", on_delete=models.CASCADE, related_name="matches")
    pool = models.ForeignKey(
        "tournaments.Pool", null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    round_of_play = models.PositiveSmallIntegerField(
        default=1,
        help_text=gettext_lazy("Which round of play (draw) of the stage this match belongs to."),
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
        help_text=gettext_lazy("Empty for a bye."),
    )
    entry_c = models.ForeignKey(
        "tournaments.Entry",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="matches_as_c",
        help_text=gettext_lazy(
            "The third player of a three-player game (family rulebook, Option Two)."
        ),
    )
    best_of = models.PositiveSmallIntegerField(default=1)
    board = models.ForeignKey(
        "tournaments.Board", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    starts_at = models.DateTimeField(null=True, blank=True)
    bracket_slot = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["stage", "round_of_play", "board__number", "id"]
        verbose_name_plural = gettext_lazy("matches")
        constraints = [
            models.CheckConstraint(condition=~Q(entry_a=F("entry_b")), name="match_entries_differ"),
            models.CheckConstraint(
                condition=Q(entry_c__isnull=True)
                | (Q(entry_b__isnull=False) & ~Q(entry_c=F("entry_a")) & ~Q(entry_c=F("entry_b"))),
                name="match_third_entry_differs",
            ),
            models.CheckConstraint(condition=Q(best_of__gte=1), name="match_best_of_positive"),
        ]

    def __str__(self) -> str:
        if self.entry_b_id is None:
            return _("%(entry)s v bye") % {"entry": self.entry_a.name}
        versus = pgettext("versus", "v")
        return f" {versus} ".join(entry.name for entry in self.entries)

    @property
    def is_bye(self) -> bool:
        return self.entry_b_id is None

    @property
    def entries(self) -> list:
        """The entries at the board, in the match's order (two, or three in a three-player
        game; one for a bye)."""
        ids = (self.entry_a_id, self.entry_b_id, self.entry_c_id)
        found = (self.entry_a, self.entry_b, self.entry_c)
        return [entry for entry_id, entry in zip(ids, found, strict=True) if entry_id is not None]


class Game(models.Model):
    """One game of a match: 4 rounds, a 5th when a championship game is tied after 4."""

    class Side(models.TextChoices):
        A = "a", gettext_lazy("Entry A")
        B = "b", gettext_lazy("Entry B")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(default=1)
    first_side = models.CharField(
        max_length=1,
        choices=Side.choices,
        default=Side.A,
        help_text=gettext_lazy(
            "Who shoots first in round 1; the other side has the hammer (NCA 4b, 5b)."
        ),
    )
    is_playoff = models.BooleanField(
        default=False,
        help_text=gettext_lazy("A tied playoff game gets a 5th round (WCC championship rule)."),
    )
    simulated = models.BooleanField(default=False)

    class ForfeitKind(models.TextChoices):
        """Why a game was lost without its result counting (WCC: "Careless or deliberate
        contravention of the rules may result in the forfeiture of a round or a game and possible
        disqualification from the tournament")."""

        WITHDRAWAL = "withdrawal", gettext_lazy("Withdrawal")
        DISQUALIFICATION = "disqualification", gettext_lazy("Disqualification")
        RULING = "ruling", gettext_lazy("Head referee's ruling")

    #: The side that loses the game without its rounds counting: a walkover after a withdrawal
    #: or a disqualification (the game has no rounds), or the head referee's ruling (the
    #: official rounds are replaced). The other side is credited what a bye is worth.
    forfeited_by = models.CharField(
        max_length=1,
        choices=Side.choices,
        blank=True,
        default="",
        help_text=gettext_lazy(
            "The side that forfeits the game (a walkover or a ruling); empty when the game "
            "counts as played."
        ),
    )
    forfeit_kind = models.CharField(
        max_length=20, choices=ForfeitKind.choices, blank=True, default=""
    )
    forfeit_reason = models.TextField(blank=True, default="")
    forfeited_at = models.DateTimeField(null=True, blank=True)
    forfeit_ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=gettext_lazy("Who withdrew or disqualified the entry, or ruled the forfeit."),
    )

    #: Who changed what and when: forfeits and their reversal are read back from here.
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_unique_number"),
            models.CheckConstraint(
                condition=Q(forfeited_by="", forfeit_kind="")
                | (~Q(forfeited_by="") & ~Q(forfeit_kind="")),
                name="game_forfeit_has_side_and_kind",
            ),
        ]

    def __str__(self) -> str:
        return _("%(match)s — game %(number)s") % {"match": self.match, "number": self.number}

    @property
    def forfeiter(self):
        """The entry that forfeits the game, or None."""
        if not self.forfeited_by:
            return None
        match = self.match
        return match.entry_a if self.forfeited_by == self.Side.A else match.entry_b

    @property
    def is_walkover(self) -> bool:
        """Lost without being played: the entry withdrew or was disqualified."""
        return self.forfeit_kind in (self.ForfeitKind.WITHDRAWAL, self.ForfeitKind.DISQUALIFICATION)

    @property
    def forfeit_label(self) -> str:
        """The forfeit as cards, brackets and lists print it ("" when the game counts as
        played): "Walkover: Bob withdrew", or "Forfeit (head referee): <reason>"."""
        if not self.forfeited_by:
            return ""
        loser = self.forfeiter
        if self.forfeit_kind == self.ForfeitKind.WITHDRAWAL:
            return _("Walkover: %(name)s withdrew") % {"name": loser.name}
        if self.forfeit_kind == self.ForfeitKind.DISQUALIFICATION:
            return _("Walkover: %(name)s was disqualified") % {"name": loser.name}
        return _("Forfeit (head referee): %(reason)s (%(name)s forfeits the game)") % {
            "reason": self.forfeit_reason,
            "name": loser.name,
        }

    @property
    def forfeit_refusal(self) -> str:
        """Why nothing can be written on the game any more: "Game 2 is a walkover: Bob
        withdrew" (the words every path that refuses a result uses)."""
        if not self.forfeited_by:
            return ""
        if self.forfeit_kind == self.ForfeitKind.WITHDRAWAL:
            return _("Game %(number)s is a walkover: %(name)s withdrew") % {
                "number": self.number,
                "name": self.forfeiter.name,
            }
        if self.forfeit_kind == self.ForfeitKind.DISQUALIFICATION:
            return _("Game %(number)s is a walkover: %(name)s was disqualified") % {
                "number": self.number,
                "name": self.forfeiter.name,
            }
        return _(
            "Game %(number)s was forfeited by %(name)s on the head referee's ruling (%(reason)s); "
            "its result is the ruling's."
        ) % {"number": self.number, "name": self.forfeiter.name, "reason": self.forfeit_reason}


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
        TWO_ONE_ZERO = "2-1-0", gettext_lazy("2-1-0 per round")
        DIFFERENCE = "difference", gettext_lazy("Difference of the board scores")
        THREE = "three", gettext_lazy("Three players, 2-1-0 by rank")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    points_a = models.PositiveSmallIntegerField()
    points_b = models.PositiveSmallIntegerField()
    twenties_a = models.PositiveSmallIntegerField(default=0)
    twenties_b = models.PositiveSmallIntegerField(default=0)
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The third player of a three-player game; empty in every other game.
    points_c = models.PositiveSmallIntegerField(null=True, blank=True)
    twenties_c = models.PositiveSmallIntegerField(null=True, blank=True)
    score_c = models.PositiveSmallIntegerField(null=True, blank=True)
    time_expired = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Time ran out with no disc shot: the round scores 0-0 (WCC)."),
    )
    scoring = models.CharField(max_length=10, choices=Scoring.choices, default=Scoring.TWO_ONE_ZERO)
    discs_per_side = models.PositiveSmallIntegerField(default=8)
    #: The head referee's ruling: the side that forfeits the round (WCC: "forfeiture of a round
    #: or a game"). The round scores 2-0 to the other side; the 20s stay as shot, the board
    #: scores are not kept (the round's history has them).
    forfeited_by = models.CharField(max_length=1, choices=Game.Side.choices, blank=True, default="")
    forfeit_reason = models.TextField(blank=True, default="")
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
            # Family rulebook, Three-Player Option Two: 2-1-0 by rank, 1-1-0 for a tie for first,
            # 2-0-0 for a tie for second, 1-1-1 all tied: at most 2 each, 2 or 3 in all.
            models.CheckConstraint(
                condition=(
                    ~Q(scoring="three")
                    & Q(points_c__isnull=True, twenties_c__isnull=True, score_c__isnull=True)
                )
                | (
                    Q(scoring="three", points_c__isnull=False, twenties_c__isnull=False)
                    & Q(points_a__lte=2, points_b__lte=2, points_c__lte=2)
                    & (
                        Q(time_expired=True, points_a=0, points_b=0, points_c=0)
                        | Q(
                            time_expired=False,
                            points_a__gte=2 - F("points_b") - F("points_c"),
                            points_a__lte=3 - F("points_b") - F("points_c"),
                        )
                    )
                ),
                name="round_points_three_players",
            ),
            models.CheckConstraint(
                condition=~Q(scoring="three")
                | Q(score_c__isnull=True, score_a__isnull=True)
                | (
                    Q(score_c__isnull=False, score_a__isnull=False)
                    & Exact(Mod("score_c", 5), 0)
                    & Q(score_c__gte=F("twenties_c") * 20)
                ),
                name="round_third_score_like_the_others",
            ),
            models.CheckConstraint(
                condition=Q(time_expired=False)
                | Q(points_a=0, points_b=0, twenties_a=0, twenties_b=0),
                name="round_time_expired_scores_nothing",
            ),
            models.CheckConstraint(
                condition=Q(twenties_a__lte=F("discs_per_side"))
                & Q(twenties_b__lte=F("discs_per_side"))
                & (Q(twenties_c__isnull=True) | Q(twenties_c__lte=F("discs_per_side"))),
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
            # A forfeited round exists only in a 2-1-0 game: 2 to the other side, 0 to the side
            # that forfeits it, without board scores (they no longer decide the round).
            models.CheckConstraint(
                condition=Q(forfeited_by="")
                | Q(
                    scoring="2-1-0",
                    time_expired=False,
                    score_a__isnull=True,
                    forfeited_by="a",
                    points_a=0,
                    points_b=2,
                )
                | Q(
                    scoring="2-1-0",
                    time_expired=False,
                    score_a__isnull=True,
                    forfeited_by="b",
                    points_a=2,
                    points_b=0,
                ),
                name="round_forfeit_2_0_against_the_offender",
            ),
        ]

    def __str__(self) -> str:
        return _("%(game)s — round %(number)s") % {"game": self.game, "number": self.number}
