"""The registry: one person across every event.

A tournament's ``Player`` is a person at one event; ``Person`` is the human behind every such
player, so that the Anna of the club night is known as the Anna of the provincial championship.
Records (games, ratings, profiles) hang on the person, never on a player.
"""

import unicodedata

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords


def name_key(*parts: str) -> str:
    """A name as matching compares it: accents, case, punctuation and extra spaces ignored
    ("Émile  O'Brien" and "emile obrien" give the same key)."""
    text = " ".join(p for p in parts if p)
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    kept = "".join(c if c.isalnum() or c.isspace() else "" for c in bare.casefold())
    return " ".join(kept.split())


class Person(models.Model):
    """One human in the site-wide registry, linked from every tournament's players."""

    class Discipline(models.TextChoices):
        FINGERS = "fingers", gettext_lazy("Fingers")
        CUE = "cue", gettext_lazy("Cue")
        BOTH = "both", gettext_lazy("Fingers and cue")

    class Visibility(models.TextChoices):
        """What the public sees of a person: the NCA and most federations publish results by
        name; a profile (games, rating, head-to-head) is the person's choice once claimed."""

        PROFILE = "profile", gettext_lazy("My profile is public")
        NAME_ONLY = "name-only", gettext_lazy("Only my name in results")

    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    #: The federation's or association's ID number (empty when unknown).
    id_number = models.CharField(max_length=40, blank=True, default="")
    federation = models.CharField(max_length=60, blank=True, default="")
    club = models.CharField(max_length=100, blank=True, default="")
    country = models.CharField(max_length=60, blank=True, default="")
    discipline = models.CharField(
        max_length=10, choices=Discipline.choices, default=Discipline.FINGERS
    )
    #: :func:`name_key` of first and last name, kept for matching (set on save).
    key = models.CharField(max_length=210, db_index=True, editable=False, default="")
    #: The account that claimed this person (with its private link or its own login).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="persons",
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PROFILE
    )
    #: Set when this person was found to be a duplicate and merged: everything of theirs moved
    #: to ``merged_into``; the row stays so that old links and the history still resolve.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="merged"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["last_name", "first_name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "id_number"],
                condition=~models.Q(id_number="") & models.Q(merged_into__isnull=True),
                name="person_unique_id_number",
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs) -> None:
        self.key = name_key(self.first_name, self.last_name)
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "key"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()
