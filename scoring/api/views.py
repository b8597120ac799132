"""Scorecard endpoints: the WCC card workflow as actions over ``scoring.scorecards.services``.

The views only parse the request and call the service; the service checks the permission (the
card's players fill, the opponent validates, the scoring table verifies and voids, the head
referee settles disputes) and the rules. Refusals come back as 400 with the reason (the round
named), 403 for a role that may not act, 409 when someone saved the row since it was read.
"""

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api import filters
from scoring.api.permissions import may_open_card, visible_cards, visible_rows
from scoring.api.serializers import (
    CardRowSerializer,
    ConfirmPaperRowSerializer,
    FillRowSerializer,
    OpenCardSerializer,
    PaperRowSerializer,
    ReopenRowSerializer,
    ResolveDisputeSerializer,
    ScoreCardSerializer,
    StageStandingsSerializer,
    ValidateRowSerializer,
    VerifyCardSerializer,
    VoidCardSerializer,
    as_versions,
)
from scoring.models import CardRow, ScoreCard
from scoring.rulings import actions as rulings
from scoring.scorecards import actions as row_steps
from scoring.scorecards import offline
from scoring.scorecards import services as scorecards
from scoring.scorecards import table_actions as table_steps
from scoring.standings.selectors import stage_standings
from tournaments.api.errors import ServiceErrorsMixin
from tournaments.api.serializers import GameSerializer
from tournaments.models import Game, Stage, people_paths
from tournaments.private_links import label_device

#: The actions that write one card or row. They need none of what the read serializers show,
#: and the list's filters mean nothing to them: at the end of a round every player's phone sends
#: one, so they skip both (the service reads what it checks, under its lock).
CARD_WRITES = frozenset({"fill", "paper", "verify", "void"})
ROW_WRITES = frozenset({"validate_row", "confirm", "reopen"})


class WriteTargetMixin:
    """Card and row writes find their object by id alone, ask whether the user may see it only
    when the write is refused, and run in the service's own transaction.

    Whoever may write a card or row may also see it (its players, their opponents, the
    tournament's officials: ``scoring.api.permissions``), so a write that lands needs no
    visibility query; the query behind it, built anew for each user, cost a third of a
    validation at the end of a round. A refused write on an object the user may not see is
    answered 404, as a read of it is, whatever the refusal was: nothing about it leaks. A stale
    version (409) needs no such check: the services refuse one only after the writer's
    permission passed, and fifty phones sending the same row at once get forty-nine of them.

    Every write service is one transaction of its own (``transaction.atomic``), which takes its
    locks and checks its versions: the request-wide transaction of ``ATOMIC_REQUESTS`` would only
    wrap it in a savepoint, two more round trips per write, so these views do without it.
    """

    write_actions: frozenset[str] = frozenset()
    _write_target: ScoreCard | CardRow | None = None

    @classmethod
    def as_view(cls, *args: Any, **kwargs: Any) -> Any:
        return transaction.non_atomic_requests(super().as_view(*args, **kwargs))  # type: ignore[misc]

    def visible(self) -> QuerySet:
        raise NotImplementedError

    def get_object(self) -> Any:
        found = super().get_object()  # type: ignore[misc]
        if self.action in self.write_actions:  # type: ignore[attr-defined]
            self._write_target = found
        return found

    def handle_exception(self, exc: Exception) -> Response:
        target = self._write_target
        connection = transaction.get_connection()
        # A transaction broken by a database error cannot be asked anything more: that error
        # stands as it is.
        broken = connection.needs_rollback
        if (
            target is not None
            and not broken
            and not isinstance(exc, scorecards.StaleRowError)
            and not self.visible().filter(pk=target.pk).exists()
        ):
            exc = Http404()
        response = super().handle_exception(exc)  # type: ignore[misc]
        # DRF marks the open transaction for rollback, taking it for the request's: these views
        # have none (the service rolled its own back), so one open here is a caller's or a
        # test's, and stays as it was.
        if connection.in_atomic_block and not broken:
            connection.set_rollback(False)
        return response


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=gettext_lazy("What is wrong, and where."))


def refusals(*codes: int) -> dict[int, OpenApiResponse]:
    """Documented error responses of an action."""
    words = {
        400: gettext_lazy(
            "Refused: the body says what is wrong (the round is named) or gives field errors."
        ),
        403: gettext_lazy("Your role at the tournament does not allow this."),
        404: gettext_lazy("No such object, or not one you may see."),
        409: gettext_lazy(
            "Not now: the stored state does not allow it, or someone changed it since you read "
            "it (reload it); the body says which, and nothing was lost."
        ),
    }
    return {code: OpenApiResponse(ErrorSerializer, description=words[code]) for code in codes}


class ScoringErrorsMixin(ServiceErrorsMixin):
    """The API's one refusal handler (``tournaments.api.errors.as_api_exception``): a stale row
    is a conflict to reload (409), a refusal keeps the service's words."""


def parse(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data, context={"request": request})
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def version_to_send(card: ScoreCard, game: Game, version: int | None) -> int:
    """The version the fill is checked against: the one the client read.

    The card page always sends the version of the row it shows (0 before the row exists), so a
    change never lands on a row its author has not seen; the API asks the same. Left out for a
    game that has no row on the card yet, it is 0: should someone save that row first, the
    service refuses the fill as stale (409) instead of overwriting the row unseen.
    """
    if version is not None:
        return version
    rows = CardRow.objects.filter(card=card, game=game).order_by("pk")
    row = rows.values_list("pk", flat=True).first()
    if row is not None:
        raise exceptions.ValidationError(
            {
                "version": [
                    gettext(
                        "`version` is required: this game already has a row on the card; send the "
                        "version you read (GET /api/card-rows/%(row)s/ shows it), so that no "
                        "change is saved over one you have not seen."
                    )
                    % {"row": row}
                ]
            }
        )
    return 0


def card_queryset(cards: QuerySet[ScoreCard]) -> QuerySet[ScoreCard]:
    """Cards with everything their serializer shows, in a fixed number of queries."""
    rows = CardRow.objects.select_related("game__match", "entered_by", "confirmed_by")
    return (
        cards.select_related("stage__category__tournament", *people_paths("entry"))
        .prefetch_related(Prefetch("rows", queryset=rows))
        .order_by("stage_id", "entry_id")
    )


@extend_schema_view(
    create=extend_schema(
        summary=gettext_lazy("Open a scorecard"),
        description=gettext_lazy(
            "Open the card of an entry for a stage, or find it if it is open already (200). For "
            "the entry's players, referees, the scoring table and the organizers."
        ),
        request=OpenCardSerializer,
        responses={200: ScoreCardSerializer, 201: ScoreCardSerializer, **refusals(400, 403)},
    ),
)
class ScoreCardViewSet(
    WriteTargetMixin,
    ScoringErrorsMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Scorecards: one per entry and stage, a row per game. Visible to the card's players, their
    opponents in the stage and the tournament's officials."""

    serializer_class = ScoreCardSerializer
    permission_classes = [IsAuthenticated]
    filterset_class = filters.ScoreCardFilter

    write_actions = CARD_WRITES

    def visible(self) -> QuerySet[ScoreCard]:
        return visible_cards(self.request.user)

    def get_queryset(self) -> QuerySet[ScoreCard]:
        if self.action in CARD_WRITES:
            return ScoreCard.objects.select_related("stage__category__tournament", "entry__player")
        return card_queryset(self.visible())

    def filter_queryset(self, queryset: QuerySet[ScoreCard]) -> QuerySet[ScoreCard]:
        return queryset if self.action in CARD_WRITES else super().filter_queryset(queryset)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = parse(OpenCardSerializer, request)
        stage, entry = data["stage"], data["entry"]
        if not may_open_card(request.user, stage, entry):
            raise exceptions.PermissionDenied(gettext("You may not open this scorecard."))
        existed = ScoreCard.objects.filter(stage=stage, entry=entry).exists()
        card = scorecards.card_for(stage, entry)
        return Response(
            self.get_serializer(self._reloaded(card)).data,
            status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary=gettext_lazy("Fill or correct a row"),
        description=gettext_lazy(
            "Write the card's row for a game: the card's players before validation; afterwards a "
            "referee, with their initials. Changing a row needs the version you read (400 "
            "without it, 409 when someone saved the row since). With an `Idempotency-Key` "
            "header (8 to 64 letters, digits, dashes or underscores, e.g. a UUID), sending the "
            "same entry again writes nothing and answers 200 with the row as it is now."
        ),
        request=FillRowSerializer,
        responses={
            200: CardRowSerializer,
            201: CardRowSerializer,
            **refusals(400, 403, 404, 409),
        },
    )
    @action(detail=True, methods=["post"])
    def fill(self, request: Request, pk: str | None = None) -> Response:
        card = self.get_object()
        data = parse(FillRowSerializer, request)
        # A client that sends the same entry again with its Idempotency-Key (a phone's outbox
        # whose answer was lost) gets the row as it is now, and nothing is written again.
        key = offline.key_of({}, request.headers)
        earlier = offline.applied(key, card, data["game"])
        if earlier is not None:
            return Response(CardRowSerializer(earlier.row).data, status=status.HTTP_200_OK)
        version = version_to_send(card, data["game"], data.get("version"))
        # One endpoint for filling and correcting: the fill step's service tells them apart by
        # the row's status under the game's lock (a signed row is corrected, with initials).
        try:
            row = offline.once(
                key,
                partial(
                    row_steps.fill_row,
                    request.user,
                    CardRow(card=card, game=data["game"]),
                    rounds=data["rounds"],
                    version=version,
                    referee_initials=data["referee_initials"],
                    confirm_contradiction=data["confirm_contradiction"],
                ),
                card=card,
                game=data["game"],
                based_on=version,
            )
        except offline.AlreadyApplied as replay:
            return Response(CardRowSerializer(replay.applied.row).data, status=status.HTTP_200_OK)
        # Written on no row (version 0 read): created, though reconciling it with the other card
        # (agreement, a dispute) may have saved it again since.
        created = version == 0
        return Response(
            CardRowSerializer(row).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(
        summary=gettext_lazy("Enter a paper card's row"),
        description=gettext_lazy(
            "A referee or the scoring table enters the card's row for a game as written on the "
            "paper card, with the opponent's ID number and initials: filled and validated on "
            "paper in one step. Where the tournament asks for it "
            "(`paper_rows_need_confirmation`), the row awaits a second staff member's "
            "confirmation before it counts."
        ),
        request=PaperRowSerializer,
        responses={
            200: CardRowSerializer,
            201: CardRowSerializer,
            **refusals(400, 403, 404, 409),
        },
    )
    @action(detail=True, methods=["post"], url_path="paper")
    def paper(self, request: Request, pk: str | None = None) -> Response:
        card = self.get_object()
        data = parse(PaperRowSerializer, request)
        row = table_steps.enter_paper_row(
            request.user,
            CardRow(card=card, game=data["game"]),
            rounds=data["rounds"],
            opponent_number=data["opponent_number"],
            initials=data["initials"],
            version=version_to_send(card, data["game"], data.get("version")),
            confirm_replace=data["confirm_replace"],
        )
        created = row.version == 1
        return Response(
            CardRowSerializer(row).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(
        summary=gettext_lazy("Verify a card"),
        description=gettext_lazy(
            "The scoring table verifies the card's validated rows, as it saw them: `versions` "
            "lists each with the version read, and a row changed, added or gone since is refused "
            "with 409 (nothing is verified)."
        ),
        request=VerifyCardSerializer,
        responses={200: ScoreCardSerializer, **refusals(400, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def verify(self, request: Request, pk: str | None = None) -> Response:
        card = self.get_object()
        data = parse(VerifyCardSerializer, request)
        table_steps.verify_card(request.user, card, versions=as_versions(data["versions"]))
        return Response(self.get_serializer(self._reloaded(card)).data)

    @extend_schema(
        summary=gettext_lazy("Void a card"),
        description=gettext_lazy(
            "The scoring table voids the card (or some of its rows), with the reason; their "
            "results stop counting."
        ),
        request=VoidCardSerializer,
        responses={200: ScoreCardSerializer, **refusals(400, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        card = self.get_object()
        data = parse(VoidCardSerializer, request)
        rows = None
        if "rows" in data:
            wanted = set(data["rows"])
            rows = list(card.rows.filter(pk__in=wanted).select_related("game"))
            missing = sorted(wanted - {row.pk for row in rows})
            if missing:
                raise exceptions.ValidationError(
                    {
                        "rows": gettext("Not rows of this card: %(rows)s.")
                        % {"rows": ", ".join(map(str, missing))}
                    }
                )
        table_steps.void_card(
            request.user,
            card,
            reason=data["reason"],
            rows=rows,
            versions=as_versions(data["versions"]),
        )
        return Response(self.get_serializer(self._reloaded(card)).data)

    def _reloaded(self, card: ScoreCard) -> ScoreCard:
        return card_queryset(ScoreCard.objects.filter(pk=card.pk)).get()


class CardRowViewSet(WriteTargetMixin, ScoringErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Card rows, e.g. ``?status=disputed`` for the head referee's queue."""

    serializer_class = CardRowSerializer
    permission_classes = [IsAuthenticated]
    filterset_class = filters.CardRowFilter

    write_actions = ROW_WRITES

    def visible(self) -> QuerySet[CardRow]:
        return visible_rows(self.request.user)

    def get_queryset(self) -> QuerySet[CardRow]:
        if self.action in ROW_WRITES:
            return CardRow.objects.only("id", "game_id", "card_id")
        return (
            self.visible()
            .select_related("game__match", "entered_by", "confirmed_by")
            .order_by("card_id", "game__match__round_of_play", "game__number", "id")
        )

    def filter_queryset(self, queryset: QuerySet[CardRow]) -> QuerySet[CardRow]:
        return queryset if self.action in ROW_WRITES else super().filter_queryset(queryset)

    @extend_schema(
        summary=gettext_lazy("Validate a row"),
        description=gettext_lazy(
            "The opponent signs the row with their player ID number and initials, or with "
            "neither when the login or private link that signs stands for exactly one of the "
            "row's opponents (their ID and initials are implied, as the card page's Agree). "
            "With an `Idempotency-Key` header, sending the same signature again writes nothing "
            "and answers 200 with the row as it is now; a key used for another write is 409."
        ),
        request=ValidateRowSerializer,
        responses={200: CardRowSerializer, **refusals(400, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="validate")
    def validate_row(self, request: Request, pk: str | None = None) -> Response:
        row = self.get_object()
        data = parse(ValidateRowSerializer, request)
        if isinstance(request.successful_authenticator, SessionAuthentication):
            label_device(request._request)  # a phone's browser: name it, as the pages do
        sign = partial(
            row_steps.validate_row,
            request.user,
            row,
            opponent_number=data["opponent_number"],
            initials=data["initials"],
            version=data["version"],
        )
        # A signature sent again with its Idempotency-Key (a phone's outbox whose answer was
        # lost) gets the row as it is now, and nothing is signed twice. Without a key the step
        # runs as it is: the end of a round's signatures read nothing more for it.
        key = offline.key_of({}, request.headers)
        if not key:
            return Response(CardRowSerializer(sign()).data)
        forbidden = row_steps.validate_row.forbidden(request.user, row)
        if forbidden is not None:
            raise forbidden  # a key tells nobody else about the row
        try:
            row = offline.once(
                key,
                sign,
                card=row.card,
                game=row.game,
                based_on=data["version"],
                kind=offline.VALIDATE,
            )
        except offline.AlreadyApplied as replay:
            return Response(CardRowSerializer(replay.applied.row).data, status=status.HTTP_200_OK)
        return Response(CardRowSerializer(row).data)

    @extend_schema(
        summary=gettext_lazy("Confirm a paper entry"),
        description=gettext_lazy(
            "A second staff member (not the one who entered it) confirms a row entered from a "
            "paper card: it is validated from now and may count."
        ),
        request=ConfirmPaperRowSerializer,
        responses={200: CardRowSerializer, **refusals(400, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="confirm")
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        row = self.get_object()
        data = parse(ConfirmPaperRowSerializer, request)
        row = table_steps.confirm_paper_row(request.user, row, version=data["version"])
        return Response(CardRowSerializer(row).data)

    @extend_schema(
        summary=gettext_lazy("Re-open a voided row"),
        description=gettext_lazy(
            "A voided row is written again: its card's player, a referee or the scoring table "
            "re-opens it, and it waits to be filled (or entered from the paper card) and signed "
            "like any row. Its history keeps the voided version. 409 when the row is not voided, "
            "or someone changed it since you read it."
        ),
        request=ReopenRowSerializer,
        responses={200: CardRowSerializer, **refusals(400, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="reopen")
    def reopen(self, request: Request, pk: str | None = None) -> Response:
        row = self.get_object()
        data = parse(ReopenRowSerializer, request)
        row = table_steps.reopen_row(request.user, row, version=data["version"])
        return Response(CardRowSerializer(row).data)


class GameViewSet(ScoringErrorsMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A game with its official rounds; the head referee settles its dispute here."""

    serializer_class = GameSerializer
    queryset = Game.objects.select_related(
        "match__stage__category__tournament", "match__entry_a", "match__entry_b", "match__entry_c"
    ).prefetch_related("rounds")

    @extend_schema(
        summary=gettext_lazy("Settle a dispute"),
        description=gettext_lazy(
            "The head referee rules on a game whose cards disagree: every row takes the ruling "
            "(given in the match's order of sides), verified, and it becomes the official result."
        ),
        request=ResolveDisputeSerializer,
        responses={200: GameSerializer, **refusals(400, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="resolve-dispute",
        permission_classes=[IsAuthenticated],
    )
    def resolve_dispute(self, request: Request, pk: str | None = None) -> Response:
        game = self.get_object()
        data = parse(ResolveDisputeSerializer, request)
        rulings.resolve_dispute(
            request.user,
            game,
            rounds=data["rounds"],
            initials=data["initials"],
            versions=as_versions(data["versions"]),
        )
        return Response(self.get_serializer(self.get_queryset().get(pk=game.pk)).data)


class StageStandingsView(ScoringErrorsMixin, APIView):
    """A stage's standings: points, then its tiebreak chain (WCC by default). Public."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: StageStandingsSerializer, **refusals(404)})
    def get(self, request: Request, pk: int) -> Response:
        stage = get_object_or_404(Stage.objects.select_related("category__tournament"), pk=pk)
        return Response(StageStandingsSerializer(stage_standings(stage)).data)
