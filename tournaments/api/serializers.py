"""Serializers for the tournament endpoints.

On a write they check the shape of the request only (types, lengths, known choices, which rows
are named) and hand the values to the service the organizer pages call (``tournaments.services``);
the service decides what is allowed and says why, in the words the pages show. What a row belongs
to (the tournament of a category, the category of an entry) is fixed once created: moving it
would bypass the organizer check of the other tournament.
"""

from typing import Any

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from rest_framework import serializers

from scoring.rulings import actions as rulings
from tournaments import entry_actions, registry_actions, setup_actions
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
from tournaments.models.registry import Person
from tournaments.models.stages import TIEBREAK_STEPS
from tournaments.services import categories, entries, invitations, people, registration, setup


class ServiceWriteSerializer(serializers.ModelSerializer):
    """A model serializer whose ``create`` and ``update`` call a service with the validated
    values; the service's ``ValidationError`` reaches the client as a 400 in its own words
    (``tournaments.api.errors``). Model validators are left out (``Meta.validators = []``): the
    service runs the model's checks, once."""

    #: The field naming what the object belongs to; it cannot change after creation.
    parent_field: str = ""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        parent = self.parent_field
        if self.instance is not None and parent in attrs:
            if attrs[parent] != getattr(self.instance, parent):
                raise serializers.ValidationError({parent: self.parent_fixed(parent)})
            del attrs[parent]
        return attrs

    @staticmethod
    def parent_fixed(parent: str) -> str:
        """Why the object cannot move to another ``parent`` (a sentence per parent, so that
        each reads right in every language)."""
        if parent == "tournament":
            return gettext("The tournament cannot change; create a new one there instead.")
        if parent == "category":
            return gettext("The category cannot change; create a new one there instead.")
        return gettext("The %(parent)s cannot change; create a new one there instead.") % {
            "parent": parent
        }


class EntrySummarySerializer(serializers.ModelSerializer):
    """An entry as other objects show it: its name and the ID printed on scorecards."""

    name = serializers.CharField(read_only=True)
    number = serializers.CharField(
        read_only=True, help_text=gettext_lazy("Scorecard ID (both for a team).")
    )

    class Meta:
        model = Entry
        fields = ["id", "name", "number"]
        read_only_fields = fields


class TournamentSerializer(ServiceWriteSerializer):
    class Meta:
        model = Tournament
        # The steps' inputs, named once (``services.setup.TOURNAMENT_FIELDS``).
        fields = [*setup.TOURNAMENT_FIELDS, "created_at"]
        read_only_fields = ["created_at"]
        validators: list = []
        # A taken slug is refused by the service, in the words of the organizer page.
        extra_kwargs = {"slug": {"validators": []}}

    def create(self, validated_data: dict[str, Any]) -> Tournament:
        user = self.context["request"].user
        return setup_actions.create_tournament(user, setup_actions.NOTHING_YET, **validated_data)

    def update(self, instance: Tournament, validated_data: dict[str, Any]) -> Tournament:
        user = self.context["request"].user
        return setup_actions.edit_tournament(user, instance, **validated_data)


class CategorySerializer(ServiceWriteSerializer):
    parent_field = "tournament"
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())

    class Meta:
        model = Category
        # What a category's change takes, named once (``services.categories.CATEGORY_FIELDS``).
        fields = ["id", "tournament", *categories.CATEGORY_FIELDS]
        validators: list = []

    def create(self, validated_data: dict[str, Any]) -> Category:
        return registration.create_category(**validated_data)

    def update(self, instance: Category, validated_data: dict[str, Any]) -> Category:
        return categories.update_category(category=instance, **validated_data)


class PlayerSerializer(ServiceWriteSerializer):
    """Public: names, scorecard ID, club and country. ``username`` (write-only) invites that
    account to act for the player: nothing is linked until its owner accepts, signed in, and
    the answer is the same whether the username exists or not (``invitation``). An empty
    ``username`` on a change unlinks the account linked now."""

    parent_field = "tournament"
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    full_name = serializers.CharField(read_only=True)
    username = serializers.CharField(
        max_length=150,
        write_only=True,
        required=False,
        allow_null=True,
        allow_blank=True,
        help_text=gettext_lazy(
            "Invite this account to fill the player's scorecards with its own login (organizers "
            "only); it is linked when its owner accepts. Empty: unlink the account."
        ),
    )
    invitation = serializers.SerializerMethodField(
        help_text=gettext_lazy(
            "After an invitation by username: what happens next, the same whoever it names."
        )
    )
    person = serializers.PrimaryKeyRelatedField(
        queryset=Person.objects.all(),
        required=False,
        allow_null=True,
        help_text=gettext_lazy(
            "The player's person in the site's registry. On a registration, left out while the "
            "registry knows someone like them (and new_person is not true), the answer is 400 "
            "with the question and the candidates. On a change, null unlinks."
        ),
    )
    new_person = serializers.BooleanField(
        write_only=True,
        required=False,
        default=False,
        help_text=gettext_lazy(
            "Registration: a new person in the registry, none of the candidates."
        ),
    )
    federation_id = serializers.CharField(
        max_length=40,
        write_only=True,
        required=False,
        allow_blank=True,
        help_text=gettext_lazy("Registration: the federation ID number that finds the person."),
    )
    federation = serializers.CharField(
        max_length=60, write_only=True, required=False, allow_blank=True
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
            "invitation",
            "person",
            "new_person",
            "federation_id",
            "federation",
        ]
        validators: list = []
        extra_kwargs = {
            "number": {
                "required": False,
                "help_text": gettext_lazy(
                    "Player ID number as on the scorecard; left out, the next free ID."
                ),
            }
        }

    def get_invitation(self, player: Player) -> str | None:
        invited = getattr(self, "_invited", None)
        return invitations.invitation_sent(invited) if invited else None

    def _invite(self, player: Player, username: str) -> None:
        invitation = invitations.invite_to_player(
            player=player, username=username, actor=self.context["request"].user
        )
        self._invited = invitation.username

    @transaction.atomic
    def create(self, validated_data: dict[str, Any]) -> Player:
        username = validated_data.pop("username", None)
        tournament = validated_data.pop("tournament")
        if validated_data.pop("new_person", False) and validated_data.get("person") is None:
            validated_data["person"] = registration.NEW_PERSON
        player = entry_actions.register_player(
            self.context["request"].user, tournament, **validated_data
        )
        if username:
            self._invite(player, username)
        return player

    @transaction.atomic
    def update(self, instance: Player, validated_data: dict[str, Any]) -> Player:
        unlink = "username" in validated_data and not validated_data["username"]
        username = validated_data.pop("username", None)
        for registration_only in ("new_person", "federation_id", "federation"):
            validated_data.pop(registration_only, None)
        user = self.context["request"].user
        if "person" in validated_data:
            person = validated_data.pop("person")
            if person is None:
                registry_actions.unlink_person(user, instance)
            elif person.pk != instance.person_id:
                registry_actions.link_person(user, instance, person=person)
        if unlink:
            validated_data["user"] = None
        player = people.update_player(player=instance, **validated_data)
        if username:
            self._invite(player, username)
        return player


class TeamSerializer(ServiceWriteSerializer):
    parent_field = "tournament"
    tournament = serializers.SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    display_name = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "tournament", "name", "display_name", "player_one", "player_two"]
        validators: list = []

    def get_display_name(self, team: Team) -> str:
        return str(team)

    def create(self, validated_data: dict[str, Any]) -> Team:
        return people.create_team(**validated_data)

    def update(self, instance: Team, validated_data: dict[str, Any]) -> Team:
        return people.update_team(team=instance, **validated_data)


def blank_choice(
    choices: list[tuple[str, str]], help_text: str | Promise
) -> serializers.ChoiceField:
    """A read-only choice that is empty until something happens: the schema then allows ``""``
    too (DRF drops ``allow_blank`` from read-only model fields, so the schema would not)."""
    return serializers.ChoiceField(
        choices=choices, allow_blank=True, read_only=True, help_text=help_text
    )


class EntrySerializer(ServiceWriteSerializer):
    parent_field = "category"
    name = serializers.CharField(read_only=True)
    number = serializers.CharField(
        read_only=True, help_text=gettext_lazy("Scorecard ID (both for a team).")
    )
    withdrawal_kind = blank_choice(
        Entry.WithdrawalKind.choices, gettext_lazy("Why the entry left: empty while it plays.")
    )

    class Meta:
        model = Entry
        # The category it is entered in, then what a change takes, named once
        # (``services.entries.ENTRY_FIELDS``); the rest is shown, not taken.
        fields = [
            "id",
            "category",
            *entries.ENTRY_FIELDS,
            # a ruling's, not a change's: ``EntryViewSet`` takes the withdraw or reinstate step
            "withdrawn",
            "name",
            "number",
            "withdrawal_kind",
            "withdrawal_reason",
        ]
        read_only_fields = ["withdrawal_kind", "withdrawal_reason"]
        validators: list = []

    def create(self, validated_data: dict[str, Any]) -> Entry:
        """Enter the player or the team (``enter_player`` or ``enter_team``), then set the rest
        as a change of the new entry (``edit_entry``), all in the request's transaction."""
        user = self.context["request"].user
        category = validated_data.pop("category")
        player = validated_data.pop("player", None)
        team = validated_data.pop("team", None)
        entries.check_one_of(player, team)
        if player is not None:
            entry = entry_actions.enter_player(user, category, player=player)
        else:
            entry = entry_actions.enter_team(user, category, team=team)
        # Entered as withdrawn: the ruling's step, with its permission and words, before the
        # rest (so that a check-in is refused as at the desk).
        if validated_data.pop("withdrawn", False):
            rulings.withdraw_entry(user, entry)
            entry.refresh_from_db()
        if validated_data:
            entry_actions.edit_entry(user, entry, **validated_data)
        return entry

    def update(self, instance: Entry, validated_data: dict[str, Any]) -> Entry:
        return entry_actions.edit_entry(self.context["request"].user, instance, **validated_data)


class StageSerializer(ServiceWriteSerializer):
    parent_field = "category"
    tournament = serializers.SlugRelatedField(
        source="category.tournament", slug_field="slug", read_only=True
    )
    tiebreak_chain = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAK_STEPS),
        required=False,
        help_text=gettext_lazy("Tiebreak steps after points, in order; empty for the WCC default."),
    )
    chain = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text=gettext_lazy(
            "The tiebreak steps in force (the default when tiebreak_chain is empty)."
        ),
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
            "match_format",
            "tiebreak_chain",
            "chain",
            "bye_points",
            "bye_twenties",
            "seed",
        ]
        validators: list = []
        extra_kwargs = {
            "order": {"required": False, "help_text": gettext_lazy("Default: after the last.")}
        }

    def create(self, validated_data: dict[str, Any]) -> Stage:
        """Through the same service as the organizer pages, so both refuse the same stages."""
        return registration.add_stage(**validated_data)

    def update(self, instance: Stage, validated_data: dict[str, Any]) -> Stage:
        return registration.update_stage(stage=instance, **validated_data)


#: The side that forfeits, as games and rounds store it (a plain string in the schema: the same
#: two sides as ``first_side`` and an empty value, not a second name for that choice set).
FORFEITED_BY = gettext_lazy(
    "The side that forfeits: `a` (entry A) or `b` (entry B); empty when it stands as played."
)


class RoundSerializer(serializers.ModelSerializer):
    """An official round result, from entry A's side (``_a``) and entry B's (``_b``); the
    ``_c`` figures are entry C's in a three-player game and null in every other game. A round
    forfeited on the head referee's ruling (``forfeited_by``) scores 2-0 to the other side."""

    forfeited_by = serializers.CharField(read_only=True, help_text=FORFEITED_BY)

    class Meta:
        model = Round
        fields = [
            "number",
            "points_a",
            "points_b",
            "points_c",
            "twenties_a",
            "twenties_b",
            "twenties_c",
            "score_a",
            "score_b",
            "score_c",
            "time_expired",
            "forfeited_by",
            "forfeit_reason",
        ]
        read_only_fields = fields


class GameSerializer(serializers.ModelSerializer):
    """A game with its official rounds; a forfeited game (``forfeited_by``) has none: a
    walkover after a withdrawal or disqualification, or the head referee's ruling, won by the
    other side with the stage's bye score."""

    rounds = RoundSerializer(many=True, read_only=True)
    forfeited_by = serializers.CharField(read_only=True, help_text=FORFEITED_BY)
    forfeit_kind = blank_choice(
        Game.ForfeitKind.choices,
        gettext_lazy("Why the game was forfeited: empty when it stands as played."),
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "match",
            "number",
            "first_side",
            "is_playoff",
            "simulated",
            "forfeited_by",
            "forfeit_kind",
            "forfeit_reason",
            "forfeited_at",
            "rounds",
        ]
        read_only_fields = fields


class MatchSerializer(serializers.ModelSerializer):
    """A match with its games and their official rounds (read-only: draws create matches)."""

    pool = serializers.SlugRelatedField(slug_field="name", read_only=True, allow_null=True)
    board = serializers.SlugRelatedField(slug_field="number", read_only=True)
    entry_a = EntrySummarySerializer(read_only=True)
    entry_b = EntrySummarySerializer(read_only=True, allow_null=True)
    entry_c = EntrySummarySerializer(
        read_only=True,
        allow_null=True,
        help_text=gettext_lazy(
            "The third player of a three-player game; null in every other match."
        ),
    )
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
            "entry_c",
            "is_bye",
            "best_of",
            "bracket_slot",
            "games",
        ]
        read_only_fields = fields
