"""Requests to enter a category through its public entry form.

A request is what a player asked for; the ``Entry`` is what the organizer accepted. Keeping the
two apart lets the organizer see who asked, in what order (the waitlist is that order), who was
refused and why, and whom each request was matched to in the registry.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy
from simple_history.models import HistoricalRecords

from tournaments.models.links import new_token


class EntryRequest(models.Model):
    """One player's (or one doubles pair's) request to enter a category."""

    class Status(models.TextChoices):
        #: A doubles request waits for its partner to accept the invitation.
        AWAITING_PARTNER = "awaiting-partner", gettext_lazy("Waiting for the partner")
        PENDING = "pending", gettext_lazy("Waiting for the organizer")
        WAITLISTED = "waitlisted", gettext_lazy("On the waitlist")
        ACCEPTED = "accepted", gettext_lazy("Accepted")
        REFUSED = "refused", gettext_lazy("Refused")
        WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")

    category = models.ForeignKey(
        "tournaments.Category", on_delete=models.CASCADE, related_name="entry_requests"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    email = models.EmailField()
    id_number = models.CharField(max_length=40, blank=True, default="")
    club = models.CharField(max_length=100, blank=True, default="")
    country = models.CharField(max_length=60, blank=True, default="")
    #: The registry's person this request was matched to (or created for, once accepted).
    person = models.ForeignKey(
        "tournaments.Person",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entry_requests",
    )
    #: Doubles: the invited partner.
    partner_first_name = models.CharField(max_length=100, blank=True, default="")
    partner_last_name = models.CharField(max_length=100, blank=True, default="")
    partner_email = models.EmailField(blank=True, default="")
    partner_id_number = models.CharField(max_length=40, blank=True, default="")
    partner_person = models.ForeignKey(
        "tournaments.Person",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="partner_requests",
    )
    partner_accepted_at = models.DateTimeField(null=True, blank=True)
    #: The applicant's secret address to see and withdraw the request.
    token = models.CharField(max_length=64, unique=True, default=new_token)
    #: The partner's secret invitation address.
    partner_token = models.CharField(max_length=64, unique=True, default=new_token)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entry_requests",
    )
    #: The entry made when the organizer accepted.
    entry = models.OneToOneField(
        "tournaments.Entry",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="request",
    )
    refusal_reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["category", "created_at", "id"]

    def __str__(self) -> str:
        name = f"{self.first_name} {self.last_name}".strip()
        if self.partner_last_name:
            name += f" / {self.partner_first_name} {self.partner_last_name}".rstrip()
        return name
