"""What the event-day action endpoints share (draws, check-in, seeds and pools, advancing): the
organizer check of the pages, the services' refusals in the pages' words, and the documented
error answers.

Each endpoint loads its object, lets only the users the organizer pages let in
(``tournaments.manage_tournament``) act, and takes the step those pages take; a refusal
(``tournaments.actions.Refused``) is answered by the API's one handler
(``tournaments.api.errors``) with the words the page shows, and the status of its kind.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import Model
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments.actions import Refused
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.permissions import ManageTournamentOrReadOnly
from tournaments.models import Category, Stage

MANAGE = "tournaments.manage_tournament"
#: The refusal of every organizer action, in the words of the tournament endpoints.
ORGANIZERS_ONLY = ManageTournamentOrReadOnly.message


class RefusalSerializer(serializers.Serializer):
    """A refusal: ``detail`` says why; a malformed body gets its errors by field instead."""

    detail = serializers.CharField(
        required=False, help_text=gettext_lazy("What is refused and why, as the page says it.")
    )


def refused(*codes: int) -> dict[int, OpenApiResponse]:
    """The documented error answers of an action (called as the views are declared, hence lazy
    words: the schema is drawn in the language of the request that asks for it)."""
    words = {
        400: gettext_lazy(
            "Refused: ``detail`` says why, in the words of the organizer page (or field errors "
            "for a malformed body)."
        ),
        401: gettext_lazy(
            "Not signed in: send a token (``Authorization: Token <key>``) or a session."
        ),
        403: gettext_lazy("Your role at the tournament does not allow this."),
        404: gettext_lazy("No such object."),
        409: gettext_lazy(
            "The stored data does not allow this now: ``detail`` says what to do first."
        ),
    }
    return {code: OpenApiResponse(RefusalSerializer, description=words[code]) for code in codes}


class OrganizerActionView(ServiceErrorsMixin, APIView):
    """An action of the organizer pages on one object: signed-in users only, then the
    organizer check on the object's tournament."""

    permission_classes = [IsAuthenticated]

    def as_api_exception(self, exc: Exception) -> Exception:
        if isinstance(exc, DjangoPermissionDenied) and not isinstance(exc, Refused):
            return exceptions.PermissionDenied(str(exc) or ORGANIZERS_ONLY)  # who may
        return super().as_api_exception(exc)

    def check_organizer(self, request: Request, obj: Model) -> None:
        if not request.user.has_perm(MANAGE, obj):
            raise exceptions.PermissionDenied(ORGANIZERS_ONLY)

    def stage(self, request: Request, pk: int) -> Stage:
        stage = get_object_or_404(Stage.objects.select_related("category__tournament"), pk=pk)
        self.check_organizer(request, stage)
        return stage

    def category(self, request: Request, pk: int) -> Category:
        category = get_object_or_404(Category.objects.select_related("tournament"), pk=pk)
        self.check_organizer(request, category)
        return category


def parse(serializer_class: type[serializers.Serializer], request: Request) -> dict:
    """The request body checked by ``serializer_class`` (a 400 with field errors if not)."""
    body = serializer_class(data=request.data, context={"request": request})
    body.is_valid(raise_exception=True)
    return body.validated_data
