"""Seeds from ratings through the API: the proposal (the entries ranked by rating and what the
draw would make of those seeds) and applying it (``scoring.seeds``), as the organizer page shows
and does. For the organizers only, refused in the page's words (the step's,
``scoring.seeds.actions.apply_seeds_from_ratings``); any seed can then be changed with the seed
editor's endpoint (``api:category-seeds``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from scoring.seeds import services
from scoring.seeds.actions import apply_seeds_from_ratings
from scoring.seeds.views import pool_count_of, stage_of
from tournaments.api.actions import OrganizerActionView, refused
from tournaments.api.seeding import SeededEntrySerializer, SeedsResultSerializer
from tournaments.models import Category
from tournaments.services import seeding


class SeedRowSerializer(serializers.Serializer):
    entry = SeededEntrySerializer(
        help_text=gettext_lazy("The entry, with the seed it holds now (null for none).")
    )
    seed = serializers.IntegerField(help_text=gettext_lazy("The seed proposed (1 the strongest)."))
    rating = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy(
            "On the display scale; a team's per partner (its partners' beliefs added, halved). "
            "Null when nobody of the entry is rated."
        ),
    )
    plusminus = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("The rating's ± (two spreads: about 95 in 100 sure)."),
    )
    games = serializers.IntegerField(
        help_text=gettext_lazy("Recorded games in the discipline (both partners' for a team).")
    )
    rated = serializers.BooleanField()
    unrated_people = serializers.IntegerField(
        help_text=gettext_lazy(
            "How many of the entry's people have no rating (a team with one is counted with "
            "that partner at the starting rating)."
        )
    )


class PoolPreviewSerializer(serializers.Serializer):
    name = serializers.CharField()
    average = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy("The mean rating of its rated entries; null when none is rated."),
    )
    unrated = serializers.IntegerField(help_text=gettext_lazy("Its entries without a rating."))
    entries = serializers.ListField(
        child=serializers.IntegerField(), help_text=gettext_lazy("Entry ids, best seed first.")
    )


class PairingPreviewSerializer(serializers.Serializer):
    label = serializers.CharField(
        help_text=gettext_lazy("The bracket's match (QF1); empty in Swiss.")
    )
    a = serializers.IntegerField(help_text=gettext_lazy("The better seed's entry id."))
    b = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("The other entry's id; null for a bye.")
    )


class SeedProposalSerializer(serializers.Serializer):
    category = serializers.IntegerField()
    stage = serializers.IntegerField(allow_null=True)
    discipline = serializers.CharField(help_text=gettext_lazy("The rating discipline read."))
    format = serializers.ChoiceField(
        choices=["round-robin", "knockout", "swiss", "none", "advance"],
        help_text=gettext_lazy(
            "What the stage's draw makes of the seeds: pools, a bracket's first round, a Swiss "
            "first round; none (no stage, or a draw without seeds); advance (a stage filled by "
            "the one before)."
        ),
    )
    pool_count = serializers.IntegerField(allow_null=True)
    note = serializers.CharField(
        help_text=gettext_lazy("Why there is no preview, in the page's words; empty otherwise.")
    )
    rows = SeedRowSerializer(many=True)
    pools = PoolPreviewSerializer(many=True)
    pairings = PairingPreviewSerializer(many=True)
    byes = serializers.ListField(
        child=serializers.IntegerField(),
        help_text=gettext_lazy("Knockout: the entries straight into the second round."),
    )
    refusal = serializers.CharField(
        help_text=gettext_lazy(
            "Why applying is refused now (the stage is drawn ...); empty when not."
        )
    )


def proposal_data(proposal: services.SeedProposal, refusal: str) -> dict:
    """The proposal as the serializer reads it."""
    return {
        "category": proposal.category.pk,
        "stage": proposal.stage.pk if proposal.stage else None,
        "discipline": proposal.discipline,
        "format": proposal.format,
        "pool_count": proposal.pool_count,
        "note": proposal.note,
        "rows": [
            {
                "entry": row.entry,
                "seed": row.seed,
                "rating": row.rating,
                "plusminus": row.plusminus,
                "games": row.games,
                "rated": row.rated,
                "unrated_people": row.unrated_people,
            }
            for row in proposal.rows
        ],
        "pools": [
            {
                "name": pool.name,
                "average": pool.average,
                "unrated": pool.unrated,
                "entries": [row.entry.pk for row in pool.rows],
            }
            for pool in proposal.pools
        ],
        "pairings": [
            {"label": p.label, "a": p.a.entry.pk, "b": p.b.entry.pk if p.b else None}
            for p in proposal.pairings
        ],
        "byes": [row.entry.pk for row in proposal.byes],
        "refusal": refusal,
    }


STAGE = OpenApiParameter(
    "stage", int, description=gettext_lazy("A stage of the category (default: its first).")
)
POOLS = OpenApiParameter(
    "pools",
    int,
    description=gettext_lazy("Round robin: the number of pools to preview (default: the draw's)."),
)


class CategorySeedsFromRatingsView(OrganizerActionView):
    """The organizers only, refused in the step's words (the page's)."""

    def check_organizer(self, request: Request, obj: Category) -> None:
        refusal = apply_seeds_from_ratings.forbidden(request.user, obj)
        if refusal is not None:
            raise refusal

    @extend_schema(
        summary=gettext_lazy("Seeds proposed from ratings"),
        description=gettext_lazy(
            "The category's active entries ranked by rating in its discipline (the unrated "
            "last, by name), and what the stage's draw would make of those seeds: the pools of "
            "a round robin (snake order) with their average ratings, or the first round of a "
            "knockout or a Swiss stage. Nothing is written."
        ),
        parameters=[STAGE, POOLS],
        responses={200: SeedProposalSerializer, **refused(400, 401, 403, 404)},
    )
    def get(self, request: Request, pk: int) -> Response:
        category = self.category(request, pk)
        pool_count, problem = pool_count_of(request.query_params.get("pools"))
        if problem:
            raise exceptions.ValidationError({"pools": [problem]})
        proposal = services.proposal(
            category, stage_of(category, request.query_params.get("stage")), pool_count=pool_count
        )
        refusal = apply_seeds_from_ratings.unmet(category)
        return Response(
            SeedProposalSerializer(proposal_data(proposal, refusal.text if refusal else "")).data
        )

    @extend_schema(
        summary=gettext_lazy("Use the seeds from ratings"),
        description=gettext_lazy(
            "Every active entry of the category gets its seed from ratings (as the proposal "
            "says now), through the seed editor's write. Refused (409) once the category's first "
            "stage is drawn, or with no active entry. Change any seed afterwards with the seed "
            "editor's endpoint."
        ),
        request=None,
        responses={200: SeedsResultSerializer, **refused(401, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        category = self.category(request, pk)
        changed = services.apply(category, request.user)
        return Response(
            SeedsResultSerializer(
                {"changed": len(changed), "entries": seeding.seed_table(category)}
            ).data
        )
