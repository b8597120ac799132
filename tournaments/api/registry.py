"""The registry through the API (``/api/people/``): list and search people, read one, add one
(record keepers), correct one and choose what the public sees, merge a duplicate, claim one's own
person, and ask who a player being registered may be.

The same steps as the registry pages (``tournaments.registry_actions``) decide, with the same
permissions and the same words. What the public sees of a person follows their choice: a person
who shows "only my name in results" is listed by name alone, unless the caller is that person or
a record keeper.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import registry_actions as steps
from tournaments import registry_selectors as selectors
from tournaments.api.actions import refused
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.models.registry import Person
from tournaments.services import registry

#: What only the person themselves or a record keeper may see of a "name only" person.
PRIVATE_FIELDS = ("id_number", "federation", "club", "country", "discipline")


class PersonSerializer(serializers.ModelSerializer):
    """A person of the registry. ``visibility`` is theirs to choose (once claimed) or a record
    keeper's; ``claimed`` says whether an account claimed them. A "name only" person's other
    details are empty to everyone but themselves and the record keepers."""

    full_name = serializers.CharField(read_only=True)
    claimed = serializers.SerializerMethodField(
        help_text=gettext_lazy("Whether the person claimed this record with their account.")
    )
    players = serializers.SerializerMethodField(
        help_text=gettext_lazy("How many tournament players are linked to this person.")
    )

    class Meta:
        model = Person
        fields = [
            "id",
            "first_name",
            "last_name",
            "full_name",
            *PRIVATE_FIELDS,
            "visibility",
            "claimed",
            "players",
        ]
        read_only_fields = ["id", "full_name", "claimed", "players"]
        validators: list = []  # the service refuses a held ID number, in its own words
        extra_kwargs = {"id_number": {"help_text": gettext_lazy("Federation ID number.")}}

    def get_claimed(self, person: Person) -> bool:
        return person.user_id is not None

    def get_players(self, person: Person) -> int:
        counted = getattr(person, "player_count", None)
        return counted if counted is not None else person.players.count()

    def to_representation(self, person: Person) -> dict[str, Any]:
        data = super().to_representation(person)
        request = self.context.get("request")
        user = getattr(request, "user", None)
        if user is not None and not selectors.shows_details(user, person):
            for name in PRIVATE_FIELDS:
                data[name] = ""
        return data


class PersonCandidateSerializer(serializers.Serializer):
    """A person the registry found for someone being registered, and how."""

    id = serializers.IntegerField(source="person.pk")
    full_name = serializers.CharField(source="person.full_name")
    club = serializers.CharField(source="person.club")
    country = serializers.CharField(source="person.country")
    id_number = serializers.CharField(source="person.id_number")
    federation = serializers.CharField(source="person.federation")
    how = serializers.ChoiceField(
        choices=[registry.HOW_ID_NUMBER, registry.HOW_NAME_AND_CLUB, registry.HOW_NAME],
        help_text=gettext_lazy(
            "id-number: the same federation ID (the same human); name-and-club, name: likely."
        ),
    )
    description = serializers.SerializerMethodField(
        help_text=gettext_lazy("The person as the registration page names them.")
    )

    def get_description(self, match: registry.PersonMatch) -> str:
        return registry.describe(match.person)


class PersonChoiceSerializer(serializers.Serializer):
    """The answer to a registration the registry may already know: the question in the page's
    words, and the people to choose from (send ``person``, or ``new_person: true``)."""

    person = serializers.ListField(child=serializers.CharField())
    candidates = PersonCandidateSerializer(many=True)


def person_choice_answer(exc) -> Response:
    """400 with the question and the candidates (``registration.PersonChoiceNeeded``)."""
    return Response(
        {
            "person": [exc.text],
            "candidates": PersonCandidateSerializer(exc.matches, many=True).data,
        },
        status=400,
    )


class MergeSerializer(serializers.Serializer):
    duplicate = serializers.PrimaryKeyRelatedField(
        queryset=Person.objects.all(),
        help_text=gettext_lazy("The person to merge into this one (it then leads here)."),
    )


class VisibilityField(serializers.Serializer):
    visibility = serializers.ChoiceField(choices=Person.Visibility.choices)


MATCH_PARAMS = [
    OpenApiParameter("first_name", str, required=True),
    OpenApiParameter("last_name", str, required=True),
    OpenApiParameter("id_number", str, description=gettext_lazy("Federation ID number.")),
    OpenApiParameter("federation", str),
    OpenApiParameter("club", str),
]


@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter(
                "q",
                str,
                description=gettext_lazy(
                    "Words of the name (accents and capitals ignored), a club or a federation ID."
                ),
            )
        ],
        description=gettext_lazy("People in the registry (merged duplicates left out)."),
    ),
    create=extend_schema(
        description=gettext_lazy("Add a person (the site's record keepers only)."),
        responses={201: PersonSerializer, **refused(400, 401, 403)},
    ),
    update=extend_schema(
        description=gettext_lazy(
            "Correct a person: the record keepers; the person themselves once claimed; the "
            "organizers of a tournament they play at while unclaimed (never their name or ID "
            "number once they play elsewhere). ``visibility``: the person or a record keeper."
        ),
        responses={200: PersonSerializer, **refused(400, 401, 403, 404, 409)},
    ),
    partial_update=extend_schema(
        responses={200: PersonSerializer, **refused(400, 401, 403, 404, 409)},
    ),
)
class PersonViewSet(
    ServiceErrorsMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """The site-wide registry of people."""

    serializer_class = PersonSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    queryset = Person.objects.none()  # the schema's model; get_queryset() reads

    def get_queryset(self):
        if self.action == "list":
            return selectors.search(self.request.query_params.get("q", ""))
        return Person.objects.all()

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        person = registry.kept(self.get_object())
        return Response(self.get_serializer(person).data)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        body = self.get_serializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = {k: v for k, v in body.validated_data.items() if k in steps.PERSON_FIELDS}
        person = steps.add_person(request.user, None, **fields)
        return Response(self.get_serializer(person).data, status=201)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        person = self.get_object()
        partial = kwargs.pop("partial", False)
        body = self.get_serializer(person, data=request.data, partial=partial)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        visibility = data.pop("visibility", None)
        fields = {k: v for k, v in data.items() if k in steps.PERSON_FIELDS}
        if fields:
            if not partial:
                fields = {name: fields.get(name, "") for name in steps.PERSON_FIELDS}
                fields["discipline"] = fields["discipline"] or person.discipline
            person = steps.edit_person(request.user, person, **fields)
        if visibility is not None and visibility != person.visibility:
            person = steps.set_person_visibility(request.user, person, visibility=visibility)
        return Response(self.get_serializer(person).data)

    @extend_schema(
        request=MergeSerializer,
        responses={200: PersonSerializer, **refused(400, 401, 403, 404, 409)},
        description=gettext_lazy(
            "Merge ``duplicate`` into this person (record keepers only): its players, games and "
            "entry requests become this person's; its ratings are recomputed."
        ),
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def merge(self, request: Request, pk: str | None = None) -> Response:
        keep = self.get_object()
        if not request.user.has_perm(steps.MANAGE_RECORD):
            raise PermissionDenied(str(steps.merge_people.who))
        body = MergeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        kept = steps.merge_people(request.user, keep, duplicate=body.validated_data["duplicate"])
        return Response(self.get_serializer(kept).data)

    @extend_schema(
        request=None,
        responses={200: PersonSerializer, **refused(401, 403, 404, 409)},
        description=gettext_lazy(
            "This is me: claim the person of your own player (your login, or your private "
            "link while logged in). Then choose ``visibility`` with a change of the person."
        ),
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def claim(self, request: Request, pk: str | None = None) -> Response:
        person = registry.kept(self.get_object())
        person = steps.claim_person(request.user, person)
        return Response(self.get_serializer(person).data)

    @extend_schema(
        parameters=MATCH_PARAMS,
        responses={200: PersonCandidateSerializer(many=True)},
        description=gettext_lazy(
            "Who the registry may already know: the people a registration would offer, best "
            "first (the same federation ID, then the same name and club, then the same name)."
        ),
    )
    # A short list of candidates, never paged: the schema says so too.
    @action(detail=False, methods=["get"], pagination_class=None)
    def matches(self, request: Request) -> Response:
        params = request.query_params
        found = registry.find_matches(
            first_name=params.get("first_name", ""),
            last_name=params.get("last_name", ""),
            id_number=params.get("id_number", ""),
            federation=params.get("federation", ""),
            club=params.get("club", ""),
        )
        visible = [m for m in found if selectors.shows_details(request.user, m.person)]
        return Response(PersonCandidateSerializer(visible, many=True).data)
