"""Advancing a stage through the API: its top entries seeded into the next stage, drawn.

The same service as the category page's Advance button (``scoring.progression.services.
advance``), with its options, its words and its permission (the organizers). A tie on the cut
line (or one that decides the seeding of the next stage) stops it: the service creates the
shoot-out stage that settles it, and the answer is a 409 naming the tied entries, that stage,
the shoot-out page where a referee or the scoring table records it and the endpoint that takes
it (``POST /api/stages/{id}/shootouts/``); then advance again.

Both endpoints take the steps of the category page's buttons (``scoring.progression.actions``):
any other refusal is answered by the API's one handler with the step's words, 409 when the
stage's state does not allow it now.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.progression.actions import advance, draw_next_round
from scoring.progression.services import CutLineTieError, CutTie
from tournaments.api.actions import OrganizerActionView, refused
from tournaments.api.serializers import EntrySummarySerializer, StageSerializer


class AdvanceOptionsSerializer(serializers.Serializer):
    """The Advance button's options; each applies to the kind of the next stage."""

    pool_count = serializers.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        allow_null=True,
        help_text=gettext_lazy(
            "Next stage a round robin: how many pools (default: its pools, or one)."
        ),
    )
    double = serializers.BooleanField(
        required=False, help_text=gettext_lazy("Next stage a round robin: play it twice.")
    )
    third_place = serializers.BooleanField(
        required=False, help_text=gettext_lazy("Next stage a knockout: a match for 3rd place.")
    )

    def options(self) -> dict:
        return {k: v for k, v in self.validated_data.items() if v not in (None, False)}


class AdvancedSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=gettext_lazy("What happened, as the page says it."))
    next_stage = StageSerializer(help_text=gettext_lazy("The stage seeded and drawn."))
    matches = serializers.IntegerField(
        help_text=gettext_lazy("The matches of the next stage now drawn.")
    )


class CutTieSerializer(serializers.Serializer):
    pool = serializers.CharField(
        # Translators: “cut” is the field's value for such a stage: keep it as it is.
        help_text=gettext_lazy("The pool, or “cut” for a stage played as one.")
    )
    rank = serializers.IntegerField(
        help_text=gettext_lazy("The first place the tied entries share.")
    )
    places = serializers.IntegerField(
        help_text=gettext_lazy("How many of them go on (or are seeded).")
    )
    seeding = serializers.BooleanField(
        help_text=gettext_lazy(
            "True when all go on and the tie only decides the next stage's seeding."
        )
    )
    entries = EntrySummarySerializer(many=True)


class CutLineTieSerializer(serializers.Serializer):
    detail = serializers.CharField()
    ties = CutTieSerializer(many=True)
    shootout_stage = serializers.IntegerField(
        help_text=gettext_lazy("The shoot-out stage created for it.")
    )
    shootout_page = serializers.URLField(
        help_text=gettext_lazy("Where a referee records the shoot-out.")
    )
    shootout_api = serializers.CharField(help_text=gettext_lazy("The endpoint that records it."))


def _tie(tie: CutTie) -> dict:
    return {
        "pool": tie.pool,
        "rank": tie.rank,
        "places": tie.places,
        "seeding": tie.seeding,
        "entries": list(tie.entries),
    }


class StageAdvanceView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Advance a finished stage"),
        description=gettext_lazy(
            "Seed the next stage with the top ``advance_count`` entries by the standings and "
            "draw it. Refused (409) for an unfinished stage, the last stage, a knockout (its "
            "winners go on inside it) or a next stage that has its entries already."
        ),
        request=AdvanceOptionsSerializer,
        responses={
            200: AdvancedSerializer,
            409: OpenApiResponse(
                CutLineTieSerializer,
                description=gettext_lazy(
                    "Entries tied where it matters: record the shoot-out, then advance again."
                ),
            ),
            **refused(400, 401, 403, 404),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = self.stage(request, pk)
        body = AdvanceOptionsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            target = advance(request.user, stage, **body.options())
        except CutLineTieError as exc:
            # An answer, not an exception: the shoot-out stage the service created is kept.
            shootout = exc.shootout_stage
            slug = stage.category.tournament.slug
            answer = {
                "detail": exc.text,
                "ties": [_tie(t) for t in exc.ties],
                "shootout_stage": shootout.pk,
                "shootout_page": request.build_absolute_uri(
                    reverse("scoring:shootout", args=[slug, shootout.pk])
                ),
                "shootout_api": reverse("api:stage-shootouts", args=[shootout.pk]),
            }
            return Response(CutLineTieSerializer(answer).data, status=status.HTTP_409_CONFLICT)
        return Response(
            AdvancedSerializer(
                {
                    # In the words of the category page's message (the same catalogue entries).
                    "detail": gettext("%(stage)s: %(done)s; next: %(next)s.")
                    % {
                        "stage": stage.name,
                        "done": gettext("entries advanced"),
                        "next": target.name,
                    },
                    "next_stage": target,
                    "matches": target.matches.count(),
                }
            ).data
        )


class NextRoundSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=gettext_lazy("What happened, as the page says it."))
    round_of_play = serializers.IntegerField(help_text=gettext_lazy("The round just paired."))
    matches = serializers.IntegerField(help_text=gettext_lazy("The matches of that round."))


class StageNextRoundView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Pair the next round of a Swiss stage"),
        description=gettext_lazy(
            "Pairs the next round from the standings so far, never a rematch (the category "
            "page's “Draw round …” button). Refused (409) while the current round is not "
            "finished or once every round is drawn, (400) for a stage that is not Swiss."
        ),
        request=None,
        responses={200: NextRoundSerializer, **refused(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = self.stage(request, pk)
        matches = draw_next_round(request.user, stage)
        number = max((m.round_of_play for m in matches), default=0)
        return Response(
            NextRoundSerializer(
                {
                    "detail": gettext("%(stage)s: %(done)s (%(count)d matches).")
                    % {
                        "stage": stage.name,
                        "done": gettext("next round drawn"),
                        "count": len(matches),
                    },
                    "round_of_play": number,
                    "matches": len(matches),
                }
            ).data
        )
