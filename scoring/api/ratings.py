"""The ranking and the ratings through the API: a discipline's ranking, a person's ratings with
their history, and a record keeper's recompute.

The same rows, steps and words as the ranking pages (``scoring.ratings``): reading is open to
everyone (a ranking is results); a person who shows only their name in results has no public
ratings history; recomputing is the record keepers' (``MANAGE_RECORD``), refused with the
page's words.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.celery import QueueUnreachable
from scoring.api.views import ErrorSerializer, ScoringErrorsMixin, refusals
from scoring.models.record import Discipline
from scoring.ratings import actions as steps
from scoring.ratings.ranking import baseline, min_games, person_ratings, ranking
from tournaments.models import Person, Tournament
from tournaments.permissions import MANAGE_RECORD


class RankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    person = serializers.IntegerField(source="person_id")
    name = serializers.CharField()
    public_profile = serializers.BooleanField(
        help_text=gettext_lazy("False for a person who shows only their name in results.")
    )
    rating = serializers.IntegerField(help_text=gettext_lazy("On the display scale (1500: new)."))
    plus_minus = serializers.IntegerField(
        help_text=gettext_lazy("The rating's ± on the display scale (two spreads).")
    )
    mu = serializers.FloatField(help_text=gettext_lazy("The belief's mean (model units)."))
    sigma = serializers.FloatField(help_text=gettext_lazy("The belief's spread (model units)."))
    games = serializers.IntegerField()
    moved = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy(
            "Places gained since the ranking after the last event (negative: lost); null when "
            "not ranked then."
        ),
    )


class RankingSerializer(serializers.Serializer):
    discipline = serializers.CharField()
    min_games = serializers.IntegerField(
        help_text=gettext_lazy("Games in the discipline before a person is ranked.")
    )
    order = serializers.CharField(
        help_text=gettext_lazy("What the ranking is ordered by: the rating less two spreads.")
    )
    movers_since = serializers.DateTimeField(
        allow_null=True,
        help_text=gettext_lazy("When the ranking movers are measured against was kept."),
    )
    rows = RankingRowSerializer(many=True)


class RatingPointSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text=gettext_lazy("The recorded game's id."))
    played_on = serializers.DateField()
    rating = serializers.IntegerField()
    plus_minus = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()


class PersonRatingSerializer(serializers.Serializer):
    discipline = serializers.CharField()
    rating = serializers.IntegerField()
    plus_minus = serializers.IntegerField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    last_played = serializers.DateField(allow_null=True)
    ranked = serializers.BooleanField()
    history = RatingPointSerializer(many=True)


class PersonRatingsSerializer(serializers.Serializer):
    person = serializers.IntegerField()
    name = serializers.CharField()
    ratings = PersonRatingSerializer(many=True)


class RecomputeSerializer(serializers.Serializer):
    task = serializers.CharField(help_text=gettext_lazy("The recompute task's id."))


class RankingView(APIView):
    """A discipline's ranking."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary=gettext_lazy("A discipline's ranking"),
        responses={200: RankingSerializer, 404: OpenApiResponse(ErrorSerializer)},
    )
    def get(self, request: Request, discipline: str) -> Response:
        try:
            chosen = Discipline(discipline)
        except ValueError:
            raise exceptions.NotFound(
                _("There is no ranking “%(slug)s”.") % {"slug": discipline}
            ) from None
        since = baseline(chosen)
        data = {
            "discipline": chosen.value,
            "min_games": min_games(),
            "order": "mu - 2 sigma",  # untranslated: a formula, for programs
            "movers_since": since.taken_at if since else None,
            "rows": ranking(chosen),
        }
        return Response(RankingSerializer(data).data)


class PersonRatingsView(APIView):
    """A person's rating in each discipline, with its history (one point a game)."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary=gettext_lazy("A person's ratings and their history"),
        responses={200: PersonRatingsSerializer, 404: OpenApiResponse(ErrorSerializer)},
    )
    def get(self, request: Request, pk: int) -> Response:
        person = get_object_or_404(Person, pk=pk, merged_into__isnull=True)
        own = request.user.is_authenticated and person.user_id == request.user.pk
        if (
            person.visibility != Person.Visibility.PROFILE
            and not own
            and not request.user.has_perm(MANAGE_RECORD)
        ):
            raise exceptions.NotFound(
                _("%(person)s shows only their name in results: their ratings are not public.")
                % {"person": person.full_name}
            )
        data = {"person": person.pk, "name": person.full_name, "ratings": person_ratings(person)}
        return Response(PersonRatingsSerializer(data).data)


class RecomputeView(ScoringErrorsMixin, APIView):
    """A record keeper's recompute of every rating from the record (queued)."""

    @extend_schema(
        summary=gettext_lazy("Recompute every rating from the record"),
        request=None,
        responses={
            202: RecomputeSerializer,
            **refusals(403),
            503: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy("The task queue cannot be reached: nothing was queued."),
            ),
        },
    )
    def post(self, request: Request) -> Response:
        try:
            task_id = steps.recompute_ratings_step(request.user, None)
        except QueueUnreachable as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response({"task": str(task_id)}, status=status.HTTP_202_ACCEPTED)


class RatedSerializer(serializers.Serializer):
    rated = serializers.BooleanField(
        help_text=gettext_lazy("Whether the tournament's verified games count for the ranking.")
    )


class RatedAnswerSerializer(RatedSerializer):
    disciplines = serializers.ListField(
        child=serializers.CharField(),
        help_text=gettext_lazy("The rankings recomputed because of the change."),
    )


class TournamentRatedView(ScoringErrorsMixin, APIView):
    """A record keeper's "counts for the ranking" switch of a tournament."""

    @extend_schema(
        summary=gettext_lazy("Say whether a tournament counts for the ranking"),
        request=RatedSerializer,
        responses={200: RatedAnswerSerializer, **refusals(400, 403, 404)},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        given = RatedSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        rated = given.validated_data["rated"]
        disciplines = steps.rate_tournament(request.user, tournament, rated=rated)
        return Response({"rated": rated, "disciplines": disciplines})
