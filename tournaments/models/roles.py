from django.conf import settings
from django.db import models


class TournamentRole(models.Model):
    """What a user may do at one tournament. Players are linked through ``Player.user``;
    everyone else (the public) needs no role to read the public pages."""

    class Role(models.TextChoices):
        ORGANIZER = "organizer", "Organizer"
        HEAD_REFEREE = "head-referee", "Head referee"
        REFEREE = "referee", "Referee"
        SCORING_TABLE = "scoring-table", "Scoring table"

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="roles"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles"
    )
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="tournament_role_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} at {self.tournament}"
