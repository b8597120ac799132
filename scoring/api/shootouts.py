"""Shoot-out endpoint: the ties a stage has to settle, and recording one shoot-out.

``GET /api/stages/{id}/shootouts/`` is public like the standings; ``POST`` records one
shoot-out among one tied group through the step ``scoring.progression.actions.record_shootout``,
the same step, words and permission (a referee, the head referee or the scoring table, never
one who shoots in it) as the shoot-out page.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.views import ScoringErrorsMixin, parse, refusals
from scoring.engine import SHOTS_PER_ENTRY
from scoring.progression.actions import record_shootout
from scoring.progression.selectors import ShootoutSheet, shootout_sheet
from tournaments.api.serializers import EntrySummarySerializer
from tournaments.models import Stage


class TiedGroupSerializer(serializers.Serializer):
    pool = serializers.CharField(help_text=_("The pool, when the stage is played in pools."))
    rank = serializers.IntegerField(help_text=_("The place the tied entries share."))
    entries = EntrySummarySerializer(many=True)


class ShotSerializer(serializers.Serializer):
    entry = EntrySummarySerializer()
    twenties = serializers.IntegerField()


class RecordedShootoutSerializer(serializers.Serializer):
    order = serializers.IntegerField(help_text=_("1 for the first shoot-out, 2 if shot again..."))
    scores = ShotSerializer(many=True)
    recorded_by = serializers.CharField(
        help_text=_(
            "Who recorded it (a referee, the head referee or the scoring table); empty when the "
            "loader or the simulation did."
        )
    )
    recorded_at = serializers.DateTimeField(help_text=_("When it was recorded."))


class ShootoutSheetSerializer(serializers.Serializer):
    stage = serializers.IntegerField(
        source="source.id", help_text=_("The stage whose tie is settled.")
    )
    shots_per_entry = serializers.IntegerField()
    shots_per_player = serializers.IntegerField(help_text=_("12 in singles, 6 each in doubles."))
    waiting = TiedGroupSerializer(
        many=True,
        help_text=_(
            "Groups still tied where it decides something, after play: each needs one shoot-out "
            "among exactly its entries."
        ),
    )
    recorded = serializers.SerializerMethodField()

    @extend_schema_field(RecordedShootoutSerializer(many=True))
    def get_recorded(self, sheet: ShootoutSheet) -> list[dict]:
        return RecordedShootoutSerializer(
            [
                {
                    "order": shot.order,
                    "scores": [{"entry": e, "twenties": n} for e, n in shot.scores],
                    "recorded_by": shot.recorded_by,
                    "recorded_at": shot.recorded_at,
                }
                for shot in sheet.recorded
            ],
            many=True,
        ).data


class ShootoutScoreInputSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text=_("The entry's id."))
    twenties = serializers.IntegerField(
        min_value=0,
        max_value=SHOTS_PER_ENTRY,
        help_text=_("20s the entry made with its 12 shots (a doubles team: both partners' 6)."),
    )


class RecordShootoutSerializer(serializers.Serializer):
    scores = ShootoutScoreInputSerializer(many=True, allow_empty=False)

    def validate_scores(self, scores: list[dict]) -> list[dict]:
        ids = [s["entry"] for s in scores]
        if len(set(ids)) != len(ids):
            raise serializers.ValidationError(gettext("Each entry may be named once."))
        return scores


class StageShootoutsView(ScoringErrorsMixin, APIView):
    """A stage's ties waiting for a shoot-out and the shoot-outs recorded; record one."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    def _stage(self, pk: int) -> Stage:
        return get_object_or_404(Stage.objects.select_related("category__tournament"), pk=pk)

    @extend_schema(
        summary=_("Ties waiting for a shoot-out"),
        responses={200: ShootoutSheetSerializer, **refusals(404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(ShootoutSheetSerializer(shootout_sheet(self._stage(pk))).data)

    @extend_schema(
        summary=_("Record a shoot-out"),
        description=_(
            "The 20s each entry of one tied group made (WCC: 12 shots, 6 each in doubles). "
            "Refused (400) unless the entries are exactly one group waiting, (409) when no tie "
            "waits; while a group is still tied after it, record another. Then advancing the "
            "stage works."
        ),
        request=RecordShootoutSerializer,
        responses={201: ShootoutSheetSerializer, **refusals(400, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = self._stage(pk)
        data = parse(RecordShootoutSerializer, request)
        made = {score["entry"]: score["twenties"] for score in data["scores"]}
        record_shootout(request.user, stage, twenties=made)
        return Response(
            ShootoutSheetSerializer(shootout_sheet(stage)).data, status=status.HTTP_201_CREATED
        )
