"""Who may open a tournament's page, and the one way a page refuses.

Every app's pages load their tournament and check a permission the same way: an unknown
tournament is a 404 page that names it, an anonymous visitor is sent to log in, and a logged-in
user without the permission gets one readable 403 page (``forbidden.html``) saying who may.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from tournaments.models import Tournament
from tournaments.private_links import holds_links

View = Callable[..., HttpResponse]

#: The permission of the organizer pages and of starting simulation work.
MANAGE = "tournaments.manage_tournament"


def refuse(
    request: HttpRequest, message: str, tournament: Tournament | None = None
) -> HttpResponse:
    """The login page for an anonymous visitor; for anyone else a 403 page with ``message``
    (who may do this) and a way back, never a bare status."""
    if not request.user.is_authenticated and not holds_links(request.user):
        return redirect_to_login(request.get_full_path())
    return render(
        request, "forbidden.html", {"tournament": tournament, "message": message}, status=403
    )


def missing(
    request: HttpRequest, message: str, tournament: Tournament | None = None
) -> HttpResponse:
    """A 404 page that says what was not found."""
    return render(
        request,
        "tournaments/public/missing.html",
        {"tournament": tournament, "message": message},
        status=404,
    )


def tournament_page(permission: str | None = None, refusal: str = "") -> Callable[[View], View]:
    """Load the tournament of the URL's ``slug`` and, with ``permission``, let in only the users
    who hold it on that tournament (``refusal`` says who does). The view receives the tournament
    instead of its slug."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            tournament = Tournament.objects.filter(slug=slug).first()
            if tournament is None:
                return missing(
                    request, gettext("There is no tournament “%(slug)s”.") % {"slug": slug}
                )
            if permission is not None and not request.user.has_perm(permission, tournament):
                return refuse(request, refusal, tournament)
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorate


def safe_next(request: HttpRequest, default: str, *, within: str = "") -> str:
    """The ``next`` the form or the query string gave, if it stays on this site (and, with
    ``within``, under that path); else ``default``. Never an open redirect."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return default
    if within and not target.startswith(within):
        return default
    return target
