"""Calls to a player: "your match is on board 7", "a card waits for your validation", "the
head referee ruled on your game"; and the phones that asked to receive them as Web Push.

A call is kept, not only sent: phones that cannot receive a push (an iPhone's browser, outside a
web app added to its home screen; a phone that never allowed notifications) read the same calls
on the hall screen, the public player page and the private link's page. Its words are made when
it is read, in the reader's language, from its kind and its few figures.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext, gettext_lazy


class Call(models.Model):
    """One call to an entry's players."""

    class Kind(models.TextChoices):
        BOARD = "board", gettext_lazy("Your match is on a board")
        TO_VALIDATE = "to-validate", gettext_lazy("A card waits for your validation")
        RULING = "ruling", gettext_lazy("The head referee ruled on your game")

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="calls"
    )
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="calls")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    match = models.ForeignKey(
        "tournaments.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.ForeignKey(
        "tournaments.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The figures of the words, kept as they were when the call was made (a board renumbered
    #: later does not change what was called).
    board_number = models.PositiveIntegerField(null=True, blank=True)
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The other side's name: whose card waits, or whom the match is against.
    other = models.CharField(max_length=200, blank=True, default="")
    #: Where the call leads (a path of this site): the card to validate, the entry's cards.
    url = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["entry", "-created_at"], name="call_entry_recent")]

    def __str__(self) -> str:
        return self.text

    @property
    def text(self) -> str:
        """The call in the reader's language."""
        if self.kind == self.Kind.BOARD:
            if self.other:
                return gettext("%(entry)s: your match against %(other)s is on board %(board)s.") % {
                    "entry": self.entry.name,
                    "other": self.other,
                    "board": self.board_number,
                }
            return gettext("%(entry)s: your match is on board %(board)s.") % {
                "entry": self.entry.name,
                "board": self.board_number,
            }
        if self.kind == self.Kind.TO_VALIDATE:
            return gettext(
                "%(entry)s: %(other)s's card of game %(game)s waits for your validation."
            ) % {"entry": self.entry.name, "other": self.other, "game": self.game_number}
        return gettext(
            "%(entry)s: the head referee ruled on your game %(game)s against %(other)s."
        ) % {
            "entry": self.entry.name,
            "game": self.game_number,
            "other": self.other,
        }


class PushSubscription(models.Model):
    """A phone (its browser's push service address and keys) that receives an entry's calls.

    Made only from the entry's own identity (its private link, or the login of its player);
    deleted when its push service answers that it is gone (404 or 410), or from the phone."""

    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000)
    #: The browser's public key (P-256, base64url) and its authentication secret: what the
    #: payload is encrypted for (RFC 8291).
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    #: The language of the page the phone subscribed from: the calls are worded in it.
    language = models.CharField(max_length=10, blank=True, default="")
    user_agent = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entry", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "endpoint"], name="push_unique_per_entry"),
        ]

    def __str__(self) -> str:
        return gettext("phone of %(entry)s") % {"entry": self.entry}
