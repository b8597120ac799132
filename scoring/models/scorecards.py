"""Scorecards, as at the WCC: each player (or team) keeps one card per stage, a row per game.

A row is a claim by one side about one game. It moves through the workflow
``filled -> validated (by the opponent) -> verified (by the scoring table)``, may be ``voided``
with a reason, and goes to ``disputed`` when the two sides' rows disagree. Rows never lose what
they said: every change is a new historical version (who, when, what), and corrections after
validation carry a referee's initials. The official result that standings read is written to
``tournaments.Round`` once a row counts.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class ScoreCard(models.Model):
    """One entry's card for one stage: full name, ID and category are printed on it."""

    stage = models.ForeignKey("tournaments.Stage", on_delete=models.CASCADE, related_name="cards")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="cards")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage", "entry"], name="scorecard_unique_per_stage"),
        ]

    def __str__(self) -> str:
        return gettext("Scorecard of %(entry)s — %(stage)s") % {
            "entry": self.entry,
            "stage": self.stage,
        }


class CardRow(models.Model):
    """One game on a card, from the card owner's side: ``rounds`` holds, per round,
    ``{"points": [own, opponent], "twenties": [own, opponent], "score": [own, opponent] | null,
    "time_expired": bool}`` (in a three-player game ``[own, first other, second other]``, the
    others in the match's order); totals are computed from it, never typed."""

    class Status(models.TextChoices):
        FILLED = "filled", _("Filled")
        #: Entered from a paper card where the event wants a second staff member to confirm
        #: it: it counts (and is compared with the other card) only once confirmed.
        AWAITING = "awaiting", _("Entered from paper, awaiting confirmation")
        VALIDATED = "validated", _("Validated by the opponent")
        VERIFIED = "verified", _("Verified at the scoring table")
        VOIDED = "voided", _("Voided")
        DISPUTED = "disputed", _("Disputed")

    class ValidatedHow(models.TextChoices):
        """How the opponent's signature reached the row: on the opponent's phone (their login or
        private link), written on the paper card and entered by staff, by the simulation, or by
        the opponent's own row of the game saying the same (both players entered it, each on
        their own card, and the two agree round by round)."""

        PHONE = "phone", _("Opponent's phone")
        PAPER = "paper", _("Paper card")
        SIMULATED = "simulated", _("Simulated")
        AGREEMENT = "agreement", _("Both cards agree")

    card = models.ForeignKey(ScoreCard, on_delete=models.CASCADE, related_name="rows")
    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="card_rows")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.FILLED)
    rounds = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=1)
    simulated = models.BooleanField(default=False)

    filled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    validated_number = models.CharField(max_length=20, blank=True)
    validated_initials = models.CharField(max_length=5, blank=True)
    validated_at = models.DateTimeField(null=True, blank=True)
    validated_how = models.CharField(max_length=10, choices=ValidatedHow.choices, blank=True)
    #: Who signed on a phone, as the app knew them: the opponent's entry, the login that signed
    #: (None when the phone held only the entry's private link) and the signing browser's device
    #: label, so the table and the dispute queue show which identity validated, and from where.
    validated_entry = models.ForeignKey(
        "tournaments.Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    validated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    validated_device = models.CharField(max_length=16, blank=True)
    #: The staff member who typed the row in from a paper card, and the second one who confirmed
    #: it where the event asks for that (never the same person).
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    referee_initials = models.CharField(max_length=5, blank=True)
    # WCC: "Any corrections made on your score card must be initialled by a referee." A saved
    # row is its player's to change only until someone else has seen it: its opponent opened
    # it to sign, or staff entered the game's paper card. After that a change is a correction,
    # initialled by a referee (``scoring.scorecards.conditions.change_needs_initials``).
    seen_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "When someone other than its player first saw the row to sign it (the opponent "
            "opened it, or staff entered the game's paper card)."
        ),
    )
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.CharField(max_length=200, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class StaleVersion(Exception):
        """The row was saved over a version that is no longer the stored one."""

    #: Set by :meth:`save_over`, for the one save it makes.
    _over_version: int | None = None

    class Meta:
        ordering = ["card", "game__match__round_of_play", "game__number"]
        constraints = [
            models.UniqueConstraint(fields=["card", "game"], name="cardrow_unique_game"),
            models.CheckConstraint(
                condition=~models.Q(status="voided") | ~models.Q(void_reason=""),
                name="cardrow_void_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card.entry} — {self.game}"

    def save_over(self, version: int) -> None:
        """Save an existing row only if it is still at ``version`` (an optimistic lock), in the
        one UPDATE that writes it: raises :class:`StaleVersion`, and writes nothing, when someone
        saved it since. The history record is written as for any save."""
        self._over_version = version
        try:
            self.save(force_update=True)
        finally:
            self._over_version = None

    def _do_update(self, base_qs, using, pk_val, values, update_fields, forced_update):
        if self._over_version is None:
            return super()._do_update(base_qs, using, pk_val, values, update_fields, forced_update)
        if not super()._do_update(
            base_qs.filter(version=self._over_version),
            using,
            pk_val,
            values,
            update_fields,
            forced_update,
        ):
            raise self.StaleVersion
        return True

    @property
    def total_points(self) -> int:
        return sum(r["points"][0] for r in self.rounds)

    @property
    def total_points_against(self) -> int:
        """The opponent's points (both others' together in a three-player game)."""
        return sum(sum(r["points"][1:]) for r in self.rounds)

    @property
    def total_twenties(self) -> int:
        return sum(r["twenties"][0] for r in self.rounds)
