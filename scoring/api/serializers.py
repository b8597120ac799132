"""Serializers for scorecards, their workflow actions and the standings.

Input serializers check only the shape of a request (a whole number per side, required fields);
the rules of the game (2-1-0 points, 20s within the discs a side had, board scores in 5s) are the
scoring services' to check, so the API says exactly what the card pages say, round named.
"""

from typing import Any

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from scoring.models import CardRow, ScoreCard
from tournaments.api.serializers import EntrySummarySerializer
from tournaments.models import ENTRY_PEOPLE, Entry, Game, Stage

#: Sides at a board: two, or three in a three-player game (family rulebook, Option Two).
FEWEST_SIDES, MOST_SIDES = 2, 3
#: The largest id a row can have (a 64-bit signed integer, as the database stores it): a larger
#: number names no row, and SQLite cannot even compare one, so it is refused with a message.
MAX_ID = 2**63 - 1
#: The largest version a row can have (the database's positive integer).
MAX_VERSION = 2**31 - 1


def pair(help_text: str | Promise, **kwargs: Any) -> serializers.ListField:
    """A whole number per side, the first for the side the row (or ruling) is written from: two,
    or three in a three-player game. Whether the count fits the game is the service's to say
    (the judge names the round), so the API and the card pages give the same message."""
    return serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=FEWEST_SIDES,
        max_length=MOST_SIDES,
        help_text=format_lazy(
            "{} {}",
            help_text,
            _(
                "Three numbers in a three-player game: own, then the two others in the match's "
                "order (a ruling: entries A, B, C)."
            ),
        ),
        **kwargs,
    )


class RoundLineSerializer(serializers.Serializer):
    """A round as stored on a card row: the first number of each pair is the card owner's (in a
    three-player game, three numbers: the owner's, then the two others' in the match's order)."""

    points = pair(_("Round points: [own, opponent]."), read_only=True)
    twenties = pair(_("20s: [own, opponent]."), read_only=True)
    score = pair(_("Board totals, 20s included, when given."), read_only=True, allow_null=True)
    time_expired = serializers.BooleanField(read_only=True)


class RoundListSerializer(serializers.ListSerializer):
    """A list of rounds whose errors are keyed ``"round 1"``, ``"round 2"``..., as players and
    the service messages count them, rather than by position from 0. The keys stay English in
    every language, like the field names beside them: clients read them back."""

    def to_internal_value(self, data: Any) -> list[dict[str, Any]]:
        try:
            return super().to_internal_value(data)
        except serializers.ValidationError as exc:
            detail = exc.detail
            if isinstance(detail, dict) and all(isinstance(k, int) for k in detail):
                raise serializers.ValidationError(
                    {f"round {k + 1}": v for k, v in sorted(detail.items())}
                ) from None
            if isinstance(detail, list) and all(isinstance(e, dict) for e in detail):
                raise serializers.ValidationError(
                    {f"round {i}": e for i, e in enumerate(detail, start=1) if e}
                ) from None
            raise


class RoundInputSerializer(serializers.Serializer):
    """One round as a player writes it: points, or the board totals the points follow from."""

    class Meta:
        list_serializer_class = RoundListSerializer

    points = pair(_("Round points: 2-0, 1-1 or 0-2."), required=False, allow_null=True)
    score = pair(
        _("Board totals, 20s included (instead of points)."), required=False, allow_null=True
    )
    twenties = pair(_("20s sunk by each side; none when left out."), required=False)
    time_expired = serializers.BooleanField(
        default=False, help_text=_("Time ran out before any disc was shot: 0-0 (WCC).")
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["time_expired"] and attrs.get("points") is None and not attrs.get("score"):
            raise serializers.ValidationError(
                gettext("Give the points or the board scores of the round.")
            )
        return attrs


class CardRowSerializer(serializers.ModelSerializer):
    """One game on a card. ``version`` goes back with every change, so that two people editing
    the same row cannot overwrite each other unknowingly."""

    match = serializers.IntegerField(source="game.match_id", read_only=True)
    round_of_play = serializers.IntegerField(source="game.match.round_of_play", read_only=True)
    game_number = serializers.IntegerField(source="game.number", read_only=True)
    rounds = RoundLineSerializer(many=True, read_only=True)
    total_points = serializers.IntegerField(read_only=True)
    total_points_against = serializers.IntegerField(
        read_only=True,
        help_text=_("The opponent's points (both others' together in a three-player game)."),
    )
    total_twenties = serializers.IntegerField(read_only=True)
    entered_by = serializers.CharField(
        source="entered_by.username",
        read_only=True,
        allow_null=True,
        help_text=_("The staff member who entered the row from the paper card."),
    )
    confirmed_by = serializers.CharField(
        source="confirmed_by.username",
        read_only=True,
        allow_null=True,
        help_text=_("The second staff member who confirmed the paper entry."),
    )
    validated_how = serializers.ChoiceField(
        choices=CardRow.ValidatedHow.choices,
        read_only=True,
        allow_blank=True,
        help_text=_("How the row was validated; empty while it is not."),
    )
    validated_entry = serializers.IntegerField(
        source="validated_entry_id",
        read_only=True,
        allow_null=True,
        help_text=_("The entry whose phone (login or private link) validated the row."),
    )
    validated_by = serializers.CharField(
        source="validated_by.username",
        read_only=True,
        allow_null=True,
        help_text=_(
            "The login that validated the row; null when it was a private link without a login."
        ),
    )
    validated_device = serializers.CharField(
        read_only=True,
        help_text=_("The label of the device that validated the row; empty when unknown."),
    )

    class Meta:
        model = CardRow
        fields = [
            "id",
            "card",
            "game",
            "match",
            "round_of_play",
            "game_number",
            "status",
            "version",
            "rounds",
            "total_points",
            "total_points_against",
            "total_twenties",
            "simulated",
            "validated_number",
            "validated_initials",
            "validated_at",
            "validated_how",
            "validated_entry",
            "validated_by",
            "validated_device",
            "entered_by",
            "confirmed_by",
            "confirmed_at",
            "referee_initials",
            "verified_at",
            "void_reason",
            "updated_at",
        ]
        read_only_fields = fields


class ScoreCardSerializer(serializers.ModelSerializer):
    entry = EntrySummarySerializer(read_only=True)
    category = serializers.CharField(source="stage.category.name", read_only=True)
    tournament = serializers.CharField(source="stage.category.tournament.slug", read_only=True)
    rows = CardRowSerializer(many=True, read_only=True)

    class Meta:
        model = ScoreCard
        fields = ["id", "tournament", "category", "stage", "entry", "created_at", "rows"]
        read_only_fields = fields


class OpenCardSerializer(serializers.Serializer):
    """Open (or find) the card of an entry for a stage."""

    stage = serializers.PrimaryKeyRelatedField(
        queryset=Stage.objects.select_related("category__tournament")
    )
    entry = serializers.PrimaryKeyRelatedField(queryset=Entry.objects.select_related(*ENTRY_PEOPLE))

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["entry"].category_id != attrs["stage"].category_id:
            raise serializers.ValidationError(
                {
                    "entry": gettext("%(entry)s does not play in %(stage)s.")
                    % {"entry": attrs["entry"], "stage": attrs["stage"]}
                }
            )
        return attrs


class FillRowSerializer(serializers.Serializer):
    game = serializers.PrimaryKeyRelatedField(queryset=Game.objects.all())
    rounds = RoundInputSerializer(many=True, allow_empty=False)
    version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        required=False,
        allow_null=True,
        help_text=_(
            "The row's version as you read it (GET shows it): required when the game has a row "
            "on the card already, left out (or 0) for a new row. A row saved by someone else "
            "since then is refused with 409."
        ),
    )
    referee_initials = serializers.CharField(
        max_length=5,
        required=False,
        allow_blank=True,
        default="",
        help_text=_("A correction after validation: the referee's initials."),
    )
    confirm_contradiction = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_(
            "Save the row even though it contradicts the other side's validated row or the "
            "game's official result: that opens a dispute for the head referee. Without it such "
            "a row is refused with 409, the differing rounds named."
        ),
    )


#: A signature without ``version`` (or with null) is refused: the opponent signs what they saw.
SIGN_VERSION_REQUIRED = _(
    "`version` is required: send the row's version as you read it (GET shows it), so that you "
    "sign the rounds you have seen."
)


class ValidateRowSerializer(serializers.Serializer):
    """The opponent's signature: typed (ID and initials, as paper asks), or neither, when the
    login or private link that signs stands for exactly one of the row's opponents, whose ID
    and initials it implies ("Agree"; the service says so in words when it does not)."""

    opponent_number = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        default="",
        help_text=_(
            "The opponent's player ID number, as on their card; leave it out with the initials "
            "to sign as the opponent this login or private link stands for."
        ),
    )
    initials = serializers.CharField(
        max_length=5,
        required=False,
        allow_blank=True,
        default="",
        help_text=_("The opponent's initials; left out with the ID, they are implied."),
    )

    def validate(self, attrs: dict) -> dict:
        """Both typed, or neither: an ID without initials (or the reverse) is a signature half
        written, not a request to sign as oneself."""
        number = attrs.get("opponent_number", "").strip()
        initials = attrs.get("initials", "").strip()
        if number and not initials:
            raise serializers.ValidationError(
                {"initials": _("Give the initials with the ID, or neither to sign as yourself.")}
            )
        if initials and not number:
            raise serializers.ValidationError(
                {
                    "opponent_number": _(
                        "Give the ID with the initials, or neither to sign as yourself."
                    )
                }
            )
        return attrs

    version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        help_text=_("The row's version as the opponent read it (GET shows it)."),
        error_messages={"required": SIGN_VERSION_REQUIRED, "null": SIGN_VERSION_REQUIRED},
    )


class PaperRowSerializer(serializers.Serializer):
    """A paper card's row as written on it, with the opponent's signature."""

    game = serializers.PrimaryKeyRelatedField(queryset=Game.objects.all())
    rounds = RoundInputSerializer(many=True, allow_empty=False)
    opponent_number = serializers.CharField(
        max_length=20, help_text=_("The opponent's player ID number, as written on the card.")
    )
    initials = serializers.CharField(
        max_length=5, help_text=_("The opponent's initials, as written on the card.")
    )
    version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        required=False,
        allow_null=True,
        help_text=_(
            "The row's version as you read it, when the game has a row on the card already (a "
            "row saved since is refused with 409)."
        ),
    )
    confirm_replace = serializers.BooleanField(
        required=False,
        default=False,
        help_text=_(
            "Replace the card's row entered on a phone with the paper card's when the two say "
            "otherwise. Without it such an entry is refused with 409, the differing rounds "
            "named."
        ),
    )


VERSION_REQUIRED = _(
    "`version` is required: send the row's version as you read it (GET shows it), so that "
    "you act on the rounds you have seen."
)


class ConfirmPaperRowSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        help_text=_("The row's version as you read it: you confirm the rounds you have seen."),
        error_messages={"required": VERSION_REQUIRED, "null": VERSION_REQUIRED},
    )


class ReopenRowSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0,
        max_value=MAX_VERSION,
        help_text=_("The row's version as you read it: you re-open the voided row you have seen."),
        error_messages={"required": VERSION_REQUIRED, "null": VERSION_REQUIRED},
    )


class RowSeenSerializer(serializers.Serializer):
    row = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=_("A card row's id."))
    version = serializers.IntegerField(
        min_value=0, max_value=MAX_VERSION, help_text=_("Its version as you read it.")
    )


# DRF formats its error messages with str.format: braces are doubled.
# Translators: keep the doubled braces {{ }}: they show as single ones.
VERSIONS_REQUIRED = _(
    "`versions` is required: list each row you act on with the version you read "
    '([{{"row": id, "version": n}}, ...]; GET shows them), so that nothing changed since is '
    "acted on unseen."
)


def versions_field(rows: str | Promise) -> serializers.ListField:
    """The rows acted on, as the client read them: a row changed since is refused with 409."""
    return serializers.ListField(
        child=RowSeenSerializer(),
        allow_empty=True,
        help_text=format_lazy(
            _(
                "{rows}, each with the version you read. A row changed, added or gone since is "
                "refused with 409, and nothing is written."
            ),
            rows=rows,
        ),
        error_messages={"required": VERSIONS_REQUIRED, "null": VERSIONS_REQUIRED},
    )


def as_versions(seen: list[dict[str, int]]) -> dict[int, int]:
    """``[{"row": id, "version": n}]`` as a mapping, refusing a row named twice."""
    versions: dict[int, int] = {}
    for item in seen:
        if item["row"] in versions:
            raise serializers.ValidationError(
                {"versions": gettext("Row %(row)s is named twice.") % {"row": item["row"]}}
            )
        versions[item["row"]] = item["version"]
    return versions


class VerifyCardSerializer(serializers.Serializer):
    versions = versions_field(_("The card's validated rows as you saw them"))


class VoidCardSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=200, help_text=_("Why, e.g. missing full name, ID or category, or not legible.")
    )
    rows = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        help_text=_("Row ids to void; leave out to void every row of the card."),
    )
    versions = versions_field(_("The rows to void (every row not voided yet, without `rows`)"))


class ResolveDisputeSerializer(serializers.Serializer):
    rounds = RoundInputSerializer(
        many=True,
        allow_empty=False,
        help_text=_(
            "The ruling, in the match's order of sides: entry A first (then B, and C in a "
            "three-player game)."
        ),
    )
    initials = serializers.CharField(max_length=5, help_text=_("The head referee's initials."))
    versions = versions_field(_("The game's disputed rows as you saw them"))


class StandingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = EntrySummarySerializer()
    games = serializers.IntegerField()
    points = serializers.IntegerField()
    twenties = serializers.IntegerField()
    tiebreak = serializers.CharField(
        allow_null=True, help_text=_("The tiebreak step that set the entry apart, if any.")
    )
    advances = serializers.BooleanField(
        help_text=_("Within the places that go on to the next stage (false before any result).")
    )
    walkovers = serializers.IntegerField(
        help_text=_(
            "Games among ``games`` won by walkover (W/O): the opponent withdrew, was "
            "disqualified or forfeited the game; each is credited with the stage's bye score."
        )
    )


class StageStandingsSerializer(serializers.Serializer):
    stage = serializers.IntegerField(source="stage.id")
    name = serializers.CharField(source="stage.name")
    chain = serializers.ListField(
        source="stage.chain", child=serializers.CharField(), help_text=_("Tiebreaks after points.")
    )
    lines = StandingLineSerializer(many=True)
    shootouts_required = serializers.ListField(
        child=EntrySummarySerializer(many=True),
        help_text=_(
            "Groups of entries still tied after every tiebreak where the tie decides something "
            "(the cut line, seeding, or a podium place of a last stage), once every match is "
            "played: each needs a shoot-out (POST /api/stages/{id}/shootouts/)."
        ),
    )
