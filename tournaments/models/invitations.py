"""Invitations: how an existing account comes to hold a role at a tournament, or to act for one
of its players.

An organizer never links or grants anything to an account by naming it: what they type is kept
as typed (``username``), and the account's owner accepts or declines while signed in. Whether
that username exists is never told to the organizer: an invitation to an unknown username is
stored all the same, with no account (``user`` empty), so nobody can ever accept it.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy, pgettext_lazy

from tournaments.models.roles import TournamentRole


class Invitation(models.Model):
    """An offer from a tournament's organizers to one account: a staff role, or to be the
    account of one of its players."""

    class Kind(models.TextChoices):
        ROLE = "role", gettext_lazy("Role")
        PLAYER = "player", gettext_lazy("Player")

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Pending")
        ACCEPTED = "accepted", gettext_lazy("Accepted")
        DECLINED = "declined", gettext_lazy("Declined")
        WITHDRAWN = "withdrawn", pgettext_lazy("invitation status", "Withdrawn")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="invitations"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    role = models.CharField(
        max_length=20, choices=TournamentRole.Role.choices, blank=True, default=""
    )
    player = models.ForeignKey(
        "tournaments.Player",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
    )
    #: The username as the organizer typed it: all the organizer's pages ever show of it.
    username = models.CharField(max_length=150)
    #: The account that username named when the invitation was made (empty if none did): the
    #: only account that may accept it. Never shown to the organizer.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="role", player__isnull=True) & ~models.Q(role="")
                | models.Q(kind="player", player__isnull=False, role=""),
                name="invitation_role_xor_player",
            ),
        ]

    def __str__(self) -> str:
        what = self.get_role_display() if self.kind == self.Kind.ROLE else str(self.player)
        return f"{self.username}: {what} ({self.get_status_display()})"
