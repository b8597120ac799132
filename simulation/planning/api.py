"""Planning runs through the API: POST starts one (the step ``planning.start_plan``, the page's
form's inputs), GET reads it (its state, then its result). Organizers only; bad options are a
400 naming the field, as the page marks it."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from simulation.models import PlanningRun
from simulation.planning import services
from simulation.planning.actions import start_plan
from tournaments.api.actions import OrganizerActionView, parse, refused
from tournaments.models import Tournament


class PlanSerializer(serializers.Serializer):
    """The options of a planning run; each may be left out for the form's default."""

    category = serializers.IntegerField(
        required=False, allow_null=True, help_text=gettext_lazy("The category (its id).")
    )
    entries = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=gettext_lazy("Entries expected; default: the active entries registered."),
    )
    boards = serializers.IntegerField(required=False, allow_null=True)
    day_start = serializers.CharField(required=False, help_text=gettext_lazy("HH:MM"))
    day_end = serializers.CharField(
        required=False, help_text=gettext_lazy("HH:MM, the latest acceptable end.")
    )
    game_minutes = serializers.IntegerField(required=False, allow_null=True)
    break_minutes = serializers.IntegerField(required=False, allow_null=True)
    prelim_games = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text=gettext_lazy("e.g. [8, 10]")
    )
    playoffs = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text=gettext_lazy("e.g. [16, 24]")
    )
    best_of = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text=gettext_lazy("e.g. [3, 5]")
    )
    repetitions = serializers.IntegerField(required=False, allow_null=True)


class PlanningRunSerializer(serializers.ModelSerializer):
    percent = serializers.IntegerField(read_only=True)

    class Meta:
        model = PlanningRun
        fields = [
            "id",
            "status",
            "percent",
            "phase",
            "options",
            "result",
            "error",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


class PlansView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Start a planning dry run"),
        description=gettext_lazy(
            "Plays the tournament's day many times over in the background: each format's stage "
            "finish times, the rounds the clock cuts and the chance of an overrun. Options left "
            "out take the planning form's defaults. A bad option is a 400 naming its field."
        ),
        request=PlanSerializer,
        responses={202: PlanningRunSerializer, **refused(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        self.check_organizer(request, tournament)
        data = parse(PlanSerializer, request)
        start = services.defaults(tournament)
        inputs = {name: data.get(name, start.get(name)) for name in start_plan.fields}
        run = start_plan(request.user, tournament, **inputs)
        return Response(PlanningRunSerializer(run).data, status=status.HTTP_202_ACCEPTED)


class PlanView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("A planning dry run"),
        description=gettext_lazy(
            "Its state and progress; once done, per format the stages' finish-time histograms "
            "(minutes after midnight), medians, 90th percentiles, rounds cut and P(overrun)."
        ),
        responses={200: PlanningRunSerializer, **refused(401, 403, 404)},
    )
    def get(self, request: Request, slug: str, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        self.check_organizer(request, tournament)
        run = get_object_or_404(PlanningRun, tournament=tournament, pk=pk)
        return Response(PlanningRunSerializer(run).data)
