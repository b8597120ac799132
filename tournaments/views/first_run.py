"""The setup link's page, ``/setup/<token>/``: the first account of an empty site
(``services.first_run``), signed in at once and sent on to create the first tournament.

The sign-in goes through Django's ``authenticate``, so django-axes' lockout applies as on the
login page: an address locked out for too many wrong passwords gets the same 429 answer here,
before any account is made. A link that cannot be used (not made by this site, expired, or the
site has an account) gets a page saying why, never the form.
"""

from __future__ import annotations

from axes.handlers.proxy import AxesProxyHandler
from django import forms
from django.contrib import messages
from django.contrib.auth import authenticate, login
from django.contrib.auth.forms import SetPasswordMixin
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters

from config.security import lockout_response
from tournaments.services import first_run
from tournaments.views.organizer.common import form_errors_from

#: The status of each refusal: a link this site never made is unknown, the others are gone.
REFUSAL_STATUS = {first_run.FORGED: 404, first_run.EXPIRED: 410, first_run.USED: 410}


class FirstAccountForm(SetPasswordMixin, forms.Form):
    """The first account: its username, the name people see, and a password typed twice (the
    mismatch check and its message are Django's)."""

    username = forms.CharField(max_length=150, label=_("Username"))
    first_name = forms.CharField(max_length=150, required=False, label=_("First name"))
    last_name = forms.CharField(max_length=150, required=False, label=_("Last name"))
    password, password2 = SetPasswordMixin.create_password_fields(
        label1=_("Password"), label2=_("The same again")
    )

    def clean(self) -> dict:
        self.validate_passwords("password", "password2")
        return super().clean()


def _refusal(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return render(
        request,
        "tournaments/first_run.html",
        {"refusal": " ".join(exc.messages)},
        status=REFUSAL_STATUS.get(exc.code, 410),
    )


@never_cache
@sensitive_post_parameters("password", "password2")
def setup_view(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows the form while the link works; POST creates the account, signs it in and leads
    to the new-tournament page."""
    try:
        first_run.check_setup_token(token)
    except ValidationError as exc:
        return _refusal(request, exc)
    form = FirstAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        credentials = {"username": data["username"]}
        if not AxesProxyHandler.is_allowed(request, credentials):
            return lockout_response(request, credentials=credentials)
        try:
            user = first_run.create_first_account(
                token=token,
                username=data["username"],
                password=data["password"],
                first_name=data["first_name"],
                last_name=data["last_name"],
            )
        except ValidationError as exc:
            if getattr(exc, "code", None) in REFUSAL_STATUS:
                return _refusal(request, exc)
            form_errors_from(form, exc)
        else:
            signed_in = authenticate(
                request, username=user.get_username(), password=data["password"]
            )
            if signed_in is None:
                # Locked out between the check above and now (the middleware then answers with
                # the lockout page): the account stays, and its owner logs in once allowed.
                messages.info(request, gettext("Your account is created: log in with it."))
                return redirect("login")
            login(request, signed_in)
            messages.success(
                request,
                gettext(
                    "Welcome, %(username)s: your account may create tournaments. Create the "
                    "first one here."
                )
                % {"username": user.get_username()},
            )
            return redirect("tournament-create")
    return render(request, "tournaments/first_run.html", {"form": form})
