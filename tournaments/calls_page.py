"""What a player's pages show of the calls: the entry's latest calls, and the "Notify me on this
phone" button with what its script needs (the VAPID public key, where to post), or why there is
no button (push is off on this server; this browser does not act for the entry)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse

from tournaments.actions import Refused
from tournaments.call_actions import follow_calls
from tournaments.models import Call, Entry
from tournaments.push import push_enabled
from tournaments.services.calls import recent_calls


@dataclass(frozen=True)
class CallsPanel:
    entry: Entry
    calls: list[Call]
    #: Push is configured on this server (VAPID keys).
    enabled: bool
    #: Why this user may not follow the entry's calls (None: they may).
    refusal: Refused | None
    public_key: str
    follow_url: str
    stop_url: str

    @property
    def offered(self) -> bool:
        return self.enabled and self.refusal is None


def calls_panel(user, entry: Entry) -> CallsPanel:
    slug = entry.category.tournament.slug
    return CallsPanel(
        entry=entry,
        calls=recent_calls(tournament_id=entry.category.tournament_id, entry_ids=[entry.id]),
        enabled=push_enabled(),
        refusal=follow_calls.refusal(user, entry),
        public_key=settings.VAPID_PUBLIC_KEY,
        follow_url=reverse("tournaments:follow_calls", args=[slug, entry.id]),
        stop_url=reverse("tournaments:stop_calls", args=[slug, entry.id]),
    )
