"""Categories after they are created: the rules of their settings, changing them, removing them.

``registration.create_category`` checks a new category with the same functions, so a name taken
or an impossible number of discs reads the same on the organizer pages and in the API.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Category, Match, Tournament
from tournaments.services.changes import apply_change
from tournaments.services.errors import StillInUse

#: What a change of a category may touch, named once (the API serializer's fields are made from
#: it); the tournament it belongs to is fixed.
CATEGORY_FIELDS = (
    "name",
    "preset",
    "kind",
    "discipline",
    "discs_per_player",
    "rounds_per_game",
    "scoring_system",
    "target_points",
    "game_minutes",
)
#: Settings the drawn matches and the cards filled for them were made for.
PLAY_FIELDS = (
    "discipline",
    "discs_per_player",
    "rounds_per_game",
    "scoring_system",
    "target_points",
)
MAX_DISCS = 12


def check_name_free(tournament: Tournament, name: str, *, category: Category | None = None) -> str:
    """The name without surrounding blanks, refused when another category of the tournament
    has it (in any case: "adult singles" and "Adult Singles" would be confused on cards)."""
    name = name.strip()
    others = tournament.categories.filter(name__iexact=name)
    if category is not None:
        others = others.exclude(pk=category.pk)
    if name and others.exists():
        raise ValidationError(
            {"name": _("The tournament already has a category named %(name)s.") % {"name": name}}
        )
    return name


#: Rounds in a game: WCC games have 4 (8 in some finals); past this it is a typo, and a game of
#: a thousand rounds would fill the scorecards and the round clock with nonsense.
MAX_ROUNDS_PER_GAME = 20


def check_settings(fields: dict[str, Any]) -> None:
    """Counts a game can be played with, said in words rather than as a violated constraint."""
    discs = fields.get("discs_per_player")
    if discs is not None and not 1 <= discs <= MAX_DISCS:
        raise ValidationError(
            {
                "discs_per_player": _("Each player shoots from 1 to %(max)s discs a round.")
                % {"max": MAX_DISCS}
            }
        )
    rounds = fields.get("rounds_per_game")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS_PER_GAME:
        raise ValidationError(
            {
                "rounds_per_game": _("A game has from 1 to %(max)s rounds.")
                % {"max": MAX_ROUNDS_PER_GAME}
            }
        )


def is_drawn(category: Category) -> bool:
    return Match.objects.filter(stage__category=category).exists()


@transaction.atomic
def update_category(*, category: Category, **fields: Any) -> Category:
    """Rename a category or correct its settings.

    Singles or doubles cannot change once players or teams are entered (the entries would be of
    the wrong kind); how the game is played cannot change once a stage is drawn (its matches and
    the cards filled for them were made for those settings).
    """
    unknown = set(fields) - set(CATEGORY_FIELDS)
    if unknown:
        names = ", ".join(sorted(unknown))
        raise TypeError(
            f"update_category() cannot change {names}"  # untranslated: a programming error
        )
    if "name" in fields:
        fields["name"] = check_name_free(category.tournament, fields["name"], category=category)
    check_settings(fields)
    kind = fields.get("kind", category.kind)
    if kind != category.kind and category.entries.exists():
        raise ValidationError(
            {
                "kind": _(
                    "%(category)s has entries already: it cannot become a %(kind)s category. "
                    "Create a new category instead."
                )
                % {"category": category.name, "kind": Category.Kind(kind).label.lower()}
            }
        )
    return apply_change(
        category,
        fields,
        locked=PLAY_FIELDS,
        in_use=lambda: is_drawn(category),
        refusal=lambda label: (
            _("%(category)s has drawn stages: its %(field)s cannot change now.")
            % {"category": category.name, "field": label}
        ),
    )


@transaction.atomic
def delete_category(*, category: Category) -> None:
    """Remove a category with its entries and stages, as long as nothing was drawn in it."""
    if is_drawn(category):
        raise StillInUse(
            _("%(category)s has drawn stages: deleting it would delete their matches and results.")
            % {"category": category.name}
        )
    category.delete()
