"""``GET /api/stages/<id>/cut-odds/``: a stage's cut odds, with the page's figures and words."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.views import refusals
from simulation.odds.selectors import api_data, stage_odds
from tournaments.models import Stage


class NeedsSerializer(serializers.Serializer):
    points = serializers.IntegerField(help_text=_("Points it still needs..."))
    of_points = serializers.IntegerField(help_text=_("...of the points its games left award."))
    twenties = serializers.IntegerField(
        allow_null=True, help_text=_("Or this many more 20s (null: 20s alone would not do).")
    )


class EntryOddsSerializer(serializers.Serializer):
    entry = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField(help_text=_("Its rank in the standings now."))
    points = serializers.IntegerField()
    twenties = serializers.IntegerField()
    cut = serializers.FloatField(help_text=_("Chance of making the cut, from 0 to 1."))
    cut_percent = serializers.CharField(help_text=_("The same as the page says it."))
    places = serializers.ListField(
        child=serializers.FloatField(), help_text=_("Chance of each place the event awards.")
    )
    shootout = serializers.FloatField(help_text=_("Chance of a shoot-out at the cut line."))
    needs = NeedsSerializer(allow_null=True)
    sentence = serializers.CharField(help_text=_("The page's sentence."))


class CutOddsSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    status = serializers.CharField(
        help_text=_(
            "ok, or why there are none: not-preliminary, not-nca, no-cut, no-table, not-drawn, "
            "missing (not worked out yet)."
        )
    )
    reason = serializers.CharField(help_text=_("Why there are no odds, as the page says it."))
    cut = serializers.IntegerField(help_text=_("How many entries go on to the next stage."))
    places = serializers.IntegerField(help_text=_("How many places the odds give."))
    results_seen = serializers.IntegerField(help_text=_("Official results the odds stand on."))
    freshness = serializers.CharField(help_text=_("How fresh, as the page says it."))
    finishes = serializers.IntegerField(help_text=_("Finishes drawn."))
    computed_at = serializers.DateTimeField(allow_null=True)
    entries = EntryOddsSerializer(many=True)


class StageCutOddsView(APIView):
    """A preliminary's live cut odds: every entry's chance of the cut and the places. Public."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary=_("A stage's cut odds"),
        description=_(
            "Every entry's chance of making the cut and of each place the event awards, the "
            "chance of a shoot-out at the cut line and what it still needs, read from finishes "
            "of the games still to play drawn from the outcome model after each verified "
            "result. A stage without odds answers its status and, in reason, why, in the "
            "page's words."
        ),
        responses={200: CutOddsSerializer, **refusals(404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        stage = get_object_or_404(Stage.objects.select_related("category__tournament"), pk=pk)
        return Response(CutOddsSerializer(api_data(stage_odds(stage))).data)
