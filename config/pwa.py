"""The installable web app: its manifest and its service worker, served from the site's root.

A service worker controls the pages under the folder it is served from, so it is served at
``/sw.js`` (scope ``/``) rather than from ``/static/``; its text comes from
``templates/pwa/sw.js`` with the addresses of the site's files filled in, and a version drawn
from those files, so that a change of one of them installs a new worker, which starts a new copy
of the files on the phones. The manifest names the app in the visitor's language and gives its
icons; Chrome and Edge on Android offer to install it, Safari on an iPhone adds it to the home
screen from the share menu.
"""

from __future__ import annotations

import hashlib

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: The colour of the site's bar (static/css/app.css, --accent): the phone's status bar takes it.
THEME_COLOUR = "#7a3e12"
BACKGROUND_COLOUR = "#fbfaf7"
#: The site files whose change installs a new worker (and so a fresh copy of the files on the
#: phones). The worker keeps each file as a page uses it; it fetches nothing ahead when it
#: installs, which would race the page's own first requests for the same files.
KEPT_FILES = (
    "css/app.css",
    "django_htmx/htmx-2.min.js",
    "js/register-sw.js",
    "js/outbox.js",
    "js/steppers.js",
    "js/clock.js",
)
JAVASCRIPT = "text/javascript; charset=utf-8"  # untranslated: a media type
MANIFEST = "application/manifest+json; charset=utf-8"  # untranslated: a media type
#: Imported by the worker when present: the push handler of the calls to a player's phone.
PUSH_HANDLER = "js/sw-push.js"
ICONS = (
    ("img/icon.svg", "any", "image/svg+xml", "any"),
    ("img/icon-192.png", "192x192", "image/png", "any"),
    ("img/icon-512.png", "512x512", "image/png", "any"),
    ("img/icon-maskable-512.png", "512x512", "image/png", "maskable"),
)


def start_path() -> str:
    """Where the installed app starts: the site's landing, which the worker turns into the card
    page the phone last opened (a player who has only their private link has no login that
    would lead there)."""
    return f"{reverse('landing')}?app=1"


def _found(path: str) -> str | None:
    """The file's place on disk, if the site has it."""
    found = finders.find(path)
    return found if isinstance(found, str) else None


def _version(paths: list[str | None]) -> str:
    """A short digest of the worker's template and the files it keeps: it changes, and a new
    worker installs, whenever one of them does."""
    digest = hashlib.sha256()
    for path in paths:
        if path:
            with open(path, "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()[:12]


@require_GET
@cache_control(no_cache=True, max_age=0)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the root so that it controls every page (scope ``/``)."""
    template = get_template("pwa/sw.js")
    push = _found(PUSH_HANDLER)
    version = _version([template.origin.name, *(_found(path) for path in KEPT_FILES), push])
    body = template.render(
        {
            "version": version,
            "static_prefix": static(""),
            "start_path": start_path(),
            "outbox_url": static("js/outbox.js"),
            "push_url": static(PUSH_HANDLER) if push else "",
            "offline_words": _(
                "No network, and this phone has not kept this page yet. Open your card once "
                "while online, and it will be kept for the next time."
            ),
        }
    )
    response = HttpResponse(body, content_type=JAVASCRIPT)
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what a phone shows when the app is added to its home screen."""
    data = {
        "name": _("Crokinole Tournament Manager"),
        "short_name": _("Crokinole"),
        "description": _("Scorecards, the round clock and calls at the board, offline too."),
        "start_url": start_path(),
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": kind, "purpose": purpose}
            for path, sizes, kind, purpose in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = MANIFEST
    return response
