"""A tournament's staff: roles taken back, staff accounts created, the site permission to create
tournaments, and the log of every change.

The staff page and the API both call these functions, so they refuse the same things in the
same words; the callers check that the actor may manage the staff (``tournaments.manage_staff``).
Every change is appended to the tournament's ``RoleChange`` log with who made it, and the roles
themselves keep a history (django-simple-history) naming the actor, shown on the audit page.

An account that exists already gets a role only by accepting an invitation
(``services.invitations``): the staff page and the API never grant anything to an account by
its name, and act on an account only when it holds a role at the tournament, with the same
refusal for every other account of the site, so that they never tell whether one exists.

A new account gets no password from the organizer: it gets a set-password link made with Django's
password-reset tokens, shown once to the organizer, who hands it over; the person then chooses
their own password at /accounts/reset/…. The token is derived from the account's password and
last login, so it stops working the moment it is used, and after ``PASSWORD_RESET_TIMEOUT``.

A new link can be made at any time (the first was lost or ran out, or its owner forgot the
password they chose), but only for an account this staff page created (``made_here``) and that
is used nowhere else (``only_here``): an account of someone who also signs in for another event,
or a site administrator's, is its owner's alone. Issuing a link changes nothing by itself: the
password the owner chose keeps working until the link is used, and the link is void as soon as
the password changes or the owner signs in (both are part of the token), so a link the owner did
not ask for dies at their next sign-in.

A login that django-axes locked out after too many wrong passwords (``config.security``) can be
unlocked from the staff page (``unlock_login``), through axes' own reset; logged like the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from axes.models import AccessAttempt
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Permission
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from tournaments.actions import Kind, Refused
from tournaments.models import Invitation, Player, RoleChange, Tournament, TournamentRole
from tournaments.models.roles import SIMULATION_USERNAMES
from tournaments.selectors import staff_roles

Role = TournamentRole.Role
Action = RoleChange.Action

#: The roles the staff page gives and takes back. The organizer role stays with whoever created
#: the tournament; a co-organizer has the same permissions.
STAFF_ROLES = (Role.CO_ORGANIZER, Role.HEAD_REFEREE, Role.REFEREE, Role.SCORING_TABLE)


def role_label(role: str) -> str:
    return Role(role).label


def check_staff_role(role: str) -> None:
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
        choices = ", ".join(role_label(r) for r in STAFF_ROLES)
        raise ValidationError(
            {
                "role": _("Unknown role %(role)s: choose one of %(choices)s.")
                % {"role": repr(role), "choices": choices}
            }
        )


def _staff_ids(tournament: Tournament) -> QuerySet:
    """The accounts of the tournament's staff list (``selectors.staff_roles``), as a subquery:
    the page's buttons act on nobody else, so never on the simulation's accounts."""
    return staff_roles(tournament).values("user_id")


def find_staff_member(tournament: Tournament, username: str) -> AbstractBaseUser:
    """The account with this username (case-insensitive) among those holding a role at the
    tournament. Anyone else, existing or not, gets the same refusal: the staff page acts on
    its own staff only and never tells whether a username exists elsewhere on the site."""
    username = (username or "").strip()
    if not username:
        raise ValidationError({"username": _("Type the username of the account.")})
    user = (
        get_user_model()
        .objects.filter(username__iexact=username, pk__in=_staff_ids(tournament))
        .first()
    )
    if user is None:
        raise ValidationError(
            {
                "username": _(
                    "“%(username)s” holds no role at %(tournament)s: invite the account to a "
                    "role first."
                )
                % {"username": username, "tournament": tournament.name}
            }
        )
    return user


def staff_member(tournament: Tournament, user_id: object) -> AbstractBaseUser:
    """The account with this id if it holds a role at the tournament; any other id (another
    tournament's staff, any account of the site, no account) is refused in the same words."""
    try:
        pk = int(str(user_id))
    except ValueError:
        pk = None
    user = (
        get_user_model().objects.filter(pk=pk, pk__in=_staff_ids(tournament)).first()
        if pk is not None
        else None
    )
    if user is None:
        raise ValidationError(
            _("That account holds no role at %(tournament)s; nothing was done.")
            % {"tournament": tournament.name}
        )
    return user


@dataclass(frozen=True)
class StaffAccount:
    """An account of a tournament's staff list as the staff page's steps act on it
    (``tournaments.staff_actions``): the object their permission is asked about (its
    ``tournament`` leads the permission predicates to the roles) and their preconditions read."""

    tournament: Tournament
    user: AbstractBaseUser


def staff_account(tournament: Tournament, user_id: object) -> StaffAccount:
    """The account with this id on the tournament's staff list, refused as ``staff_member``
    refuses every other id."""
    return StaffAccount(tournament, staff_member(tournament, user_id))


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
    check_staff_role(role)
    if TournamentRole.objects.filter(tournament=tournament, user=user, role=role).exists():
        raise ValidationError(
            {
                "role": _("%(user)s is already %(role)s at %(tournament)s.")
                % {
                    "user": user.get_username(),
                    "role": role_label(role),
                    "tournament": tournament.name,
                }
            }
        )
    granted = TournamentRole(tournament=tournament, user=user, role=role)
    granted._history_user = actor
    granted._change_reason = _("%(role)s given to %(user)s") % {
        "role": role_label(role),
        "user": user.get_username(),
    }
    granted.save()
    _log(tournament, actor, user, Action.GRANTED, role)
    return granted


def held_role(tournament: Tournament, user: AbstractBaseUser, role: str) -> TournamentRole:
    """The role ``user`` holds at the tournament, what taking it back acts on; refused, naming
    the role box, when they do not hold it."""
    held = TournamentRole.objects.filter(tournament=tournament, user=user, role=role).first()
    if held is None:
        label = role_label(role) if role in Role.values else repr(role)
        raise ValidationError(
            {
                "role": _("%(user)s is not %(role)s at %(tournament)s.")
                % {"user": user.get_username(), "role": label, "tournament": tournament.name}
            }
        )
    return held


def taken_back_here(held: TournamentRole) -> str | None:
    """The staff page takes back the roles it gives; the organizer role stays with whoever
    created (or imported) the tournament. The words of the refusal, or None."""
    if held.role in STAFF_ROLES:
        return None
    return _("The organizer role stays with the tournament's creator; it is not taken back here.")


@transaction.atomic
def revoke_role(
    *, tournament: Tournament, user: AbstractBaseUser, role: str, actor: AbstractBaseUser
) -> None:
    """Take back a staff role; the account stays, with any other role it holds."""
    held = held_role(tournament, user, role)
    refusal = taken_back_here(held)
    if refusal:
        raise Refused(refusal, kind=Kind.CONFLICT)
    # Deleted one by one (not through the queryset) so that the history row it leaves names
    # who took the role back and why.
    held._history_user = actor
    held._change_reason = _("%(role)s taken back from %(user)s") % {
        "role": role_label(role),
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
    check_staff_role(role)
    User = get_user_model()
    username = (username or "").strip()
    user = User(
        username=username,
        first_name=(first_name or "").strip(),
        last_name=(last_name or "").strip(),
    )
    user.set_unusable_password()
    reserved = username.lower() in SIMULATION_USERNAMES  # the simulation's, never a person's
    if username and (reserved or User.objects.filter(username__iexact=username).exists()):
        raise ValidationError(
            {
                "username": _(
                    "The username “%(username)s” cannot be used: choose another (to give a "
                    "role to someone who has a login, invite them above)."
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


def never_used(user: AbstractBaseUser) -> bool:
    """No password chosen yet and never signed in with: the staff page says "No password yet"."""
    return user.last_login is None and not user.has_usable_password()


def made_here(account: StaffAccount) -> str | None:
    """A set-password link replaces the account's password, so this staff page makes one only
    for an account it created (a real ``create_account``: an imported staff log never names an
    account) and that still holds a role here. The words of the refusal, or None."""
    created = RoleChange.objects.filter(
        tournament=account.tournament,
        user=account.user,
        action=Action.ACCOUNT_CREATED,
        user__tournament_roles__tournament=account.tournament,
    ).exists()
    if created:
        return None
    return _(
        "%(user)s was not created on this staff page; only its owner (or a superuser) can "
        "change its password."
    ) % {"user": account.user.get_username()}


def only_here(account: StaffAccount) -> str | None:
    """An account also used outside this tournament is someone's who signs in elsewhere: a role,
    a player or an invitation waiting at another tournament (a dry run's copy of a tournament is
    not elsewhere: it is whoever started the run), or the site's own rights (a superuser, the
    admin's staff). A link from here would hand all of that to whoever holds the link, so it is
    refused, in words that do not say which of these it is. The words, or None."""
    user = account.user
    elsewhere = ~Q(tournament=account.tournament) & Q(tournament__dry_run_copy__isnull=True)
    used = user.is_superuser or user.is_staff
    if not used:
        used = (
            get_user_model()
            .objects.filter(pk=user.pk)
            .filter(
                Exists(TournamentRole.objects.filter(elsewhere, user=OuterRef("pk")))
                | Exists(Player.objects.filter(elsewhere, user=OuterRef("pk")))
                | Exists(
                    Invitation.objects.filter(
                        elsewhere, user=OuterRef("pk"), status=Invitation.Status.PENDING
                    )
                )
            )
            .exists()
        )
    if not used:
        return None
    return _(
        "%(user)s is also used outside this tournament, so only its owner (or a superuser) can "
        "change its password."
    ) % {"user": user.get_username()}


@transaction.atomic
def renew_set_password_link(
    *, tournament: Tournament, user: AbstractBaseUser, actor: AbstractBaseUser
) -> str:
    """A new set-password link for an account created on this staff page and used nowhere else,
    at any time: the first link was lost or ran out, or the owner forgot their password. The
    password keeps working until the link is used (see the module's docstring). Any other
    account is its owner's: nobody else may reset it."""
    account = StaffAccount(tournament, user)  # made_here asks that it holds a role here
    refusal = made_here(account) or only_here(account)
    if refusal:
        raise Refused(refusal, kind=Kind.CONFLICT)
    _log(tournament, actor, user, Action.LINK_ISSUED)
    return set_password_path(user)


def _attempts(user: AbstractBaseUser) -> QuerySet[AccessAttempt]:
    """django-axes' counts of wrong passwords for ``user``, under every spelling of its username
    that was typed (axes counts the username as typed)."""
    return AccessAttempt.objects.filter(username__iexact=user.get_username())


def locked_out(user: AbstractBaseUser) -> bool:
    """Whether django-axes refuses ``user``'s sign-ins now, from some address: as axes counts
    (``AXES_LOCKOUT_PARAMETERS``, the username with the address), the wrong passwords of one
    spelling from one address within the cool-off reach ``AXES_FAILURE_LIMIT``. An address
    refused over all its accounts (``config.security.AddressLockoutHandler``) is the address's
    lockout, not the account's."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    pairs = (
        _attempts(user)
        .filter(attempt_time__gte=since)
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
    )
    return bool(list(pairs[:1]))


def is_locked_out(account: StaffAccount) -> str | None:
    """Unlocking is for a login that is locked out: the words of the refusal, or None."""
    if locked_out(account.user):
        return None
    return _("%(user)s is not locked out: nothing to unlock.") % {
        "user": account.user.get_username()
    }


@transaction.atomic
def unlock_login(*, tournament: Tournament, user: AbstractBaseUser, actor: AbstractBaseUser) -> int:
    """Lift the lockout of a staff member's login after too many wrong passwords, so that its
    owner signs in now rather than after ``LOGIN_LOCKOUT_MINUTES``: axes forgets the account's
    failures (every address, every spelling) through its own reset. Returns how many of axes'
    records went. The address lockout of password spraying stays (it is not this account's)."""
    account = StaffAccount(tournament, staff_member(tournament, user.pk))
    refusal = is_locked_out(account)
    if refusal:
        raise Refused(refusal, kind=Kind.CONFLICT)
    spellings = set(_attempts(user).values_list("username", flat=True))
    removed = sum(axes_reset(username=spelling) for spelling in spellings)
    _log(tournament, actor, user, Action.LOGIN_UNLOCKED)
    return removed


def _add_tournament_permission() -> Permission:
    return Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")


def may_create_tournaments(user: AbstractBaseUser) -> bool:
    """Whether ``user`` holds the site permission itself (a superuser always may), read fresh
    from the database rather than from the user's permission cache."""
    if user.is_superuser:
        return True
    return user.user_permissions.filter(pk=_add_tournament_permission().pk).exists()


def not_a_superuser(account: StaffAccount) -> str | None:
    """A superuser's permission is the superuser's: the staff page neither gives nor takes it."""
    if not account.user.is_superuser:
        return None
    return _("%(user)s is a superuser and may create tournaments in any case.") % {
        "user": account.user.get_username()
    }


def may_not_create_yet(account: StaffAccount) -> str | None:
    """Giving the permission is for an account without it. The words, or None."""
    if not may_create_tournaments(account.user):
        return None
    return _("%(user)s may already create tournaments.") % {"user": account.user.get_username()}


def may_create_now(account: StaffAccount) -> str | None:
    """Taking the permission back is for an account that holds it. The words, or None."""
    if may_create_tournaments(account.user):
        return None
    return _("%(user)s may not create tournaments.") % {"user": account.user.get_username()}


@transaction.atomic
def set_may_create_tournaments(
    *, tournament: Tournament, user: AbstractBaseUser, allowed: bool, actor: AbstractBaseUser
) -> None:
    """Give or take back the site permission to create tournaments (``tournaments.add_tournament``).

    An organizer gives it from their own tournament's staff page, where it is logged, to its
    own staff only (who accepted a role there), and takes it back from them only, so that one
    organizer can neither hand it to a stranger's account nor strip an organizer of another
    event. A superuser's permission is the superuser's and is not changed here. The
    preconditions are the steps' (``tournaments.role_actions``), asked again here.
    """
    account = StaffAccount(tournament, user)
    refusal = not_a_superuser(account) or (
        may_not_create_yet(account) if allowed else may_create_now(account)
    )
    if refusal:
        raise Refused(refusal, kind=Kind.CONFLICT)
    permission = _add_tournament_permission()
    if not TournamentRole.objects.filter(tournament=tournament, user=user).exists():
        raise ValidationError(
            _(
                "%(user)s holds no role at %(tournament)s; only a superuser or an "
                "organizer they work for can give or take back the permission."
            )
            % {"user": user.get_username(), "tournament": tournament.name}
        )
    if allowed:
        user.user_permissions.add(permission)
        _log(tournament, actor, user, Action.MAY_CREATE_GRANTED)
        return
    user.user_permissions.remove(permission)
    _log(tournament, actor, user, Action.MAY_CREATE_REVOKED)
