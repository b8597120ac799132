"""Walkovers and forfeits through the API: an entry's withdrawal or disqualification after the
draw, its reinstatement, and the head referee's forfeit of a game or a round.

The same steps as the ruling pages (``scoring.rulings.actions``), with their permissions
(withdrawing: the organizers; disqualifying: the head referee or the organizers; forfeits: the
head referee) and their words: a refusal's message is the one the page shows, with the status of
its kind (403 the role, 400 the input, 409 the game's or the entry's state), and so is the
``detail`` of a success.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api.views import ScoringErrorsMixin, parse, refusals
from scoring.rulings import actions as steps
from scoring.rulings import services
from tournaments.api.serializers import EntrySerializer, GameSerializer
from tournaments.models import ENTRY_PEOPLE, Entry, Game, people_paths
from tournaments.services.forfeits import check_kind

GAME_JOINS = (
    "match__stage__category__tournament",
    *people_paths("match__entry_a", "match__entry_b", "match__entry_c"),
)


class WithdrawSerializer(serializers.Serializer):
    # Plain strings, checked by the service, so that a wrong value is refused in the words of
    # the page (and the schema keeps one name per choice set).
    kind = serializers.CharField(
        default=Entry.WithdrawalKind.WITHDRAWAL,
        help_text=_(
            "`withdrawal` (the organizers) or `disqualification` (the head referee or the "
            "organizers)."
        ),
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        help_text=_("Why; required for a disqualification (the rule broken). Printed on cards."),
    )


class ForfeitGameSerializer(serializers.Serializer):
    side = serializers.CharField(
        help_text=_("The side that forfeits, in the match's order: `a` (entry A) or `b` (entry B).")
    )
    reason = serializers.CharField(
        allow_blank=True, help_text=_("Why (the rule broken); required, printed on the cards.")
    )


class ForfeitRoundSerializer(ForfeitGameSerializer):
    round = serializers.IntegerField(
        min_value=1, help_text=_("The round's number; it must have its official result.")
    )


class WithdrawalSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("What was done, as the page says it."))
    entry = EntrySerializer()
    walkovers = GameSerializer(
        many=True,
        help_text=_(
            "After a withdrawal: the games that became walkovers. After a reinstatement: the "
            "walkovers taken back (games to play again)."
        ),
    )


class RulingSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("What was ruled, as the page says it."))
    game = GameSerializer()


class RulingView(ScoringErrorsMixin, APIView):
    """Signed-in users only; the step checks the role and says who may."""

    permission_classes = [IsAuthenticated]

    def entry(self, pk: int) -> Entry:
        return get_object_or_404(
            Entry.objects.select_related("category__tournament", *ENTRY_PEOPLE), pk=pk
        )

    def game(self, pk: int) -> Game:
        return get_object_or_404(Game.objects.select_related(*GAME_JOINS), pk=pk)

    def withdrawal(self, done: services.Withdrawal) -> Response:
        games = Game.objects.filter(pk__in=[g.pk for g in done.games]).prefetch_related("rounds")
        entry = self.entry(done.entry.pk)
        body = {"detail": done.message, "entry": entry, "walkovers": list(games)}
        return Response(WithdrawalSerializer(body).data)

    def ruling(self, done: services.Ruling) -> Response:
        game = Game.objects.prefetch_related("rounds").get(pk=done.game.pk)
        return Response(RulingSerializer({"detail": done.message, "game": game}).data)


class EntryWithdrawView(RulingView):
    @extend_schema(
        summary=_("Withdraw or disqualify an entry"),
        description=_(
            "After the draw, each of the entry's games without an official result becomes a "
            "walkover against it: the opponent wins it with the stage's bye score; in a knockout "
            "the opponent goes on. Withdrawing is for the organizers, disqualifying for the head "
            "referee or the organizers (with the reason). The entry is left out of every draw "
            "from now on."
        ),
        request=WithdrawSerializer,
        responses={200: WithdrawalSerializer, **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        entry = self.entry(pk)
        data = parse(WithdrawSerializer, request)
        step = steps.WITHDRAWAL_STEPS[check_kind(data["kind"])]
        return self.withdrawal(step(request.user, entry, reason=data["reason"]))


class EntryReinstateView(RulingView):
    @extend_schema(
        summary=_("Reinstate a withdrawn or disqualified entry"),
        description=_(
            "Its walkovers become games to play again. Refused (409) once their result was used: "
            "the next stage drawn from the standings, the next knockout match or Swiss round."
        ),
        request=None,
        responses={200: WithdrawalSerializer, **refusals(403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.withdrawal(steps.reinstate_entry(request.user, self.entry(pk)))


class GameForfeitView(RulingView):
    @extend_schema(
        summary=_("Forfeit a game (head referee)"),
        description=_(
            "WCC: “forfeiture of a round or a game” for a breach of the rules. The game's "
            "official rounds give way to the ruling: the other side wins it with the stage's bye "
            "score. The cards keep their rows as written; nothing more is written on them."
        ),
        request=ForfeitGameSerializer,
        responses={200: RulingSerializer, **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = self.game(pk)
        data = parse(ForfeitGameSerializer, request)
        return self.ruling(steps.forfeit_game(request.user, game, **data))


class GameForfeitRoundView(RulingView):
    @extend_schema(
        summary=_("Forfeit a round (head referee)"),
        description=_(
            "The official round scores 2-0 to the other side, its 20s as shot. Only in a game "
            "scored 2-1-0 per round between two sides (refused in a game to 100 or of three "
            "players: forfeit the game instead, 400), and only for a round with its official "
            "result (409)."
        ),
        request=ForfeitRoundSerializer,
        responses={200: RulingSerializer, **refusals(400, 403, 404, 409)},
    )
    def post(self, request: Request, pk: int) -> Response:
        game = self.game(pk)
        data = parse(ForfeitRoundSerializer, request)
        return self.ruling(steps.forfeit_round(request.user, game, **data))
