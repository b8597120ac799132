import time

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords


def first_live_version() -> int:
    """Milliseconds since the epoch: a start no earlier tournament's version has reached."""
    return time.time_ns() // 1_000_000


class Tournament(models.Model):
    """One event: a club night, a tour stop or the WCC."""

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=200, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    #: WCC standings count cards verified at the scoring table; a club night may trust cards
    #: as soon as the opponent has validated them.
    count_validated_cards = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "Off (WCC): a game's result counts once the scoring table has verified its card. "
            "On: it counts as soon as the opponent has validated the row, without waiting for "
            "the table (a club night)."
        ),
    )
    #: A row typed in from a paper card may need a second staff member's confirmation before it
    #: counts (the one who typed it cannot confirm it).
    paper_rows_need_confirmation = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "A row entered from a paper card counts only once a second staff member confirms it."
        ),
    )
    #: WCC: "After four rounds (a game) have been played, players will total their scores, and
    #: hand their scorecard to their opponents for validation. The opponent reviews the scorecard
    #: ... and records their ID number and initials before moving to the next game." A club
    #: night may let players write their games in any order.
    cards_in_order = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "A card's rows are written in the order of play: the next game's row once the "
            "opponent has validated the one before (WCC)."
        ),
    )
    game_minutes = models.PositiveSmallIntegerField(
        default=30,
        help_text=gettext_lazy("Time limit per game; the buzzer ends play (WCC timing rule)."),
    )
    #: Listed on the front page. A new tournament starts as a draft that only its staff see
    #: listed; its pages answer to anyone who has the address either way.
    published = models.BooleanField(
        default=True,
        help_text=gettext_lazy(
            "List it on the front page. Drafts are listed only to their organizers."
        ),
    )
    #: Its verified games go into the site's record (ratings, the ranking, profiles): only once
    #: the site's record keepers say so, so that whoever may create a tournament cannot move real
    #: people's ratings with games nobody played (``scoring.ratings``).
    rated = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "Its verified games count for the players' ratings and the ranking (set by the "
            "site's record keepers)."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: Goes up whenever something the public pages show changes; they poll it to refresh
    #: themselves (``tournaments.live``), and what is cached per version is keyed by it. It
    #: starts from the moment of creation, so that a tournament made where another was deleted
    #: (its ids reused) never meets the other's cached pages. Not part of the audit history or
    #: the export.
    live_version = models.PositiveBigIntegerField(default=first_live_version, editable=False)

    #: Who changed what and when, before and after (the organizer's audit page).
    history = HistoricalRecords(excluded_fields=["live_version"])

    class Meta:
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(starts_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="tournament_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.slug])
