"""Serializers for the tournament endpoints.

Writes run the model's own ``clean()`` and database constraints before saving, so the API
refuses exactly what the database would, with the model's words and the field named, instead of
failing on an ``IntegrityError``. What a row belongs to (the tournament of a category, the
category of an entry) is fixed once created: moving it would bypass the organizer check of the
other tournament.
"""

import copy
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Model
from rest_framework import serializers

from tournaments.models import (
    Category,
    Entry,
    Game,
    Match,
    Player,
    Round,
    Stage,
    Team,
    Tournament,
)
from tournaments.models.stages import TIEBREAK_STEPS
from tournaments.services.registration import add_stage, create_category, next_stage_order
from tournaments.services.setup import create_tournament


class CheckedModelSerializer(serializers.ModelSerializer):
    """A model serializer that runs ``Model.clean()`` and the model's constraints on writes."""

    #: The field naming what the object belongs to; it cannot change after creation.
    parent_field: str = ""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        parent = self.parent_field
        moved = (
            self.instance is not None
            and parent in attrs
            and attrs[parent] != getattr(self.instance, parent)
        )
        if moved:
            raise serializers.ValidationError(
                {parent: f"The {parent} cannot change; create a new one there instead."}
            )
        candidate = self._candidate(attrs)
        try:
            candidate.clean()
            candidate.validate_constraints()
        except DjangoValidationError as exc:
            raise serializers.ValidationError(serializers.as_serializer_error(exc)) from None
        return attrs

    def _candidate(self, attrs: dict[str, Any]) -> Model:
        """The object as it would be saved, without saving it."""
        candidate = copy.copy(self.instance) if self.instance is not None else self.Meta.model()
        for name, value in attrs.items():
            setattr(candidate, name, value)
        return candidate


class EntrySummarySerializer(serializers.ModelSerializer):
    """An entry as other objects show it: its name and the ID printed on scorecards."""

    name = serializers.CharField(read_only=True)
    number = serializers.CharField(read_only=True, help_text="Scorecard ID (both for a team).")

    class Meta:
        model = Entry
        fields = ["id", "name", "number"]
        read_only_fields = fields


class TournamentSerializer(CheckedModelSerializer):
    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "venue",
            "starts_on",
            "ends_on",
            "count_validated_cards",
            "game_minutes",
            "created_at",
        ]
        read_only_fields = ["created_at"]

    def validate_slug(self, value: str) -> str:
        if self.instance is not None and value != self.instance.slug:
            raise serializers.ValidationError(
                "The slug is the tournament's address and cannot change."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        starts = attrs.get("starts_on", getattr(self.instance, "starts_on", None))
        ends = attrs.get("ends_on", getattr(self.instance, "ends_on", None))
        if starts and ends and ends < starts:
            raise serializers.ValidationError(
                {"ends_on": f"The tournament ends ({ends}) before it starts ({starts})."}
            )
        return super().validate(attrs)

    def create(self, validated_data: dict[str, Any]) -> Tournament:
        return create_tournament(user=self.context["request"].user, **validated_data)


class CategorySerializer(CheckedModelSerializer):
    parent_field = "tournament"
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())

    class Meta:
        model = Category
        fields = [
            "id",
            "tournament",
            "name",
            "preset",
            "kind",
            "discipline",
            "discs_per_player",
            "rounds_per_game",
            "scoring_system",
            "target_points",
        ]
        validators: list = []  # the model's constraints run in validate(), with its messages

    def create(self, validated_data: dict[str, Any]) -> Category:
        return create_category(**validated_data)


class PlayerSerializer(CheckedModelSerializer):
    """Public: names, scorecard ID, club and country. The linked account is write-only, by
    username, so that no user's details are published."""

    parent_field = "tournament"
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    full_name = serializers.CharField(read_only=True)
    username = serializers.SlugRelatedField(
        source="user",
        slug_field="username",
        queryset=get_user_model().objects.all(),
        write_only=True,
        required=False,
        allow_null=True,
        help_text="Account that may fill this player's scorecards (organizers only).",
        # A text box, not a list of every account, in the browsable API's form.
        style={"base_template": "input.html"},
    )

    class Meta:
        model = Player
        fields = [
            "id",
            "tournament",
            "first_name",
            "last_name",
            "full_name",
            "number",
            "club",
            "country",
            "username",
        ]
        validators: list = []


class TeamSerializer(CheckedModelSerializer):
    parent_field = "tournament"
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    display_name = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "tournament", "name", "display_name", "player_one", "player_two"]
        validators: list = []

    def get_display_name(self, team: Team) -> str:
        return str(team)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        tournament = attrs.get("tournament", getattr(self.instance, "tournament", None))
        for field in ("player_one", "player_two"):
            player = attrs.get(field)
            if player is not None and player.tournament_id != tournament.id:
                raise serializers.ValidationError(
                    {field: f"{player} is registered at another tournament."}
                )
        return super().validate(attrs)


class EntrySerializer(CheckedModelSerializer):
    parent_field = "category"
    name = serializers.CharField(read_only=True)
    number = serializers.CharField(read_only=True, help_text="Scorecard ID (both for a team).")

    class Meta:
        model = Entry
        fields = [
            "id",
            "category",
            "player",
            "team",
            "name",
            "number",
            "seed",
            "checked_in",
            "withdrawn",
        ]
        validators: list = []

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        category = attrs.get("category", getattr(self.instance, "category", None))
        for field in ("player", "team"):
            who = attrs.get(field)
            if who is not None and who.tournament_id != category.tournament_id:
                raise serializers.ValidationError(
                    {field: f"{who} is registered at another tournament."}
                )
        return super().validate(attrs)


class StageSerializer(CheckedModelSerializer):
    parent_field = "category"
    tournament = serializers.SlugRelatedField(
        source="category.tournament", slug_field="slug", read_only=True
    )
    tiebreak_chain = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAK_STEPS),
        required=False,
        help_text="Tiebreak steps after points, in order; empty for the WCC default.",
    )
    chain = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="The tiebreak steps in force (the default when tiebreak_chain is empty).",
    )

    class Meta:
        model = Stage
        fields = [
            "id",
            "category",
            "tournament",
            "name",
            "kind",
            "order",
            "advance_count",
            "games_per_entry",
            "best_of",
            "tiebreak_chain",
            "chain",
            "bye_points",
            "bye_twenties",
            "seed",
        ]
        validators: list = []
        extra_kwargs = {"order": {"required": False, "help_text": "Default: after the last."}}

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if self.instance is None and attrs.get("order") is None:
            attrs["order"] = next_stage_order(attrs["category"])
        return super().validate(attrs)

    def create(self, validated_data: dict[str, Any]) -> Stage:
        """Through the same service as the organizer pages, so both refuse the same stages."""
        return add_stage(**validated_data)


class RoundSerializer(serializers.ModelSerializer):
    """An official round result, from entry A's side (``_a``) and entry B's (``_b``)."""

    class Meta:
        model = Round
        fields = [
            "number",
            "points_a",
            "points_b",
            "twenties_a",
            "twenties_b",
            "score_a",
            "score_b",
            "time_expired",
        ]
        read_only_fields = fields


class GameSerializer(serializers.ModelSerializer):
    rounds = RoundSerializer(many=True, read_only=True)

    class Meta:
        model = Game
        fields = ["id", "match", "number", "first_side", "is_playoff", "simulated", "rounds"]
        read_only_fields = fields


class MatchSerializer(serializers.ModelSerializer):
    """A match with its games and their official rounds (read-only: draws create matches)."""

    pool = serializers.SlugRelatedField(slug_field="name", read_only=True)
    board = serializers.SlugRelatedField(slug_field="number", read_only=True)
    entry_a = EntrySummarySerializer(read_only=True)
    entry_b = EntrySummarySerializer(read_only=True, allow_null=True)
    is_bye = serializers.BooleanField(read_only=True)
    games = GameSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "stage",
            "pool",
            "round_of_play",
            "board",
            "starts_at",
            "entry_a",
            "entry_b",
            "is_bye",
            "best_of",
            "bracket_slot",
            "games",
        ]
        read_only_fields = fields
