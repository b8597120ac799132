"""Draws through the API: draw a stage, undo a draw, swap two entries in it.

The same services as the stage and draw pages (``tournaments.services.draws``), with the same
gate and the same words: a first draw is refused while an active entry is neither checked in
nor withdrawn, and the answer lists those entries so the client can check them in
(``POST /api/categories/{id}/check-in/``, ``PATCH /api/entries/{id}/``) or withdraw them, as the
draw page offers; a stage after another gets its entries from that stage's Advance, not from a
draw of its own. Organizers only (``tournaments.manage_tournament``).

Each endpoint takes its step (``tournaments.draw_actions``): a refusal is answered by the API's
one handler (``tournaments.api.errors``) with the step's words, 409 when the stage's state does
not allow it now, 400 for what was asked.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.actions import OrganizerActionView, parse, refused
from tournaments.api.serializers import EntrySummarySerializer
from tournaments.draw_actions import draw_stage, swap_entries, undo_draw
from tournaments.models import ENTRY_PEOPLE, Entry
from tournaments.services.draws import NotCheckedInError


class DrawOptionsSerializer(serializers.Serializer):
    """The draw page's options; each applies only to the kinds of stage that use it."""

    method = serializers.ChoiceField(
        choices=[
            ("random", gettext_lazy("Random opponents")),
            ("rotation", gettext_lazy("Rotation (fixed schedule)")),
        ],
        required=False,
        help_text=gettext_lazy("Preliminary: how opponents are paired (default random)."),
    )
    pool_count = serializers.IntegerField(
        min_value=1,
        max_value=64,
        required=False,
        allow_null=True,
        help_text=gettext_lazy("Round robin: how many pools (default: the stage's pools, or one)."),
    )
    double = serializers.BooleanField(
        required=False, help_text=gettext_lazy("Round robin: play twice.")
    )
    third_place = serializers.BooleanField(
        required=False, help_text=gettext_lazy("Knockout: a match for 3rd place.")
    )

    def options(self) -> dict:
        """The options given, without the blanks, so the service's defaults apply (as the
        page's form does)."""
        return {k: v for k, v in self.validated_data.items() if v not in (None, "", False)}


class DrawResultSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    matches = serializers.IntegerField(help_text=gettext_lazy("How many matches the draw made."))
    detail = serializers.CharField(help_text=gettext_lazy("What happened, as the page says it."))


class NotCheckedInSerializer(serializers.Serializer):
    detail = serializers.CharField()
    not_checked_in = EntrySummarySerializer(
        many=True,
        help_text=gettext_lazy(
            "The active entries neither checked in nor withdrawn: check each in or "
            "withdraw it, then draw again."
        ),
    )


class UndoResultSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    matches_removed = serializers.IntegerField()
    detail = serializers.CharField()


class SwapSerializer(serializers.Serializer):
    entry_a = serializers.IntegerField(
        help_text=gettext_lazy("An entry of the stage's category (its id).")
    )
    entry_b = serializers.IntegerField(
        help_text=gettext_lazy(
            "The entry it swaps with: in the draw too, or one of the category not drawn, "
            "which takes the other's place."
        )
    )

    def validate(self, attrs: dict) -> dict:
        found = {
            e.pk: e
            for e in Entry.objects.filter(
                pk__in=[attrs["entry_a"], attrs["entry_b"]]
            ).select_related("category", *ENTRY_PEOPLE)
        }
        for name in ("entry_a", "entry_b"):
            if attrs[name] not in found:
                raise serializers.ValidationError(
                    {name: gettext("There is no entry %(entry)s.") % {"entry": attrs[name]}}
                )
            attrs[name] = found[attrs[name]]
        return attrs


class SwapResultSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    matches = serializers.IntegerField(help_text=gettext_lazy("How many matches changed."))
    detail = serializers.CharField()


class StageDrawView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Draw a stage"),
        description=gettext_lazy(
            "Draw the stage by its kind with the draw page's options (a Swiss stage "
            "gets its first round). Refused (409) for a stage drawn already, one filled by the "
            "Advance of the stage before or a shoot-out; (400) for a draw that cannot be made "
            "with the options given, and while entries of the category are neither checked in "
            "nor withdrawn: then the answer lists them."
        ),
        request=DrawOptionsSerializer,
        responses={
            201: DrawResultSerializer,
            400: OpenApiResponse(
                NotCheckedInSerializer,
                description=gettext_lazy(
                    "Refused: ``detail`` says why, as the page does; when entries are "
                    "not checked in, ``not_checked_in`` lists them."
                ),
            ),
            **refused(401, 403, 404, 409),
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = self.stage(request, pk)
        body = DrawOptionsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            matches = draw_stage(request.user, stage, **body.options())
        except NotCheckedInError as exc:
            # An answer with the entries to settle, as the draw page lists them.
            return Response(
                {
                    "detail": exc.text,
                    "not_checked_in": EntrySummarySerializer(exc.entries, many=True).data,
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        return Response(
            {
                "stage": stage.pk,
                "matches": len(matches),
                # The words of the stage page's message (``views.organizer.stages``).
                "detail": gettext("%(stage)s: %(done)s (%(count)d matches).")
                % {"stage": stage.name, "done": gettext("drawn"), "count": len(matches)},
            },
            status=status.HTTP_201_CREATED,
        )


class StageUndoDrawView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Undo a stage's draw"),
        description=gettext_lazy(
            "Take back the draw while nothing of it is played (no official round, "
            "scorecard row or shoot-out) and the next stage is not drawn from it; for a stage "
            "filled by an Advance this undoes the advance."
        ),
        request=None,
        responses={200: UndoResultSerializer, **refused(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = self.stage(request, pk)
        count = undo_draw(request.user, stage)
        return Response(
            {
                "stage": stage.pk,
                "matches_removed": count,
                "detail": gettext("%(stage)s: draw undone (%(count)d matches removed).")
                % {"stage": stage.name, "count": count},
            }
        )


class StageSwapView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Swap two entries in a drawn stage"),
        description=gettext_lazy(
            "Each takes the other's matches, boards and place in the pools or the "
            "bracket; an entry of the category not in the draw takes the other's place. Refused "
            "once a match of either has a card row or an official round."
        ),
        request=SwapSerializer,
        responses={200: SwapResultSerializer, **refused(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = self.stage(request, pk)
        data = parse(SwapSerializer, request)
        a, b = data["entry_a"], data["entry_b"]
        count = swap_entries(request.user, stage, entry_a=a, entry_b=b)
        return Response(
            {
                "stage": stage.pk,
                "matches": count,
                "detail": gettext("%(stage)s: %(a)s and %(b)s swapped (%(count)d matches).")
                % {"stage": stage.name, "a": a.name, "b": b.name, "count": count},
            }
        )
