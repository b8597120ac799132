"""Seeds and pools through the API: the seed editor's table saved at once, and an entry moved
to another round-robin pool (``tournaments.services.seeding``, the service of the seed and pool
editor page, with its words). Reading the pools is public, like the pools page; changing seeds
or pools is for the organizers, through the seed editor's steps (``tournaments.draw_actions``:
``set_seeds``, ``move_to_pool``), whose refusals the API's one handler answers.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.actions import OrganizerActionView, parse, refused
from tournaments.api.serializers import EntrySummarySerializer
from tournaments.draw_actions import move_to_pool, set_seeds
from tournaments.models import Entry, Stage
from tournaments.services import seeding


class SeedLineSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text=gettext_lazy("An entry of the category (its id)."))
    seed = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        help_text=gettext_lazy("From 1 (the strongest); null for no seed."),
    )


class SeedsSerializer(serializers.Serializer):
    seeds = SeedLineSerializer(many=True, allow_empty=False)

    def validate_seeds(self, lines: list[dict]) -> list[dict]:
        ids = [line["entry"] for line in lines]
        if len(set(ids)) != len(ids):
            raise serializers.ValidationError(gettext("Each entry may be named once."))
        return lines


class SeededEntrySerializer(EntrySummarySerializer):
    class Meta(EntrySummarySerializer.Meta):
        fields = ["id", "name", "number", "seed"]
        read_only_fields = fields


class SeedsResultSerializer(serializers.Serializer):
    changed = serializers.IntegerField(help_text=gettext_lazy("How many seeds changed."))
    entries = SeededEntrySerializer(
        many=True, help_text=gettext_lazy("The category's active entries, seeded first, by seed.")
    )


class PoolSerializer(serializers.Serializer):
    name = serializers.CharField()
    entries = EntrySummarySerializer(many=True)


class PoolsSerializer(serializers.Serializer):
    stage = serializers.IntegerField()
    pools = PoolSerializer(many=True)
    editable = serializers.BooleanField(
        help_text=gettext_lazy(
            "A round robin with two or more filled pools, nothing of it played yet."
        )
    )
    refusal = serializers.CharField(
        help_text=gettext_lazy(
            "Why an entry cannot move to another pool now (no pools filled yet, results "
            "recorded); empty when it can."
        )
    )


class PoolMoveSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text=gettext_lazy("The entry to move (its id)."))
    pool = serializers.CharField(
        max_length=20, help_text=gettext_lazy("The pool it goes to, e.g. B.")
    )


class PoolMoveResultSerializer(PoolsSerializer):
    detail = serializers.CharField(help_text=gettext_lazy("What happened, as the page says it."))


def _pools(stage: Stage) -> dict:
    lines = seeding.stage_pools(stage) if stage.kind == Stage.Kind.ROUND_ROBIN else []
    refusal = move_to_pool.unmet(stage)  # the state alone: reading the pools is public
    return {
        "stage": stage.pk,
        "pools": [{"name": line.name, "entries": line.entries} for line in lines],
        "editable": refusal is None,
        "refusal": refusal.text if refusal is not None else "",
    }


class CategorySeedsView(OrganizerActionView):
    @extend_schema(
        summary=gettext_lazy("Set seeds"),
        description=gettext_lazy(
            "Seeds of entries of the category, in one write (the seed editor's table): "
            "a seed given twice among the active entries, or an entry of another category, saves "
            "nothing (400). Seeds apply to draws made from now on."
        ),
        request=SeedsSerializer,
        responses={200: SeedsResultSerializer, **refused(400, 401, 403, 404)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        category = self.category(request, pk)
        data = parse(SeedsSerializer, request)
        changed = set_seeds(
            request.user, category, seeds={line["entry"]: line["seed"] for line in data["seeds"]}
        )
        return Response(
            SeedsResultSerializer(
                {"changed": len(changed), "entries": seeding.seed_table(category)}
            ).data
        )


class StagePoolsView(OrganizerActionView):
    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        summary=gettext_lazy("A stage's pools"),
        responses={200: PoolsSerializer, **refused(404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        stage = get_object_or_404(Stage.objects.select_related("category__tournament"), pk=pk)
        return Response(PoolsSerializer(_pools(stage)).data)

    @extend_schema(
        summary=gettext_lazy("Move an entry to another pool"),
        description=gettext_lazy(
            "A round robin's entry goes to another pool; a drawn stage's pool matches "
            "are drawn again from the new pools. Refused (409) once a result, card row or "
            "shoot-out of the stage is recorded, and (400) when a pool would keep fewer than two."
        ),
        request=PoolMoveSerializer,
        responses={200: PoolMoveResultSerializer, **refused(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        stage = self.stage(request, pk)
        data = parse(PoolMoveSerializer, request)
        entry = Entry.objects.filter(pk=data["entry"], category_id=stage.category_id).first()
        if entry is None:
            raise serializers.ValidationError(
                {
                    "entry": gettext("Choose an entry of %(category)s to move.")
                    % {"category": stage.category.name}
                }
            )
        done = move_to_pool(request.user, stage, entry=entry, pool=data["pool"])
        return Response(PoolMoveResultSerializer({**_pools(stage), "detail": done.describe()}).data)
