"""A tournament's staff: giving and taking back roles, creating staff accounts, and the site
permission to create tournaments.

The staff page and the API both call these functions, so they refuse the same things in the
same words; the callers check that the actor may manage the staff (``tournaments.manage_staff``).
Every change is appended to the tournament's ``RoleChange`` log with who made it, and the roles
themselves keep a history (django-simple-history) naming the actor, shown on the audit page.

A new account gets no password from the organizer: it gets a set-password link made with Django's
password-reset tokens, shown once to the organizer, who hands it over; the person then chooses
their own password at /accounts/reset/…. The token is derived from the account's password and
last login, so it stops working the moment it is used, and after ``PASSWORD_RESET_TIMEOUT``.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.models import RoleChange, Tournament, TournamentRole

Role = TournamentRole.Role
Action = RoleChange.Action

#: The roles the staff page gives and takes back. The organizer role stays with whoever created
#: the tournament; a co-organizer has the same permissions.
STAFF_ROLES = (Role.CO_ORGANIZER, Role.HEAD_REFEREE, Role.REFEREE, Role.SCORING_TABLE)


def _label(role: str) -> str:
    return Role(role).label


def _check_staff_role(role: str) -> None:
    if role == Role.ORGANIZER:
        raise ValidationError(
            {
                "role": _(
                    "The organizer role stays with the tournament's creator; give "
                    "“Co-organizer” for the same permissions."
                )
            }
        )
    if role not in STAFF_ROLES:
        choices = ", ".join(_label(r) for r in STAFF_ROLES)
        raise ValidationError(
            {
                "role": _("Unknown role %(role)s: choose one of %(choices)s.")
                % {"role": repr(role), "choices": choices}
            }
        )


def find_user(username: str) -> AbstractBaseUser:
    """The account with this username (as typed, case-insensitive), or a refusal saying how to
    create it."""
    username = (username or "").strip()
    if not username:
        raise ValidationError({"username": _("Type the username of the account.")})
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise ValidationError(
            {
                "username": _(
                    "There is no account “%(username)s”. Check the spelling, or create "
                    "the account below."
                )
                % {"username": username}
            }
        )
    return user


def _log(
    tournament: Tournament, actor: AbstractBaseUser, user: AbstractBaseUser, action: str, role=""
) -> RoleChange:
    return RoleChange.objects.create(
        tournament=tournament,
        actor=actor,
        actor_username=actor.get_username(),
        user=user,
        username=user.get_username(),
        action=action,
        role=role,
    )


@transaction.atomic
def grant_role(
    *, tournament: Tournament, user: AbstractBaseUser, role: str, actor: AbstractBaseUser
) -> TournamentRole:
    """Give ``user`` a staff role at the tournament; a role they hold already is refused."""
    _check_staff_role(role)
    if TournamentRole.objects.filter(tournament=tournament, user=user, role=role).exists():
        raise ValidationError(
            {
                "role": _("%(user)s is already %(role)s at %(tournament)s.")
                % {"user": user.get_username(), "role": _label(role), "tournament": tournament.name}
            }
        )
    granted = TournamentRole(tournament=tournament, user=user, role=role)
    granted._history_user = actor
    granted._change_reason = _("%(role)s given to %(user)s") % {
        "role": _label(role),
        "user": user.get_username(),
    }
    granted.save()
    _log(tournament, actor, user, Action.GRANTED, role)
    return granted


@transaction.atomic
def revoke_role(
    *, tournament: Tournament, user: AbstractBaseUser, role: str, actor: AbstractBaseUser
) -> None:
    """Take back a staff role; the account stays, with any other role it holds."""
    _check_staff_role(role)
    held = TournamentRole.objects.filter(tournament=tournament, user=user, role=role).first()
    if held is None:
        raise ValidationError(
            {
                "role": _("%(user)s is not %(role)s at %(tournament)s.")
                % {"user": user.get_username(), "role": _label(role), "tournament": tournament.name}
            }
        )
    # Deleted one by one (not through the queryset) so that the history row it leaves names
    # who took the role back and why.
    held._history_user = actor
    held._change_reason = _("%(role)s taken back from %(user)s") % {
        "role": _label(role),
        "user": user.get_username(),
    }
    held.delete()
    _log(tournament, actor, user, Action.REVOKED, role)


def set_password_path(user: AbstractBaseUser) -> str:
    """The path where ``user`` chooses a password (Django's password-reset confirmation)."""
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("password_reset_confirm", kwargs={"uidb64": uidb64, "token": token})


@transaction.atomic
def create_account(
    *,
    tournament: Tournament,
    username: str,
    first_name: str,
    last_name: str,
    role: str,
    actor: AbstractBaseUser,
) -> tuple[AbstractBaseUser, str]:
    """Create a staff member's account with ``role`` at the tournament, and return it with the
    path of its set-password link (to show once; nobody else ever knows the password)."""
    _check_staff_role(role)
    User = get_user_model()
    username = (username or "").strip()
    user = User(
        username=username,
        first_name=(first_name or "").strip(),
        last_name=(last_name or "").strip(),
    )
    user.set_unusable_password()
    if username and User.objects.filter(username__iexact=username).exists():
        raise ValidationError(
            {
                "username": _(
                    "The username “%(username)s” is taken: give that account the role "
                    "above, or choose another username."
                )
                % {"username": username}
            }
        )
    user.full_clean(exclude=["password"])
    user.save()
    _log(tournament, actor, user, Action.ACCOUNT_CREATED)
    grant_role(tournament=tournament, user=user, role=role, actor=actor)
    _log(tournament, actor, user, Action.LINK_ISSUED)
    return user, set_password_path(user)


@transaction.atomic
def renew_set_password_link(
    *, tournament: Tournament, user: AbstractBaseUser, actor: AbstractBaseUser
) -> str:
    """A new set-password link for an account created on this staff page whose owner has not
    chosen a password yet (the first link was lost, or ran out). An account with a password is
    its owner's: nobody else may reset it from here."""
    created_here = RoleChange.objects.filter(
        tournament=tournament, user=user, action=Action.ACCOUNT_CREATED
    ).exists()
    if not created_here:
        raise ValidationError(
            _(
                "%(user)s was not created on this staff page; only its owner (or a "
                "superuser) can change its password."
            )
            % {"user": user.get_username()}
        )
    if user.has_usable_password():
        raise ValidationError(
            _("%(user)s has chosen a password already and can log in with it.")
            % {"user": user.get_username()}
        )
    _log(tournament, actor, user, Action.LINK_ISSUED)
    return set_password_path(user)


def _add_tournament_permission() -> Permission:
    return Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")


def may_create_tournaments(user: AbstractBaseUser) -> bool:
    """Whether ``user`` holds the site permission itself (a superuser always may), read fresh
    from the database rather than from the user's permission cache."""
    if user.is_superuser:
        return True
    return user.user_permissions.filter(pk=_add_tournament_permission().pk).exists()


@transaction.atomic
def set_may_create_tournaments(
    *, tournament: Tournament, user: AbstractBaseUser, allowed: bool, actor: AbstractBaseUser
) -> None:
    """Give or take back the site permission to create tournaments (``tournaments.add_tournament``).

    An organizer gives it from their own tournament's staff page, where it is logged; taking it
    back is for the staff of this tournament only, so one organizer cannot strip an organizer
    of another event. A superuser's permission is the superuser's and is not changed here.
    """
    if user.is_superuser:
        raise ValidationError(
            _("%(user)s is a superuser and may create tournaments in any case.")
            % {"user": user.get_username()}
        )
    if allowed == may_create_tournaments(user):
        if allowed:
            refusal = _("%(user)s may already create tournaments.")
        else:
            refusal = _("%(user)s may not create tournaments.")
        raise ValidationError(refusal % {"user": user.get_username()})
    permission = _add_tournament_permission()
    if allowed:
        user.user_permissions.add(permission)
        _log(tournament, actor, user, Action.MAY_CREATE_GRANTED)
        return
    if not TournamentRole.objects.filter(tournament=tournament, user=user).exists():
        raise ValidationError(
            _(
                "%(user)s holds no role at %(tournament)s; only a superuser or an "
                "organizer they work for can take the permission back."
            )
            % {"user": user.get_username(), "tournament": tournament.name}
        )
    user.user_permissions.remove(permission)
    _log(tournament, actor, user, Action.MAY_CREATE_REVOKED)
