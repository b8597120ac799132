"""Entries sent with an idempotency key: a phone's outbox may send one entry more than once.

A phone that saved a row while the hall's Wi-Fi was down keeps it in its outbox and sends it when
the network returns: on reconnect, on the next visit, in the background. A send whose answer was
lost (the request reached the server, the reply did not reach the phone) is sent again with the
same key. The key is recorded in the same transaction as the write it made, so a second send of
it finds the record and writes nothing: the row is written once, whatever the phone replays.
The same holds for the opponent's "Agree" tapped offline: a keyed validation signs the row once.
"""

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.models.scorecards import CardRow


class RowSubmission(models.Model):
    """One keyed write on a card's row that was applied (its owner's fill, or the opponent's
    validation): which row it wrote, what kind of write, the version the phone based it on and
    the version it wrote."""

    class Write(models.TextChoices):
        """What a keyed entry did to its row: a key is one write, replayed only as that write."""

        FILL = "fill", _("filled the row")
        VALIDATE = "validate", _("validated the row")

    key = models.CharField(max_length=64, unique=True)
    row = models.ForeignKey(CardRow, on_delete=models.CASCADE, related_name="submissions")
    kind = models.CharField(
        max_length=16,
        choices=Write.choices,
        default=Write.FILL,
        help_text=_("What the entry did: its owner filled the row, or the opponent signed it."),
    )
    based_on = models.PositiveIntegerField(
        help_text=_("The row's version the phone had when the entry was made (0: no row yet).")
    )
    wrote = models.PositiveIntegerField(help_text=_("The row's version the entry wrote."))
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at", "-id"]

    def __str__(self) -> str:
        return gettext("Entry %(key)s: version %(wrote)s of %(row)s") % {
            "key": self.key,
            "wrote": self.wrote,
            "row": self.row,
        }
