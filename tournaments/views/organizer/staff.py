"""The staff page: who holds which role at the tournament, inviting accounts to roles (and
withdrawing the invitations), taking back roles, creating staff accounts with a set-password
link shown once (with a copy button and its QR code), a new link for an account made here at any
time, unlocking a login locked out after failed sign-ins, the site permission to create
tournaments, and the log of every change (``services.staff``, ``services.invitations``; the
link and the unlock are steps of ``tournaments.staff_actions``, which decide their buttons).

Every button acts on an account that holds a role here, or on an invitation of this
tournament; any other id posted is refused in words, the same whether it names an account of
the site or nothing. Inviting, creating an account, taking a role back, withdrawing an
invitation and the permission to create tournaments are steps of ``tournaments.role_actions``,
which decide their buttons too."""

from __future__ import annotations

from dataclasses import dataclass, field

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache

from tournaments.actions import Refused, refusal_text, refusals
from tournaments.models import RoleChange, Tournament, TournamentRole
from tournaments.role_actions import (
    STAFF_LINE_STEPS,
    allow_creating,
    create_staff_account,
    disallow_creating,
    invite_to_role,
    revoke_role,
    withdraw_invitation,
)
from tournaments.selectors import staff_roles
from tournaments.services import invitations, staff
from tournaments.staff_actions import STAFF_ACCOUNT_STEPS, reissue_password_link, unlock_login
from tournaments.views.access import tournament_page
from tournaments.views.organizer.common import TEMPLATES, form_errors_from

Role = TournamentRole.Role
ROLE_CHOICES = [(str(r), r.label) for r in staff.STAFF_ROLES]
#: Where the one-time set-password link waits between the POST and the page that shows it.
LINK_KEY = "staff-set-password-link"

staff_page = tournament_page(
    "tournaments.manage_staff",
    _("The staff page is for the tournament's organizers and co-organizers."),
)


class GrantForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(choices=ROLE_CHOICES)


class AccountForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))
    first_name = forms.CharField(max_length=150, label=_("First name"))
    last_name = forms.CharField(max_length=150, label=_("Last name"))
    role = forms.ChoiceField(choices=ROLE_CHOICES)


class MayCreateForm(forms.Form):
    username = forms.CharField(max_length=150, label=_("Username"))


@dataclass
class RoleLine:
    """A role an account holds here, and why it may not be taken back (None: the button)."""

    held: TournamentRole
    refused: Refused | None = None


@dataclass
class StaffLine:
    """One account with its roles here, and what the page offers for it."""

    user: AbstractBaseUser
    roles: list[RoleLine] = field(default_factory=list)
    may_create: bool = False
    #: No password chosen yet, never signed in with.
    never_used: bool = False
    #: Each step of the line's buttons (``STAFF_ACCOUNT_STEPS``, ``STAFF_LINE_STEPS``) with its
    #: refusal for whoever reads the page, keyed by the step's last name; None: the button.
    refused: dict[str, Refused | None] = field(default_factory=dict)


def staff_lines(tournament: Tournament, user: AbstractBaseUser | None = None) -> list[StaffLine]:
    """Everyone with a role at the tournament, by username (two queries); never the
    simulation's accounts (``selectors.staff_roles``). With ``user``, what each line's buttons
    offer to them, as the steps decide (a few queries a line)."""
    lines: dict[int, StaffLine] = {}
    for held in staff_roles(tournament):
        line = lines.setdefault(held.user_id, StaffLine(user=held.user))
        line.roles.append(RoleLine(held, revoke_role.refusal(user, held) if user else None))
    creators = set(
        get_user_model()
        .objects.filter(
            pk__in=lines,
            user_permissions__content_type__app_label="tournaments",
            user_permissions__codename="add_tournament",
        )
        .values_list("pk", flat=True)
    )
    for pk, line in lines.items():
        line.may_create = line.user.is_superuser or pk in creators
        line.never_used = staff.never_used(line.user)
        if user is None:
            continue
        account = staff.StaffAccount(tournament, line.user)
        line.refused = refusals(user, account, (*STAFF_ACCOUNT_STEPS, *STAFF_LINE_STEPS))
    return list(lines.values())


@never_cache
@staff_page
def staff_view(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """GET shows the page (and, once, a set-password link just made); POST does one change
    named by ``action`` and comes back here."""
    grant = GrantForm(prefix="grant")
    account = AccountForm(prefix="account")
    may_create = MayCreateForm(prefix="may")
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "grant":
                grant = GrantForm(request.POST, prefix="grant")
                if grant.is_valid():
                    return _grant(request, tournament, grant)
            elif action == "create":
                account = AccountForm(request.POST, prefix="account")
                if account.is_valid():
                    return _create(request, tournament, account)
            elif action == "may-create":
                may_create = MayCreateForm(request.POST, prefix="may")
                if may_create.is_valid():
                    return _allow_creating(request, tournament, may_create)
            elif action in ("revoke", "link", "unlock", "may-not-create"):
                return _row_action(request, tournament, action)
            elif action == "withdraw":
                return _withdraw(request, tournament)
            else:
                messages.error(request, gettext("Unknown change; nothing was done."))
                return redirect("tournaments:manage-staff", tournament.slug)
        except ValidationError as exc:
            form = {"grant": grant, "create": account, "may-create": may_create}[action]
            form_errors_from(form, exc)
    bound = any(f.is_bound for f in (grant, account, may_create))
    return render(
        request,
        f"{TEMPLATES}/staff.html",
        {
            "tournament": tournament,
            "lines": staff_lines(tournament, request.user),
            "log": RoleChange.objects.filter(tournament=tournament)[:200],
            "invitations": invitations.pending_of(tournament),
            "grant_form": grant,
            "account_form": account,
            "may_create_form": may_create,
            "new_link": None if bound else request.session.pop(LINK_KEY, None),
        },
        status=400 if bound else 200,
    )


def _back(tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:manage-staff", tournament.slug)


def _grant(request: HttpRequest, tournament: Tournament, form: GrantForm) -> HttpResponse:
    """An invitation to the account typed, answered in the same words whether it exists."""
    invitation = invite_to_role(request.user, tournament, **form.cleaned_data)
    messages.success(request, invitations.invitation_sent(invitation.username))
    return _back(tournament)


def _withdraw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        invitation = invitations.of_tournament(tournament, request.POST.get("invitation"))
        withdraw_invitation(request.user, invitation)
    except ValidationError as exc:
        messages.error(request, refusal_text(exc))
    else:
        messages.success(
            request,
            gettext("Withdrew the invitation to “%(username)s”.")
            % {"username": invitation.username},
        )
    return _back(tournament)


def _create(request: HttpRequest, tournament: Tournament, form: AccountForm) -> HttpResponse:
    user, path = create_staff_account(request.user, tournament, **form.cleaned_data)
    _keep_link(request, user, path)
    messages.success(
        request,
        gettext("Created %(username)s as %(role)s.")
        % {"username": user.get_username(), "role": Role(form.cleaned_data["role"]).label},
    )
    return _back(tournament)


def _keep_link(request: HttpRequest, user: AbstractBaseUser, path: str) -> None:
    request.session[LINK_KEY] = {
        "username": user.get_username(),
        "url": request.build_absolute_uri(path),
        # the page then says that the password they chose works until the link is used
        "used": not staff.never_used(user),
    }


def _allow_creating(
    request: HttpRequest, tournament: Tournament, form: MayCreateForm
) -> HttpResponse:
    """The form that gives a staff member the permission to create tournaments: its step."""
    user = staff.find_staff_member(tournament, form.cleaned_data["username"])
    allow_creating(request.user, staff.StaffAccount(tournament, user))
    messages.success(
        request,
        gettext("%(username)s may now create tournaments.") % {"username": user.get_username()},
    )
    return _back(tournament)


def _row_action(request: HttpRequest, tournament: Tournament, action: str) -> HttpResponse:
    """The buttons of a staff line: take back a role, a new set-password link, unlock the login,
    take back the permission. They act on an account holding a role here only; their refusals
    come back as a message above the page."""
    try:
        user = staff.staff_member(tournament, request.POST.get("user"))
        account = staff.StaffAccount(tournament, user)
        if action == "revoke":
            held = staff.held_role(tournament, user, request.POST.get("role", ""))
            revoke_role(request.user, held)
            messages.success(
                request,
                gettext("Took back %(role)s from %(username)s.")
                % {"role": held.get_role_display(), "username": user.get_username()},
            )
        elif action == "link":
            _keep_link(request, user, reissue_password_link(request.user, account))
        elif action == "unlock":
            unlock_login(request.user, account)
            messages.success(
                request,
                gettext("%(username)s is unlocked: they can sign in again now.")
                % {"username": user.get_username()},
            )
        else:
            disallow_creating(request.user, account)
            messages.success(
                request,
                gettext("%(username)s may no longer create tournaments.")
                % {"username": user.get_username()},
            )
    except ValidationError as exc:
        messages.error(request, refusal_text(exc))
    return _back(tournament)
