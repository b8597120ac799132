"""Closed stages through the API: whether a stage is closed, the head referee's change of a
closed result (with a preview of what it would change in the next stage) and undoing an advance.

The same services, words and permissions as the closed-stage pages
(``scoring.progression.closed``): a write of a closed stage's results anywhere else (a card row,
a dispute ruling, a shoot-out) is refused with the message of ``scoring.progression.locks``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.serializers import RoundInputSerializer
from scoring.api.views import ScoringErrorsMixin, parse, refusals
from scoring.models import ClosedStageChange
from scoring.progression.actions import undo_advance as undo_step
from scoring.progression.closed import ClosedChange
from scoring.progression.closed_actions import change_closed_result_step
from scoring.progression.locks import closure
from scoring.progression.selectors import closed_changes
from tournaments.api.serializers import EntrySummarySerializer
from tournaments.models import Game, Stage


class StageRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class RoundsSerializer(serializers.Serializer):
    """A round in the match's order of sides (entry A first)."""

    points = serializers.ListField(child=serializers.IntegerField())
    twenties = serializers.ListField(child=serializers.IntegerField())
    score = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    time_expired = serializers.BooleanField()


class ClosedStageChangeSerializer(serializers.ModelSerializer):
    """A recorded change of a closed result: who, when, why, before and after, the impact."""

    changed_by = serializers.CharField(
        source="changed_by.username", read_only=True, allow_null=True
    )
    into = StageRefSerializer(read_only=True, allow_null=True)
    before = RoundsSerializer(many=True, read_only=True)
    after = RoundsSerializer(many=True, read_only=True)

    class Meta:
        model = ClosedStageChange
        fields = [
            "id",
            "stage",
            "game",
            "into",
            "changed_by",
            "changed_at",
            "initials",
            "reason",
            "before",
            "after",
            "impact",
        ]
        read_only_fields = fields


class StageClosureSerializer(serializers.Serializer):
    stage = serializers.IntegerField(source="stage.id")
    closed = serializers.BooleanField(
        help_text=_(
            "The stage has advanced: its results are locked; only the head referee changes one "
            "(POST /api/games/{id}/closed-change/)."
        )
    )
    advanced_into = StageRefSerializer(
        allow_null=True, help_text=_("The stage seeded from it, while it is closed.")
    )
    advanced_at = serializers.DateTimeField(
        allow_null=True,
        help_text=_("When it advanced (unknown for an advance made before this was recorded)."),
    )
    message = serializers.CharField(
        allow_blank=True, help_text=_("What a write of its results is refused with.")
    )
    changes = serializers.SerializerMethodField(
        help_text=_(
            "The head referee's changes of its closed results, newest first; for the "
            "tournament's officials only (null for anyone else)."
        )
    )

    @extend_schema_field(ClosedStageChangeSerializer(many=True, allow_null=True))
    def get_changes(self, data: dict) -> list[dict] | None:
        if data["changes"] is None:
            return None
        return ClosedStageChangeSerializer(data["changes"], many=True).data


def closure_data(stage: Stage, user) -> dict:
    found = closure(stage)
    official = user.is_authenticated and user.has_perm("tournaments.view_official_pages", stage)
    return {
        "stage": stage,
        "closed": found is not None,
        "advanced_into": found.into if found else None,
        "advanced_at": found.since if found else None,
        "message": found.message() if found else "",
        "changes": closed_changes(stage=stage) if official else None,
    }


def _stage(pk: int) -> Stage:
    return get_object_or_404(Stage.objects.select_related("category__tournament"), pk=pk)


class ServiceWordsMixin(ScoringErrorsMixin):
    """A refusal keeps the service's words: who may (the API's one handler)."""


class StageClosureView(ServiceWordsMixin, APIView):
    """Whether a stage is closed (it has advanced), into which stage and since when."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary=_("Whether a stage is closed"),
        responses={200: StageClosureSerializer, **refusals(404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        stage = _stage(pk)
        return Response(StageClosureSerializer(closure_data(stage, request.user)).data)


class UndoneSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("What was undone, as the page says it."))
    stage = StageClosureSerializer(help_text=_("The stage, open again."))


class UndoAdvanceView(ServiceWordsMixin, APIView):
    """The organizers undo a stage's advance while the next stage has no result."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary=_("Undo a stage's advance"),
        description=_(
            "The next stage's draw and seeding go and the stage is open again (recorded "
            "shoot-outs stay). Refused (409) when the stage has not advanced, or when the next "
            "stage has a result (a card row, an official round, a shoot-out) or the stage after "
            "it is drawn; 403 for anyone but the organizers."
        ),
        request=None,
        responses={200: UndoneSerializer, **refusals(403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = _stage(pk)
        undone = undo_step(request.user, stage)
        return Response(
            {
                "detail": undone.message(),
                "stage": StageClosureSerializer(closure_data(undone.stage, request.user)).data,
            }
        )


class ClosedChangeInputSerializer(serializers.Serializer):
    rounds = RoundInputSerializer(
        many=True,
        allow_empty=False,
        help_text=_(
            "The game's corrected rounds, complete, in the match's order of sides: entry A "
            "first (then B, and C in a three-player game)."
        ),
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", help_text=_("Why it changes (to write it).")
    )
    initials = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=5,
        help_text=_("The head referee's initials (to write it)."),
    )
    preview = serializers.BooleanField(
        default=False,
        help_text=_(
            "True: only say what the change would mean for the next stage; nothing is written."
        ),
    )


class ClosedChangeSerializer(serializers.Serializer):
    preview = serializers.SerializerMethodField(help_text=_("True when nothing was written."))
    stage = serializers.IntegerField(source="closure.stage.id")
    advanced_into = StageRefSerializer(source="closure.into")
    game = serializers.IntegerField(source="game.id")
    before = RoundsSerializer(many=True, help_text=_("The official rounds before the change."))
    after = RoundsSerializer(many=True, help_text=_("The rounds after it."))
    impact = serializers.CharField(
        source="impact.text", help_text=_("What it would change in the next stage, in words.")
    )
    crosses_cut = serializers.BooleanField(
        source="impact.crosses_cut", help_text=_("An entry would go on in place of another.")
    )
    leaving = EntrySummarySerializer(
        source="impact.leaving", many=True, help_text=_("Would no longer advance.")
    )
    joining = EntrySummarySerializer(
        source="impact.joining", many=True, help_text=_("Would advance in their place.")
    )
    would_advance = EntrySummarySerializer(
        source="impact.after",
        many=True,
        allow_null=True,
        help_text=_(
            "Who would surely advance after the change, best first (not those tied on the cut "
            "line: see undecided)."
        ),
    )
    undecided = EntrySummarySerializer(
        source="impact.undecided",
        many=True,
        help_text=_("Tied on the cut line after the change: a shoot-out would decide."),
    )
    change = serializers.SerializerMethodField(help_text=_("The record, once written."))

    @extend_schema_field(ClosedStageChangeSerializer(allow_null=True))
    def get_change(self, change: ClosedChange) -> dict | None:
        if change.record is None:
            return None
        return ClosedStageChangeSerializer(change.record).data

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_preview(self, change: ClosedChange) -> bool:
        return change.record is None


class ClosedChangeView(ServiceWordsMixin, APIView):
    """The head referee changes the result of a game of a closed stage."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary=_("Change a result of a closed stage"),
        description=_(
            "For the head referee. With `preview: true`, nothing is written: the answer says "
            "what the change would mean for the next stage (who would no longer advance and who "
            "would, seeds that swap, a tie on the cut line, or no change to who advances). "
            "Without it (a `reason` and `initials` needed), every card of the game takes the "
            "rounds, verified, the official result follows and the change is recorded (201). The "
            "next stage is not redrawn: the organizer may undo the advance while it has no result."
        ),
        request=ClosedChangeInputSerializer,
        responses={
            200: ClosedChangeSerializer,
            201: ClosedChangeSerializer,
            **refusals(400, 403, 404, 409),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(Game, pk=pk)
        data = parse(ClosedChangeInputSerializer, request)
        change = change_closed_result_step(
            request.user,
            game,
            rounds=data["rounds"],
            reason=data["reason"],
            initials=data["initials"],
            preview=data["preview"],
        )
        return Response(
            ClosedChangeSerializer(change).data,
            status=status.HTTP_200_OK if data["preview"] else status.HTTP_201_CREATED,
        )
