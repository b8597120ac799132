from django.db import models
from django.utils.translation import gettext


class Board(models.Model):
    """A numbered board in the hall; boards out of service get no matches."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="boards"
    )
    number = models.PositiveIntegerField()
    in_service = models.BooleanField(default=True)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="board_unique_number"),
        ]

    def __str__(self) -> str:
        return gettext("Board %(number)s") % {"number": self.number}
