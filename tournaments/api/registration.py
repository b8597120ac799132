"""The public entry form through the API: the same steps, refusals and words as its pages
(``tournaments.views.registration``).

- ``POST /api/tournaments/{slug}/entry-requests/``: anyone asks to enter a category (throttled
  as every anonymous client is); the answer carries the request's own secret page.
- ``GET /api/tournaments/{slug}/entry-requests/``: the organizers' list, with the registry's
  candidates of each request not decided yet.
- ``POST /api/entry-requests/{id}/accept|refuse|withdraw/``: the organizers' decisions
  (``tournaments.registration_actions``).
- ``PUT /api/categories/{id}/registration/``: a category's form settings (its organizers).
- ``GET /api/entry-requests/mine/{token}/`` and ``POST .../withdraw/``: the applicant's own
  request, with its secret token (no account needed); ``POST
  /api/entry-requests/partner/{token}/accept/``: the doubles partner accepts the invitation.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.actions import OrganizerActionView, parse, refused
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.models import Category, EntryRequest, Person, Tournament
from tournaments.registration_actions import (
    WHO,
    accept_request,
    refuse_request,
    set_registration,
    withdraw_request,
)
from tournaments.services import entry_requests


def _site(request: Request) -> str:
    return request.build_absolute_uri("/").rstrip("/")


# Serializers ------------------------------------------------------------------------------------


class EntryRequestSubmitSerializer(serializers.Serializer):
    """What the public form takes; the rules (open, deadline, no request twice, a partner for
    doubles only) are the service's, answered in its words on the field at fault."""

    category = serializers.IntegerField(help_text=gettext_lazy("The category's id."))
    first_name = serializers.CharField(max_length=100, allow_blank=True, required=False)
    last_name = serializers.CharField(max_length=100, allow_blank=True, required=False)
    email = serializers.CharField(max_length=254, allow_blank=True, required=False)
    id_number = serializers.CharField(max_length=40, allow_blank=True, required=False)
    club = serializers.CharField(max_length=100, allow_blank=True, required=False)
    country = serializers.CharField(max_length=60, allow_blank=True, required=False)
    partner_first_name = serializers.CharField(max_length=100, allow_blank=True, required=False)
    partner_last_name = serializers.CharField(max_length=100, allow_blank=True, required=False)
    partner_email = serializers.CharField(max_length=254, allow_blank=True, required=False)
    partner_id_number = serializers.CharField(max_length=40, allow_blank=True, required=False)


class OwnRequestSerializer(serializers.ModelSerializer):
    """One request as its applicant sees it: their own data, never anyone else's."""

    category = serializers.CharField(source="category.name", read_only=True)
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    waitlist_position = serializers.SerializerMethodField()
    page = serializers.SerializerMethodField(
        help_text=gettext_lazy("The request's own page: keep it to yourself.")
    )

    class Meta:
        model = EntryRequest
        fields = (
            "id",
            "category",
            "status",
            "status_label",
            "waitlist_position",
            "first_name",
            "last_name",
            "partner_first_name",
            "partner_last_name",
            "refusal_reason",
            "created_at",
            "decided_at",
            "page",
        )
        read_only_fields = fields

    def get_waitlist_position(self, obj: EntryRequest) -> int | None:
        return entry_requests.waitlist_position(obj)

    def get_page(self, obj: EntryRequest) -> str:
        path = reverse(
            "registration:registration-status", args=[obj.category.tournament.slug, obj.token]
        )
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class CandidateSerializer(serializers.Serializer):
    person = serializers.IntegerField(source="person.pk")
    name = serializers.CharField(source="person.full_name")
    id_number = serializers.CharField(source="person.id_number")
    club = serializers.CharField(source="person.club")
    how = serializers.CharField(
        help_text=gettext_lazy("How the registry found them: id-number, name-and-club, name.")
    )


class OrganizerRequestSerializer(serializers.ModelSerializer):
    """One request on the organizers' list, with the registry's candidates while undecided."""

    category = serializers.IntegerField(source="category_id", read_only=True)
    category_name = serializers.CharField(source="category.name", read_only=True)
    waitlist_position = serializers.SerializerMethodField()
    candidates = serializers.SerializerMethodField()
    partner_candidates = serializers.SerializerMethodField()

    class Meta:
        model = EntryRequest
        fields = (
            "id",
            "category",
            "category_name",
            "status",
            "waitlist_position",
            "first_name",
            "last_name",
            "email",
            "id_number",
            "club",
            "country",
            "person",
            "partner_first_name",
            "partner_last_name",
            "partner_email",
            "partner_id_number",
            "partner_person",
            "partner_accepted_at",
            "entry",
            "refusal_reason",
            "created_at",
            "decided_at",
            "candidates",
            "partner_candidates",
        )
        read_only_fields = fields

    def _candidates(self, obj: EntryRequest) -> entry_requests.Candidates | None:
        if obj.status not in entry_requests.UNDECIDED:
            return None
        cache = self.context.setdefault("candidates", {})
        if obj.pk not in cache:
            cache[obj.pk] = entry_requests.candidates(obj)
        return cache[obj.pk]

    def get_waitlist_position(self, obj: EntryRequest) -> int | None:
        return entry_requests.waitlist_position(obj)

    @extend_schema_field(CandidateSerializer(many=True))
    def get_candidates(self, obj: EntryRequest) -> list:
        found = self._candidates(obj)
        return CandidateSerializer(found.applicant, many=True).data if found else []

    @extend_schema_field(CandidateSerializer(many=True))
    def get_partner_candidates(self, obj: EntryRequest) -> list:
        found = self._candidates(obj)
        return CandidateSerializer(found.partner, many=True).data if found else []


class AcceptSerializer(serializers.Serializer):
    """Who the request is in the registry: a person's id, ``"new"`` for a new person, or left
    out to keep the person it is matched to."""

    person = serializers.CharField(required=False, allow_blank=True)
    partner_person = serializers.CharField(required=False, allow_blank=True)

    def _person(self, value: str, field: str):
        if value == "new":
            return None
        if value.isdigit():
            found = Person.objects.filter(pk=int(value)).first()
            if found is not None:
                return found
        raise serializers.ValidationError(
            {field: [gettext("Give a person's id from the registry, or “new”.")]}
        )

    def validate(self, attrs: dict) -> dict:
        return {
            name: self._person(attrs[name], name) if attrs.get(name) else entry_requests.KEEP
            for name in ("person", "partner_person")
        }


class RefuseSerializer(serializers.Serializer):
    reason = serializers.CharField(
        allow_blank=True, help_text=gettext_lazy("Why: the applicant reads it.")
    )


class RegistrationSettingsSerializer(serializers.Serializer):
    """A category's entry form: open or not, until when (with its time zone, or the site's),
    for how many entries (null: no limit)."""

    registration_open = serializers.BooleanField()
    registration_deadline = serializers.DateTimeField(allow_null=True, required=False)
    capacity = serializers.IntegerField(allow_null=True, required=False, min_value=1)


class PartnerAcceptSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100, allow_blank=True, required=False)
    last_name = serializers.CharField(max_length=100, allow_blank=True, required=False)
    id_number = serializers.CharField(max_length=40, allow_blank=True, required=False)


# Views -----------------------------------------------------------------------------------------


class _PublicView(ServiceErrorsMixin, APIView):
    permission_classes = [AllowAny]


class TournamentEntryRequestsView(OrganizerActionView):
    """Submit a request (anyone) or list the tournament's requests (its organizers)."""

    def get_permissions(self):
        if self.request.method == "POST":
            return [AllowAny()]
        return super().get_permissions()

    def _tournament(self, slug: str) -> Tournament:
        return get_object_or_404(Tournament, slug=slug)

    @extend_schema(
        summary=gettext_lazy("Ask to enter a category (the public entry form)"),
        request=EntryRequestSubmitSerializer,
        responses={201: OwnRequestSerializer, **refused(400, 404, 409)},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        data = parse(EntryRequestSubmitSerializer, request)
        category = tournament.categories.filter(pk=data.pop("category")).first()
        if category is None:
            raise exceptions.ValidationError(
                {"category": [gettext("Choose one of the categories listed.")]}
            )
        made = entry_requests.submit(
            category=category, user=request.user, site=_site(request), **data
        )
        return Response(
            OwnRequestSerializer(made, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary=gettext_lazy("The tournament's requests to enter (its organizers)"),
        responses={200: OrganizerRequestSerializer(many=True), **refused(401, 403, 404)},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = self._tournament(slug)
        if not request.user.has_perm("tournaments.manage_tournament", tournament):
            raise exceptions.PermissionDenied(str(WHO))
        rows = entry_requests.requests_of(tournament)
        return Response(OrganizerRequestSerializer(rows, many=True, context={}).data)


class _DecisionView(OrganizerActionView):
    def entry_request(self, pk: int) -> EntryRequest:
        return get_object_or_404(
            EntryRequest.objects.select_related("category__tournament", "entry"), pk=pk
        )

    def answer(self, request: Request, done: EntryRequest) -> Response:
        return Response(OrganizerRequestSerializer(done, context={}).data)


class EntryRequestAcceptView(_DecisionView):
    @extend_schema(
        summary=gettext_lazy("Accept a request: its player (or team) is registered and entered"),
        request=AcceptSerializer,
        responses={200: OrganizerRequestSerializer, **refused(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        found = self.entry_request(pk)
        choice = parse(AcceptSerializer, request)
        done = accept_request(request.user, found, site=_site(request), **choice)
        return self.answer(request, done)


class EntryRequestRefuseView(_DecisionView):
    @extend_schema(
        summary=gettext_lazy("Refuse a request, saying why"),
        request=RefuseSerializer,
        responses={200: OrganizerRequestSerializer, **refused(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        found = self.entry_request(pk)
        data = parse(RefuseSerializer, request)
        done = refuse_request(request.user, found, site=_site(request), reason=data["reason"])
        return self.answer(request, done)


class EntryRequestWithdrawView(_DecisionView):
    @extend_schema(
        summary=gettext_lazy("Withdraw a request (the organizers); the waitlist moves up"),
        request=None,
        responses={200: OrganizerRequestSerializer, **refused(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        found = self.entry_request(pk)
        done = withdraw_request(request.user, found, site=_site(request))
        return self.answer(request, done)


class CategoryRegistrationView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Open or close a category's entry form, its deadline, its capacity"),
        request=RegistrationSettingsSerializer,
        responses={200: RegistrationSettingsSerializer, **refused(400, 401, 403, 404)},
    )
    def put(self, request: Request, pk: int) -> Response:
        category = get_object_or_404(Category.objects.select_related("tournament"), pk=pk)
        data = parse(RegistrationSettingsSerializer, request)
        done = set_registration(
            request.user,
            category,
            site=_site(request),
            registration_open=data["registration_open"],
            registration_deadline=data.get("registration_deadline"),
            capacity=data.get("capacity"),
        )
        return Response(
            RegistrationSettingsSerializer(
                {name: getattr(done, name) for name in entry_requests.SETTINGS_FIELDS}
            ).data
        )


def _by_token(token: str) -> EntryRequest:
    found = entry_requests.by_token(token)
    if found is None:
        raise exceptions.NotFound(gettext("This link opens no request: check the address."))
    return found


class OwnRequestView(_PublicView):
    @extend_schema(
        summary=gettext_lazy("Your request, with its secret token"),
        responses={200: OwnRequestSerializer, **refused(404)},
    )
    def get(self, request: Request, token: str) -> Response:
        found = _by_token(token)
        return Response(OwnRequestSerializer(found, context={"request": request}).data)


class OwnRequestWithdrawView(_PublicView):
    @extend_schema(
        summary=gettext_lazy("Withdraw your request, with its secret token"),
        request=None,
        responses={200: OwnRequestSerializer, **refused(404, 409)},
    )
    def post(self, request: Request, token: str) -> Response:
        found = entry_requests.withdraw(request=_by_token(token), site=_site(request))
        return Response(OwnRequestSerializer(found, context={"request": request}).data)


class PartnerAcceptView(_PublicView):
    @extend_schema(
        summary=gettext_lazy("Accept a doubles invitation, with its secret token"),
        request=PartnerAcceptSerializer,
        responses={200: OwnRequestSerializer, **refused(400, 404, 409)},
    )
    def post(self, request: Request, token: str) -> Response:
        found = entry_requests.by_partner_token(token)
        if found is None:
            raise exceptions.NotFound(gettext("This link opens no invitation: check the address."))
        data = parse(PartnerAcceptSerializer, request)
        done = entry_requests.partner_accept(request=found, site=_site(request), **data)
        body = OwnRequestSerializer(done, context={"request": request}).data
        body.pop("page")  # the applicant's own page is theirs, not the partner's
        return Response(body)
