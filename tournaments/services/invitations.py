"""Invitations: the only way an existing account comes to hold a role at a tournament or to act
for one of its players, other than the owner's own private link.

Why: naming a username must neither link anything to that account (an organizer could act with
a stranger's account, or read it in the tournament's export) nor tell the organizer whether the
username exists (probing). So an organizer's "give this role to X" or "link this player to X"
becomes an invitation, answered the same whether X exists or not; X's owner sees it once signed
in and accepts or declines it. An invitation to a username nobody holds is kept too, with no
account, so that nothing anybody can do accepts it.

The organizer sees their invitations by what they typed, and may withdraw a pending one.
Accepting a role is logged in the tournament's staff log (``RoleChange``) and the role's
history; accepting a player is kept in the player's history, naming the account that accepted.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.actions import Kind as ActionKind
from tournaments.actions import Refused
from tournaments.models import Invitation, Player, RoleChange, Tournament, TournamentRole
from tournaments.services.staff import check_staff_role, role_label

Role = TournamentRole.Role
Action = RoleChange.Action
Status = Invitation.Status
Kind = Invitation.Kind

#: The longest username an account may have (Django's default user model).
MAX_USERNAME = 150


def invitation_sent(username: str) -> str:
    """The one answer to an invitation made, whoever the username names (or nobody)."""
    return _(
        "Invitation sent to “%(username)s”: the account's owner accepts it when they sign in."
    ) % {"username": username}


def _typed(username: str | None) -> str:
    username = (username or "").strip()
    if not username:
        raise ValidationError({"username": _("Type the username of the account.")})
    if len(username) > MAX_USERNAME:
        raise ValidationError(
            {"username": _("A username has at most %(max)s characters.") % {"max": MAX_USERNAME}}
        )
    return username


def _addressee(username: str) -> AbstractBaseUser | None:
    """The account a typed username names (case-insensitive), or None: never shown."""
    return get_user_model().objects.filter(username__iexact=username).first()


def _log(
    tournament: Tournament,
    actor: AbstractBaseUser | None,
    action: str,
    username: str,
    role: str,
    user: AbstractBaseUser | None = None,
) -> None:
    RoleChange.objects.create(
        tournament=tournament,
        actor=actor,
        actor_username=actor.get_username() if actor is not None else "",
        user=user,
        username=username,
        action=action,
        role=role,
    )


def _pending_twice(tournament: Tournament, username: str, **what: object) -> None:
    """Refuse a second pending invitation for the same thing to the same typed username (said
    from what was typed, not from any account)."""
    if Invitation.objects.filter(
        tournament=tournament, username__iexact=username, status=Status.PENDING, **what
    ).exists():
        raise ValidationError(
            {
                "username": _(
                    "“%(username)s” is invited already and has not answered yet; withdraw that "
                    "invitation first to send another."
                )
                % {"username": username}
            }
        )


@transaction.atomic
def invite_to_role(
    *,
    tournament: Tournament,
    username: str,
    role: str,
    actor: AbstractBaseUser | None,
    from_import: bool = False,
) -> Invitation:
    """Invite the account ``username`` to a staff role. The answer is the same whether the
    username exists or not. A role the staff list already shows held by that account is
    refused (the list shows it to the organizer anyway). ``from_import``: a signed export of
    this site re-invites its staff, the organizer role included (the one who imports it holds
    that role already)."""
    username = _typed(username)
    if not (from_import and role == Role.ORGANIZER):
        check_staff_role(role)
    user = _addressee(username)
    # The same two queries whether the account exists or not.
    held = TournamentRole.objects.filter(tournament=tournament, user=user, role=role).exists()
    if held:
        raise ValidationError(
            {
                "role": _("%(user)s is already %(role)s at %(tournament)s.")
                % {"user": username, "role": role_label(role), "tournament": tournament.name}
            }
        )
    _pending_twice(tournament, username, kind=Kind.ROLE, role=role)
    invitation = Invitation.objects.create(
        tournament=tournament,
        kind=Kind.ROLE,
        role=role,
        username=username,
        user=user,
        invited_by=actor,
    )
    if not from_import:
        # Logged by what was typed, with no account: the log travels in the export.
        _log(tournament, actor, Action.INVITED, username, role)
    return invitation


@transaction.atomic
def invite_to_player(
    *, player: Player, username: str, actor: AbstractBaseUser | None
) -> Invitation:
    """Invite the account ``username`` to act for ``player`` (fill their cards with their own
    login). The answer is the same whether the username exists or not."""
    username = _typed(username)
    if player.user_id is not None:
        raise ValidationError(
            {
                "username": _(
                    "%(player)s is linked to an account already; unlink it first to invite another."
                )
                % {"player": player}
            }
        )
    _pending_twice(player.tournament, username, kind=Kind.PLAYER, player=player)
    return Invitation.objects.create(
        tournament=player.tournament,
        kind=Kind.PLAYER,
        player=player,
        username=username,
        user=_addressee(username),
        invited_by=actor,
    )


def pending_of(tournament: Tournament) -> QuerySet[Invitation]:
    """The tournament's invitations waiting for an answer, for its organizers (who see the
    username they typed, never the account)."""
    return (
        Invitation.objects.filter(tournament=tournament, status=Status.PENDING)
        .select_related("tournament", "player")
        .order_by("-created_at", "-id")
    )


def pending_for(user: AbstractBaseUser) -> QuerySet[Invitation]:
    """The invitations ``user`` may answer."""
    if not user.is_authenticated:
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(user=user, status=Status.PENDING)
        .select_related("tournament", "player")
        .order_by("-created_at", "-id")
    )


def is_pending(invitation: Invitation) -> str | None:
    """Only an invitation waiting for its answer is withdrawn, accepted or declined. The words
    of the refusal, or None."""
    if invitation.status == Status.PENDING:
        return None
    return _("This invitation was %(status)s already; nothing was done.") % {
        "status": invitation.get_status_display().lower()
    }


def _not_pending(invitation: Invitation) -> Refused:
    return Refused(is_pending(invitation) or "", kind=ActionKind.CONFLICT)


def _pk(invitation_id: object) -> int | None:
    try:
        return int(str(invitation_id))
    except ValueError:
        return None


def of_tournament(tournament: Tournament, invitation_id: object) -> Invitation:
    """The tournament's invitation with this id (what withdrawing acts on); any other id is
    refused in the same words."""
    pk = _pk(invitation_id)
    found = Invitation.objects.filter(pk=pk, tournament=tournament).first() if pk else None
    if found is None:
        raise ValidationError(_("There is no such invitation; nothing was done."))
    return found


def _locked(invitation_id: object, **owned: object) -> Invitation:
    try:
        pk = int(str(invitation_id))
    except ValueError:
        pk = None
    found = (
        Invitation.objects.select_for_update().filter(pk=pk, **owned).first()
        if pk is not None
        else None
    )
    if found is None:
        raise ValidationError(_("There is no such invitation; nothing was done."))
    return found


@transaction.atomic
def withdraw(
    *, tournament: Tournament, invitation_id: object, actor: AbstractBaseUser
) -> Invitation:
    """Withdraw a pending invitation of this tournament (the caller checked that ``actor``
    manages its staff)."""
    invitation = _locked(invitation_id, tournament=tournament)
    if invitation.status != Status.PENDING:
        raise _not_pending(invitation)
    invitation.status = Status.WITHDRAWN
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    if invitation.kind == Kind.ROLE:
        _log(tournament, actor, Action.INVITATION_WITHDRAWN, invitation.username, invitation.role)
    return invitation


@transaction.atomic
def accept(*, invitation_id: object, user: AbstractBaseUser) -> Invitation:
    """The invitee accepts: the role is granted, or the player linked, with history naming the
    invitee. Only the account the invitation addressed may; anyone else is told there is no
    such invitation."""
    invitation = _locked(invitation_id, user=user) if user.is_authenticated else None
    if invitation is None:
        raise ValidationError(_("There is no such invitation; nothing was done."))
    if invitation.status != Status.PENDING:
        raise _not_pending(invitation)
    tournament = invitation.tournament
    if invitation.kind == Kind.ROLE:
        role = invitation.role
        if not TournamentRole.objects.filter(tournament=tournament, user=user, role=role).exists():
            granted = TournamentRole(tournament=tournament, user=user, role=role)
            granted._history_user = user
            granted._change_reason = _("%(role)s accepted by %(user)s") % {
                "role": role_label(role),
                "user": user.get_username(),
            }
            granted.save()
        _log(tournament, user, Action.ACCEPTED, user.get_username(), role, user=user)
    else:
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        if player.user_id is not None and player.user_id != user.pk:
            raise ValidationError(
                _("%(player)s is linked to another account already; nothing was done.")
                % {"player": player}
            )
        player.user = user
        player._history_user = user
        player._change_reason = _("linked by %(user)s, accepting an invitation") % {
            "user": user.get_username()
        }
        player.save()
    invitation.status = Status.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    return invitation


@transaction.atomic
def decline(*, invitation_id: object, user: AbstractBaseUser) -> Invitation:
    """The invitee declines: nothing is granted; the organizer sees the invitation no more."""
    invitation = _locked(invitation_id, user=user) if user.is_authenticated else None
    if invitation is None:
        raise ValidationError(_("There is no such invitation; nothing was done."))
    if invitation.status != Status.PENDING:
        raise _not_pending(invitation)
    invitation.status = Status.DECLINED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    if invitation.kind == Kind.ROLE:
        _log(invitation.tournament, user, Action.DECLINED, invitation.username, invitation.role)
    return invitation
