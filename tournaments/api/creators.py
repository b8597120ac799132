"""The site permission to create tournaments through the API, as the staff page gives it.

An organizer (or co-organizer) of a tournament gives “may create tournaments” to an account
from that tournament's staff, and takes it back from its staff only; a superuser's cannot
change. The same steps as the staff page (``tournaments.role_actions.allow_creating`` and
``disallow_creating``) decide, word every refusal and log the change on the tournament, with the
same permission: ``tournaments.manage_staff`` on the tournament named.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.actions import refused
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.staff import MANAGE_STAFF, REFUSAL
from tournaments.models import Tournament
from tournaments.role_actions import allow_creating, disallow_creating
from tournaments.services import staff
from tournaments.views.organizer.staff import staff_lines

TOURNAMENT = OpenApiParameter(
    "tournament",
    str,
    required=True,
    description=gettext_lazy(
        "The tournament (its slug) on whose staff page the permission is given."
    ),
)


class CreatorSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    may_create_tournaments = serializers.BooleanField()


class GiveCreatorSerializer(serializers.Serializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    username = serializers.CharField(
        max_length=150, help_text=gettext_lazy("The account's username.")
    )


def _managed(request: Request, tournament: Tournament) -> Tournament:
    if not request.user.has_perm(MANAGE_STAFF, tournament):
        raise exceptions.PermissionDenied(REFUSAL)
    return tournament


def _named(request: Request) -> Tournament:
    slug = request.query_params.get("tournament", "")
    if not slug:
        raise exceptions.ValidationError({"tournament": gettext("Name the tournament (its slug).")})
    return _managed(request, get_object_or_404(Tournament, slug=slug))


class TournamentCreatorsView(ServiceErrorsMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary=gettext_lazy("Who of a tournament's staff may create tournaments"),
        parameters=[TOURNAMENT],
        responses={200: CreatorSerializer(many=True), **refused(400, 401, 403, 404)},
    )
    def get(self, request: Request) -> Response:
        creators = [
            {"username": line.user.get_username(), "may_create_tournaments": line.may_create}
            for line in staff_lines(_named(request))
        ]
        return Response(CreatorSerializer(creators, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Let an account create tournaments"),
        description=gettext_lazy(
            "Give the site permission “may create tournaments” from a tournament you "
            "organize (logged on its staff page). Refused (400) for an unknown account, one that "
            "may already, or a superuser."
        ),
        request=GiveCreatorSerializer,
        responses={201: CreatorSerializer, **refused(400, 401, 403)},
    )
    def post(self, request: Request) -> Response:
        body = GiveCreatorSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tournament = _managed(request, body.validated_data["tournament"])
        user = staff.find_staff_member(tournament, body.validated_data["username"])
        allow_creating(request.user, staff.StaffAccount(tournament, user))
        return Response(
            {"username": user.get_username(), "may_create_tournaments": True},
            status=status.HTTP_201_CREATED,
        )


class TournamentCreatorView(ServiceErrorsMixin, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary=gettext_lazy("Take back the permission to create tournaments"),
        description=gettext_lazy(
            "Only from an account of the tournament's staff (one organizer cannot "
            "strip an organizer of another event); a superuser's stays."
        ),
        parameters=[TOURNAMENT],
        responses={204: None, **refused(400, 401, 403, 404)},
    )
    def delete(self, request: Request, username: str) -> Response:
        tournament = _named(request)
        user = staff.find_staff_member(tournament, username)
        disallow_creating(request.user, staff.StaffAccount(tournament, user))
        return Response(status=status.HTTP_204_NO_CONTENT)
