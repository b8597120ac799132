"""Shoot-outs recorded at the table."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from simple_history.models import HistoricalRecords


class ShootOut(models.Model):
    """WCC Shoot-Out Procedure: the tied entries each shoot 12 times at the 20 (6 each in
    doubles); top scorers advance and those still tied shoot again, so a tie may need several,
    kept in the order they were shot."""

    stage = models.ForeignKey(
        "tournaments.Stage", on_delete=models.CASCADE, related_name="shootouts"
    )
    order = models.PositiveSmallIntegerField(default=1)
    #: When it was recorded, and by whom (a referee, the head referee or the scoring table, at
    #: the table); empty for the loader and the simulation.
    created_at = models.DateTimeField(auto_now_add=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: Who recorded it and when, for the organizer's audit page.
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        ordering = ["stage", "order"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "order"], name="shootout_unique_order"),
        ]

    def __str__(self) -> str:
        return _("%(stage)s — shoot-out %(order)s") % {"stage": self.stage, "order": self.order}


class ShootOutScore(models.Model):
    """How many of the 12 shots one entry made in a shoot-out."""

    shootout = models.ForeignKey(ShootOut, on_delete=models.CASCADE, related_name="scores")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="+")
    twenties = models.PositiveSmallIntegerField()
    #: What each entry made, as recorded and as later changed, for the organizer's audit page.
    history = HistoricalRecords(history_change_reason_field=models.TextField(null=True))

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["shootout", "entry"], name="shootout_score_unique"),
            models.CheckConstraint(
                condition=models.Q(twenties__lte=12), name="shootout_at_most_12_shots"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.twenties}"

    def clean(self) -> None:
        if self.twenties is not None and self.twenties > 12:
            raise ValidationError({"twenties": _("A shoot-out has 12 shots per entry (6 each).")})
