from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext, gettext_lazy
from simple_history.models import HistoricalRecords

#: Tiebreak steps the scoring engine knows, by name (``scoring.engine.tiebreaks.STEPS``; the
#: models may not import scoring, so the names are repeated here and a test keeps them equal).
TIEBREAK_STEPS = (
    "twenties",
    "head-to-head",
    "twenties-among-tied",
    "twenties-all-games",
    "shoot-out",
    "buchholz",
    "game-points",
)
#: The most games a match may have, in either format (WCC: a match is "normally 10" games;
#: clubs play best of 5 or 7 at most).
MATCH_GAMES_MAX = 15


class Stage(models.Model):
    """One phase of a category (preliminary, round robin, knockout, Swiss, shoot-out).

    Stages are chained by ``order``; each advances ``advance_count`` entries to the next by its
    standings, which rank by points and then by the stage's tiebreak chain.
    """

    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", gettext_lazy("Preliminary rounds")
        ROUND_ROBIN = "round-robin", gettext_lazy("Round-robin playoff")
        KNOCKOUT = "knockout", gettext_lazy("Knockout bracket")
        SWISS = "swiss", gettext_lazy("Swiss")
        SHOOTOUT = "shoot-out", gettext_lazy("Shoot-out")

    class MatchFormat(models.TextChoices):
        """How the N games of a match decide it (``scoring.engine.judge.MATCH_FORMATS``: the
        models may not import scoring, so the names are repeated here and a test keeps them
        equal)."""

        BEST_OF = "best-of", gettext_lazy("Best of N games")
        FIXED = "fixed", gettext_lazy("Fixed match of N games")

    #: WCC Tie-Breaking Procedure: preliminary rounds use 20s then a shoot-out; a round-robin
    #: playoff uses head-to-head, 20s among the tied, 20s in all games, then a shoot-out. A Swiss
    #: ranks as Swiss events do: Buchholz (the opponents' points) first, then the WCC
    #: preliminary steps (the engine's "swiss" method says why).
    DEFAULT_CHAINS = {
        Kind.PRELIMINARY: ["twenties", "shoot-out"],
        Kind.SWISS: ["buchholz", "twenties", "shoot-out"],
        Kind.ROUND_ROBIN: [
            "head-to-head",
            "twenties-among-tied",
            "twenties-all-games",
            "shoot-out",
        ],
        Kind.KNOCKOUT: ["twenties", "shoot-out"],
        Kind.SHOOTOUT: ["shoot-out"],
    }

    category = models.ForeignKey(
        "tournaments.Category", on_delete=models.CASCADE, related_name="stages"
    )
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    order = models.PositiveSmallIntegerField(default=1)
    advance_count = models.PositiveIntegerField(
        null=True, blank=True, help_text=gettext_lazy("How many entries go on to the next stage.")
    )
    games_per_entry = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=gettext_lazy("Preliminary/Swiss: games each entry plays.")
    )
    best_of = models.PositiveSmallIntegerField(
        default=1,
        help_text=gettext_lazy(
            "Games per match (N): 1, or best of N (WCC final: best 2 of 3), or the N games of "
            "a fixed match (WCC: normally 10)."
        ),
    )
    match_format = models.CharField(
        max_length=10,
        choices=MatchFormat.choices,
        default=MatchFormat.BEST_OF,
        help_text=gettext_lazy(
            "Best of N: the first to win a majority of the N games wins the match. Fixed: all "
            "N games are played and the total points decide; a tie is possible, so not in a "
            "knockout."
        ),
    )
    tiebreak_chain = models.JSONField(
        default=list,
        blank=True,
        help_text=gettext_lazy("Tiebreak steps after points; empty = the default."),
    )
    third_place = models.BooleanField(
        default=False,
        help_text=gettext_lazy("Knockout: a 3rd/4th place match between the losing semifinalists."),
    )
    bye_points = models.PositiveSmallIntegerField(
        default=8, help_text=gettext_lazy("Points for a bye or a walkover.")
    )
    bye_twenties = models.PositiveSmallIntegerField(
        default=0, help_text=gettext_lazy("20s for a bye or a walkover.")
    )
    seed = models.PositiveIntegerField(default=1, help_text=gettext_lazy("Random seed for draws."))

    #: Who changed what and when, before and after (the organizer's audit page).
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["category", "order"]
        constraints = [
            models.UniqueConstraint(fields=["category", "order"], name="stage_unique_order"),
            models.CheckConstraint(
                condition=models.Q(best_of__gte=1), name="stage_best_of_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category.name}: {self.name}"

    @property
    def chain(self) -> list[str]:
        return list(self.tiebreak_chain) or list(self.DEFAULT_CHAINS[self.Kind(self.kind)])

    #: The engine's standings method whose chain each kind uses by default.
    def clean(self) -> None:
        if not isinstance(self.tiebreak_chain, list):
            raise ValidationError({"tiebreak_chain": gettext("A list of tiebreak step names.")})
        unknown = [s for s in self.tiebreak_chain if s not in TIEBREAK_STEPS]
        if unknown:
            raise ValidationError(
                {
                    "tiebreak_chain": gettext(
                        "Unknown tiebreak step(s) %(unknown)s; known steps: %(known)s."
                    )
                    % {"unknown": ", ".join(map(str, unknown)), "known": ", ".join(TIEBREAK_STEPS)}
                }
            )
        self._check_match_format()
        three = self.category_id and self.category.scoring_system == "three-player"
        if three and self.kind not in (self.Kind.PRELIMINARY, self.Kind.SHOOTOUT):
            # Pools, brackets and Swiss pairings are made of two-sided matches.
            raise ValidationError(
                {
                    "kind": gettext(
                        "A three-player category plays preliminary rounds of groups of "
                        "three; round robins, brackets and Swiss rounds are played by two sides."
                    )
                }
            )

    @property
    def fixed_match(self) -> bool:
        """Whether every game of a match is played and the total points decide it."""
        return self.match_format == self.MatchFormat.FIXED

    def _check_match_format(self) -> None:
        """The games of a match: 1 to :data:`MATCH_GAMES_MAX`; an odd number for a best of N
        (an even N could end level on games won, with no game left to break the tie); and no
        fixed match in a knockout, where a match must have a winner: a fixed match can end
        level on points (a drawn game, or points that even out), and the WCC rules break that
        tie only for places in standings (20s, then a shoot-out), never to send one side on in
        a bracket, whose championship match they play best two out of three."""
        if self.best_of < 1:
            raise ValidationError({"best_of": gettext("A match needs at least 1 game.")})
        if self.best_of > MATCH_GAMES_MAX:
            raise ValidationError(
                {
                    "best_of": gettext("A match has at most %(most)s games, not %(games)s.")
                    % {"most": MATCH_GAMES_MAX, "games": self.best_of}
                }
            )
        if self.match_format == self.MatchFormat.FIXED:
            if self.kind == self.Kind.KNOCKOUT:
                raise ValidationError(
                    {
                        "match_format": gettext(
                            "A knockout match must have a winner, and a fixed match of N games "
                            "can end level on points: play the knockout best of N (WCC: a "
                            "championship match is best two out of three)."
                        )
                    }
                )
        elif self.best_of % 2 == 0:
            raise ValidationError(
                {
                    "best_of": gettext(
                        "Best of N needs an odd N (1, 3, 5…); a fixed match of N games may "
                        "have an even N."
                    )
                }
            )


class Pool(models.Model):
    """A round-robin group within a stage, e.g. WCC's two pools of 8 (A and B)."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="pools")
    name = models.CharField(max_length=20)
    entries = models.ManyToManyField("tournaments.Entry", related_name="pools", blank=True)

    class Meta:
        ordering = ["stage", "name"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "name"], name="pool_unique_name"),
        ]

    def __str__(self) -> str:
        return gettext("%(stage)s — pool %(pool)s") % {"stage": self.stage, "pool": self.name}
