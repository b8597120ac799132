"""Who a browser acts for through private links, for the permission predicates.

A player without an account opens their entry's private link once; the link view remembers
``(entry id, token)`` in the session. ``PrivateLinkMiddleware`` copies those pairs onto
``request.user`` (an ``AnonymousUser`` or a logged-in user alike) as ``entry_links``, so that
``user.has_perm(perm, row)`` keeps its one signature everywhere: the ``rules`` predicates call
``linked_entry_ids(user)``, which keeps only the pairs whose token is still current (one query a
request, cached on the user object). Renewing a link therefore locks out every browser that held
the old one at its next request, without touching their sessions. A user object that did not come
through a request (services called from the shell, tasks, tests) holds no links: only its login
counts.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse

from tournaments.models import EntryLink

SESSION_KEY = "entry_links"
#: The session key of this browser's device label (see :func:`device_of`).
DEVICE_KEY = "device"


def remember(request: HttpRequest, link: EntryLink) -> None:
    """This browser now acts for the link's entry (until the link is renewed)."""
    pairs = [p for p in request.session.get(SESSION_KEY, []) if p[0] != link.entry_id]
    pairs.append([link.entry_id, link.token])
    request.session[SESSION_KEY] = pairs
    request.user.entry_links = [tuple(p) for p in pairs]
    _forget_cache(request.user)
    label_device(request)


def forget(request: HttpRequest, entry_id: int) -> bool:
    """This browser stops acting for the entry (its link is dropped from the session); whether
    it held it."""
    pairs = request.session.get(SESSION_KEY, [])
    kept = [p for p in pairs if p[0] != entry_id]
    if len(kept) == len(pairs):
        return False
    request.session[SESSION_KEY] = kept
    request.user.entry_links = [tuple(p) for p in kept]
    _forget_cache(request.user)
    return True


def label_device(request: HttpRequest) -> str:
    """Give the request's browser its device label (a few letters kept in its session, made on
    first need) and put it on ``request.user`` for the services (:func:`device_of`). Called by
    the views that sign something, so public pages never make a session for it."""
    label = request.session.get(DEVICE_KEY)
    if not label:
        label = secrets.token_hex(3).upper()
        request.session[DEVICE_KEY] = label
    request.user.device_label = label
    return label


def device_of(user) -> str:
    """The label of the browser a signature came from (see :func:`label_device`), so that the
    table and the row's history tell two phones apart; empty for a user that did not come
    through a browser session (the API's tokens, tasks, the shell)."""
    return getattr(user, "device_label", "") or ""


def linked_entry_ids(user) -> frozenset[int]:
    """The entries this user acts for through a current private link (not through their login)."""
    cached = getattr(user, "_linked_entry_ids", None)
    if cached is not None:
        return cached
    pairs = getattr(user, "entry_links", None) or ()
    ids: frozenset[int] = frozenset()
    if pairs:
        current = dict(
            EntryLink.objects.filter(entry_id__in=[e for e, _ in pairs]).values_list(
                "entry_id", "token"
            )
        )
        ids = frozenset(e for e, token in pairs if current.get(e) == token)
    user._linked_entry_ids = ids
    return ids


def holds_links(user) -> bool:
    """Whether the browser holds any current private link (a visitor who is not anonymous to
    the scorecard pages even without a login)."""
    return bool(linked_entry_ids(user))


def _forget_cache(user) -> None:
    if hasattr(user, "_linked_entry_ids"):
        del user._linked_entry_ids


class PrivateLinkMiddleware:
    """Put the session's private links on ``request.user`` (after the authentication
    middleware). Requests without links are left untouched, so the user is not even loaded."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        pairs = request.session.get(SESSION_KEY)
        if pairs:
            request.user.entry_links = [tuple(p) for p in pairs]
        return self.get_response(request)


def login_or_link_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Like ``login_required``, but a browser holding a current private link is let in too: the
    view's own permission checks then decide what it may do on which card."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated or holds_links(request.user):
            return view(request, *args, **kwargs)
        return redirect_to_login(request.get_full_path())

    return wrapper
