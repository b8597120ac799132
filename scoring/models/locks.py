"""Closed stages: when a stage advanced, and the head referee's changes of its results since.

Whether a stage is closed is read from the data (its next stage has been seeded or drawn, see
``scoring.progression.locks``); these records only keep what the data cannot tell: when it
advanced, and each change of a closed result with who made it, why, the rounds before and after
and what it would change in the next stage.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _


class StageAdvance(models.Model):
    """One advance of a stage into the next: written by ``advance``, marked undone when the
    organizer takes it back (the next stage's draw goes; the stage is open again)."""

    stage = models.ForeignKey(
        "tournaments.Stage", on_delete=models.CASCADE, related_name="advances"
    )
    into = models.ForeignKey("tournaments.Stage", on_delete=models.CASCADE, related_name="+")
    advanced_at = models.DateTimeField(default=timezone.now)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["stage", "-advanced_at", "-id"]

    def __str__(self) -> str:
        return _("%(stage)s advanced to %(into)s") % {"stage": self.stage, "into": self.into.name}


class ClosedStageChange(models.Model):
    """The head referee's change of a result of a closed stage (WCC: the head referee rules on
    what the rules do not settle). ``before`` and ``after`` are the game's official rounds in the
    match's order of sides (entry A first); ``impact`` says what the change would mean for the
    next stage, which is not redrawn by it: the organizer decides."""

    stage = models.ForeignKey(
        "tournaments.Stage", on_delete=models.CASCADE, related_name="closed_changes"
    )
    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="+")
    into = models.ForeignKey(
        "tournaments.Stage", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(default=timezone.now)
    initials = models.CharField(max_length=5)
    reason = models.TextField()
    before = models.JSONField(default=list)
    after = models.JSONField(default=list)
    impact = models.TextField()

    class Meta:
        ordering = ["-changed_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(reason=""), name="closed_change_has_reason"),
        ]

    def __str__(self) -> str:
        return _("%(stage)s: %(game)s changed by the head referee") % {
            "stage": self.stage,
            "game": self.game,
        }
