"""Staff roles through the API: list and take back the roles of a tournament, invite an account
to a role (list and withdraw the invitations), create a staff account with its one-time
set-password link, and read the log of changes.

Giving a role to an account that exists is an invitation its owner accepts, signed in, on
/invitations/: ``POST /api/roles/`` answers 201 with the same body whether the username names an
account or nothing, so that the API never tells which usernames exist.

The same steps as the staff page (``tournaments.role_actions``) decide and word every refusal,
with the same permission: ``tournaments.manage_staff`` on the tournament, i.e. its organizers
and co-organizers. Anyone else sees no roles at all.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.errors import ServiceErrorsMixin
from tournaments.models import Invitation, RoleChange, Tournament, TournamentRole
from tournaments.role_actions import (
    WHO,
    create_staff_account,
    invite_to_role,
    revoke_role,
    withdraw_invitation,
)
from tournaments.selectors import staff_roles
from tournaments.services import invitations

MANAGE_STAFF = "tournaments.manage_staff"
#: Who may read a tournament's staff: the words of the steps' refusal.
REFUSAL = WHO
STAFF_ROLES_OF_USER = (TournamentRole.Role.ORGANIZER, TournamentRole.Role.CO_ORGANIZER)


class RoleSerializer(serializers.ModelSerializer):
    """A role held at a tournament. Giving one names the tournament, the account's username and
    the role; only the four staff roles can be given (the organizer role is the creator's)."""

    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    username = serializers.CharField(
        source="user.username", max_length=150, help_text=gettext_lazy("The account's username.")
    )
    role = serializers.ChoiceField(choices=TournamentRole.Role.choices)
    name = serializers.SerializerMethodField()

    class Meta:
        model = TournamentRole
        fields = ["id", "tournament", "username", "name", "role"]
        read_only_fields = ["id", "name"]
        validators: list = []

    def get_name(self, held: TournamentRole) -> str:
        return held.user.get_full_name()


class InvitationSerializer(serializers.ModelSerializer):
    """An invitation as its organizers see it: the username as they typed it, never the
    account (which may not exist), and what it is for."""

    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    player = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    detail = serializers.SerializerMethodField(
        help_text=gettext_lazy("What happens next, the same whoever the username names.")
    )

    class Meta:
        model = Invitation
        fields = ["id", "tournament", "kind", "username", "role", "player", "status", "detail"]
        read_only_fields = fields

    def get_detail(self, invitation: Invitation) -> str:
        return invitations.invitation_sent(invitation.username)


class StaffAccountSerializer(serializers.Serializer):
    """A new staff account with its role; the answer carries the set-password link, once."""

    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    username = serializers.CharField(max_length=150)
    first_name = serializers.CharField(max_length=150)
    last_name = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(
        choices=TournamentRole.Role.choices, help_text=gettext_lazy("Any role but organizer.")
    )
    set_password_url = serializers.CharField(
        read_only=True,
        help_text=gettext_lazy(
            "Where the person chooses their own password; shown only in this answer."
        ),
    )


class RoleChangeSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = RoleChange
        fields = ["id", "tournament", "at", "actor_username", "username", "action", "role"]
        read_only_fields = fields


TOURNAMENT_PARAM = OpenApiParameter(
    "tournament", str, description=gettext_lazy("Only this tournament (its slug).")
)


@extend_schema_view(
    list=extend_schema(
        parameters=[TOURNAMENT_PARAM],
        description=gettext_lazy("The roles at the tournaments whose staff you manage."),
    ),
    create=extend_schema(
        responses={201: InvitationSerializer},
        description=gettext_lazy(
            "Invite an account to a staff role: its owner accepts it when they sign in. The "
            "answer is the same whether the username exists or not."
        ),
    ),
    destroy=extend_schema(description=gettext_lazy("Take back a staff role; the account stays.")),
)
class RoleViewSet(
    ServiceErrorsMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Roles at the tournaments whose staff the signed-in user manages."""

    serializer_class = RoleSerializer
    permission_classes = [IsAuthenticated]
    queryset = TournamentRole.objects.none()  # the schema's model; get_queryset() filters

    def managed(self) -> Q:
        """The tournaments this user organizes or co-organizes (every one, for a superuser)."""
        user = self.request.user
        if getattr(self, "swagger_fake_view", False):
            return Q(pk__in=[])
        if user.is_superuser:
            return Q()
        return Q(tournament__roles__user=user, tournament__roles__role__in=STAFF_ROLES_OF_USER)

    def get_queryset(self) -> QuerySet[TournamentRole]:
        """The staff list of the page (``staff_roles``: never the simulation's accounts), over
        the tournaments this user manages."""
        roles = (
            staff_roles()
            .filter(self.managed())
            .select_related("tournament", "user")
            .distinct()
            .order_by("tournament_id", "user__username", "role")
        )
        slug = self.request.query_params.get("tournament")
        return roles.filter(tournament__slug=slug) if slug else roles

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        invitation = invite_to_role(
            request.user, data["tournament"], username=data["user"]["username"], role=data["role"]
        )
        return Response(InvitationSerializer(invitation).data, status=201)

    def perform_destroy(self, instance: TournamentRole) -> None:
        revoke_role(self.request.user, instance)

    @extend_schema(
        request=StaffAccountSerializer,
        responses={201: StaffAccountSerializer},
        description=gettext_lazy(
            "Create an account with a staff role; the answer holds its one-time set-password link."
        ),
    )
    @action(detail=False, methods=["post"], url_path="accounts")
    def accounts(self, request: Request) -> Response:
        body = StaffAccountSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        user, path = create_staff_account(request.user, data.pop("tournament"), **data)
        answer = {
            **body.data,
            "username": user.get_username(),
            "set_password_url": request.build_absolute_uri(path),
        }
        return Response(answer, status=201, headers={"Cache-Control": "no-store"})

    @extend_schema(
        parameters=[TOURNAMENT_PARAM],
        responses={200: InvitationSerializer(many=True)},
        description=gettext_lazy(
            "The invitations waiting for an answer, by the username typed, newest first."
        ),
    )
    @action(detail=False, methods=["get"], url_path="invitations")
    def invitations(self, request: Request) -> Response:
        waiting = Invitation.objects.filter(self.managed(), status=Invitation.Status.PENDING)
        slug = request.query_params.get("tournament")
        if slug:
            waiting = waiting.filter(tournament__slug=slug)
        waiting = waiting.select_related("tournament").distinct().order_by("-created_at", "-id")
        page = self.paginate_queryset(waiting)
        return self.get_paginated_response(InvitationSerializer(page, many=True).data)

    @extend_schema(
        request=None,
        responses={200: InvitationSerializer},
        description=gettext_lazy("Withdraw an invitation that was not answered yet."),
    )
    @action(
        detail=False,
        methods=["post"],
        url_path=r"invitations/(?P<invitation_id>[0-9]+)/withdraw",
        url_name="withdraw-invitation",
    )
    def withdraw_invitation(self, request: Request, invitation_id: str) -> Response:
        invitation = Invitation.objects.filter(self.managed(), pk=invitation_id).first()
        if invitation is None:
            raise NotFound(gettext_lazy("There is no such invitation here."))
        withdrawn = withdraw_invitation(request.user, invitation)
        return Response(InvitationSerializer(withdrawn).data)

    @extend_schema(
        parameters=[TOURNAMENT_PARAM],
        responses={200: RoleChangeSerializer(many=True)},
        description=gettext_lazy("Who gave or took back which role, and when, newest first."),
    )
    @action(detail=False, methods=["get"], url_path="changes")
    def changes(self, request: Request) -> Response:
        log = RoleChange.objects.filter(self.managed()).select_related("tournament").distinct()
        slug = request.query_params.get("tournament")
        if slug:
            log = log.filter(tournament__slug=slug)
        page = self.paginate_queryset(log)
        return self.get_paginated_response(RoleChangeSerializer(page, many=True).data)
