"""Pages a club may put on its own website in an ``<iframe>``, as Challonge's embeds are.

Every other page of the site refuses to be framed (``X-Frame-Options: DENY`` and the CSP's
``frame-ancestors 'none'``, config/settings.py), so a hostile page cannot lay a button of ours
under its own. The embed pages only show what the public pages show, with no form and no link
that acts, so letting any site frame them gives a clickjacker nothing to click;
:func:`embeddable` lifts both refusals for those views alone, and the rest stay denied.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from html import escape
from typing import Any

from csp.decorators import csp_replace
from django.http import HttpRequest, HttpResponse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

#: How tall the copied ``<iframe>`` is, per kind of embed: enough to show a first screenful
#: without the club's page gaining a second scrollbar for a short stage.
EMBED_HEIGHTS = {"standings": 640, "bracket": 520, "schedule": 560}

View = Callable[..., HttpResponse]


def embeddable(view: View) -> View:
    """A read-only GET view that other sites may frame: no ``X-Frame-Options`` header and a
    CSP whose ``frame-ancestors`` allows any site (the rest of the policy is unchanged, so the
    page still runs only this site's own script files)."""
    framed = xframe_options_exempt(csp_replace({"frame-ancestors": ["*"]})(require_GET(view)))

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return framed(request, *args, **kwargs)

    return wrapper


def embed_snippet(request: HttpRequest, path: str, title: str, kind: str) -> str:
    """The ``<iframe>`` a club pastes into its page: an absolute address (the snippet is used
    on another site), a title for screen readers, and no border, as a plain HTML string the
    template escapes into a read-only field."""
    url = escape(request.build_absolute_uri(path), quote=True)
    height = EMBED_HEIGHTS.get(kind, 560)
    return (
        f'<iframe src="{url}" title="{escape(title, quote=True)}" width="100%" height="{height}" '
        'style="border:0;max-width:100%" loading="lazy"></iframe>'
    )
