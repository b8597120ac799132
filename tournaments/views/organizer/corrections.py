"""What every correction page shares: a form that saves through a service (its refusals next
to the fields), and a delete behind a confirmation page that says what goes with the object
(a refusal of the service comes back as a message, nothing deleted)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from tournaments.actions import refusal_text
from tournaments.models import Tournament
from tournaments.views.organizer.common import TEMPLATES, form_errors_from


def edit_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    form: Form,
    title: str,
    save: Callable[[dict[str, Any]], object],
    done: str,
    delete_url: str = "",
    delete_refused: str = "",
    named: Callable[[Any], str] | None = None,
) -> HttpResponse:
    """GET shows ``form``; a valid POST calls ``save`` with its cleaned data and goes to
    ``done``; a service's ``ValidationError`` is shown on the form (status 400). The page links
    to ``delete_url``, or says why there is no delete (``delete_refused``).

    ``named`` gives the name of what ``save`` returned, for the "saved" message: after a
    rename it is the new name, not the ``title`` the page was opened with."""
    if request.method == "POST" and form.is_valid():
        try:
            saved = save(form.cleaned_data)
        except ValidationError as exc:
            form_errors_from(form, exc)
        else:
            name = named(saved) if named is not None else title
            messages.success(request, gettext("%(title)s: saved.") % {"title": name})
            return redirect(done)
    return render(
        request,
        f"{TEMPLATES}/edit.html",
        {
            "tournament": tournament,
            "form": form,
            "title": title,
            "back": done,
            "delete_url": delete_url,
            "delete_refused": delete_refused,
        },
        status=400 if form.errors else 200,
    )


def delete_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    title: str,
    goes_with_it: Sequence[str],
    delete: Callable[[], None],
    done: str,
    back: str,
) -> HttpResponse:
    """GET: what deleting would remove; POST: delete through the service and go to ``done``,
    or back to ``back`` with the service's refusal."""
    if request.method == "POST":
        try:
            delete()
        except ValidationError as exc:
            messages.error(request, refusal_text(exc))
            return redirect(back)
        messages.success(request, gettext("%(title)s: deleted.") % {"title": title})
        return redirect(done)
    return render(
        request,
        f"{TEMPLATES}/confirm_delete.html",
        {"tournament": tournament, "title": title, "goes_with_it": goes_with_it, "back": back},
    )
