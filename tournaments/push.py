"""Web Push: a call sent to the phones that asked for an entry's calls.

Each phone's browser gave, when it subscribed (``static/js/push.js``), the address of its push
service and the keys to encrypt for (RFC 8291, ``aes128gcm``); the push is signed with the
site's VAPID key pair (RFC 8292, ``VAPID_PRIVATE_KEY`` and ``VAPID_PUBLIC_KEY``). A push service
that answers 404 or 410 says the subscription is gone (the phone unsubscribed, the browser data
was cleared): it is deleted, so it is never tried again. Any other failure is logged and left: a
push is a courtesy, the call is kept and shown on the pages either way.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from pywebpush import WebPushException, webpush

from tournaments.models import Call, PushSubscription

log = logging.getLogger(__name__)

#: Seconds to wait for a push service: a call is sent from a worker, never holding a page.
TIMEOUT_S = 10
#: How long a push service keeps a call for a phone that is off: a call older than a round of
#: play is no longer news.
TTL_S = 30 * 60
#: The answers of a push service that mean the subscription no longer exists.
GONE = (404, 410)


def push_enabled() -> bool:
    """Whether the site has its VAPID keys, without which no push is sent."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


@dataclass(frozen=True)
class Sent:
    """What became of one call's pushes."""

    delivered: int = 0
    gone: int = 0
    failed: int = 0


def payload(call: Call, language: str = "") -> dict[str, str]:
    """What the service worker shows (``static/js/sw-push.js``): the title, the words in the
    phone's language, and the page the notification opens."""
    with translation.override(language or settings.LANGUAGE_CODE):
        return {
            "title": call.tournament.name,
            "body": call.text,
            "url": call.url or "/",
            "tag": f"call-{call.pk}",
        }


def send_call(call: Call) -> Sent:
    """Push ``call`` to every phone subscribed to its entry; delete those that are gone."""
    if not push_enabled():
        return Sent()
    delivered = gone = failed = 0
    for subscription in PushSubscription.objects.filter(entry_id=call.entry_id):
        info = {
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        }
        data = json.dumps(payload(call, subscription.language))
        try:
            webpush(
                info,
                data=data,
                vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                timeout=TIMEOUT_S,
                ttl=TTL_S,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                subscription.delete()
                gone += 1
                continue
            log.warning("Push to %s failed: %s", subscription.endpoint[:60], exc.message)
            failed += 1
        except (OSError, ValueError) as exc:  # unreachable service, a malformed stored key
            log.warning("Push to %s failed: %s", subscription.endpoint[:60], exc)
            failed += 1
        else:
            delivered += 1
    return Sent(delivered=delivered, gone=gone, failed=failed)
