"""``GET /api/tournaments/<slug>/overlay/``: the featured match on air, as the overlay shows it.

The same body is sent by the overlay's event stream ``/t/<slug>/overlay/events/``
(``text/event-stream``), at once and then at each change; this feed is its fallback.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from simulation.broadcast.selectors import live_state, on_air
from tournaments.models import Tournament


class LiveRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField(), help_text=_("A, B."))
    twenties = serializers.ListField(child=serializers.IntegerField(), help_text=_("A, B."))
    hammer = serializers.CharField(help_text=_("The side that shot last: a or b."))


class LiveGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    points = serializers.ListField(child=serializers.IntegerField())
    twenties = serializers.ListField(child=serializers.IntegerField())
    over = serializers.BooleanField()
    winner = serializers.CharField(allow_null=True, help_text=_("a, b, or null."))
    rounds = LiveRoundSerializer(many=True)


class ChanceSerializer(serializers.Serializer):
    a = serializers.FloatField(help_text=_("A's chance of winning the match, 0 to 1."))
    b = serializers.FloatField()
    a_percent = serializers.IntegerField()
    b_percent = serializers.IntegerField()


class OverlaySerializer(serializers.Serializer):
    tournament = serializers.CharField()
    featured = serializers.IntegerField(
        allow_null=True, help_text=_("The featured match on air; null when none is.")
    )
    version = serializers.IntegerField(help_text=_("Moves with every change (the stream's id)."))
    state = serializers.CharField(required=False, help_text=_("queued, live or finished."))
    state_label = serializers.CharField(required=False)
    match = serializers.IntegerField(required=False)
    stage = serializers.CharField(required=False)
    names = serializers.ListField(child=serializers.CharField(), required=False)
    best_of = serializers.IntegerField(required=False)
    games_won = serializers.ListField(child=serializers.IntegerField(), required=False)
    game = serializers.IntegerField(required=False, help_text=_("The game in play."))
    over = serializers.BooleanField(required=False)
    hammer = serializers.CharField(
        required=False, allow_null=True, help_text=_("Who has the hammer in the next round.")
    )
    games = LiveGameSerializer(many=True, required=False)
    win_chance = ChanceSerializer(required=False, allow_null=True)
    course = serializers.ListField(
        child=serializers.FloatField(),
        required=False,
        help_text=_("A's chance before the first round and after each round."),
    )
    no_chance = serializers.CharField(required=False, help_text=_("Why there is no chance."))
    note = serializers.CharField(help_text=_("Live score: the scorecard is official."))
    empty = serializers.CharField(required=False)


class OverlayFeedView(APIView):
    """The featured match on air: names, rounds, 20s, hammer and win chance. Public.

    The same body arrives as server-sent events at ``/t/<slug>/overlay/events/``
    (``text/event-stream``: each event's ``data`` is this JSON, its ``id`` the ``version``; sent
    at once, at each change and after 15 s of silence; 503 when the server follows too many
    streams, then poll this feed)."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary=_("The overlay's feed (the featured match on air)"),
        responses={200: OverlaySerializer},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        return Response(live_state(on_air(tournament), tournament))
