"""The names of the models' fields as the pages show them, marked for translation.

The fields keep Django's default ``verbose_name`` (the field's name with spaces): giving each
field a translated ``verbose_name`` would change every model's migration state for no change of
data. The forms built from the models (``tournaments.forms``) and the audit page
(``tournaments.history``) take their words from here instead, in the same English.
"""

from __future__ import annotations

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

#: Field name -> its words, lower case as Django's ``verbose_name`` (a form capitalises them).
FIELD_LABELS: dict[str, Promise] = {
    # Tournament
    "name": gettext_lazy("name"),
    "slug": gettext_lazy("slug"),
    "venue": gettext_lazy("venue"),
    "starts_on": gettext_lazy("starts on"),
    "ends_on": gettext_lazy("ends on"),
    "count_validated_cards": gettext_lazy("count validated cards"),
    "paper_rows_need_confirmation": gettext_lazy("paper rows need confirmation"),
    "cards_in_order": gettext_lazy("cards in order"),
    "game_minutes": gettext_lazy("game minutes"),
    "published": gettext_lazy("published"),
    # Category
    "tournament": gettext_lazy("tournament"),
    "preset": gettext_lazy("preset"),
    "kind": gettext_lazy("kind"),
    "discipline": gettext_lazy("discipline"),
    "discs_per_player": gettext_lazy("discs per player"),
    "rounds_per_game": gettext_lazy("rounds per game"),
    "scoring_system": gettext_lazy("scoring system"),
    "target_points": gettext_lazy("target points"),
    # Stage
    "category": gettext_lazy("category"),
    "order": gettext_lazy("order"),
    "advance_count": gettext_lazy("advance count"),
    "games_per_entry": gettext_lazy("games per entry"),
    "best_of": gettext_lazy("best of"),
    "match_format": gettext_lazy("match format"),
    "tiebreak_chain": gettext_lazy("tiebreak chain"),
    "third_place": gettext_lazy("third place"),
    "bye_points": gettext_lazy("bye points"),
    "bye_twenties": gettext_lazy("bye twenties"),
    "seed": gettext_lazy("seed"),
    # Player, Team, Entry, TournamentRole
    "first_name": gettext_lazy("first name"),
    "last_name": gettext_lazy("last name"),
    "number": gettext_lazy("number"),
    "club": gettext_lazy("club"),
    "country": gettext_lazy("country"),
    "user": gettext_lazy("user"),
    "player_one": gettext_lazy("player one"),
    "player_two": gettext_lazy("player two"),
    "player": gettext_lazy("player"),
    "team": gettext_lazy("team"),
    "checked_in": gettext_lazy("checked in"),
    "withdrawn": gettext_lazy("withdrawn"),
    "withdrawal_kind": gettext_lazy("withdrawal kind"),
    "withdrawal_reason": gettext_lazy("withdrawal reason"),
    "role": gettext_lazy("role"),
}


def field_label(field: models.Field) -> str | Promise:
    """The field's words: from :data:`FIELD_LABELS` while the field keeps its default
    ``verbose_name``, else the ``verbose_name`` it was given."""
    default = field.name.replace("_", " ")
    if field.name in FIELD_LABELS and str(field.verbose_name) == default:
        return FIELD_LABELS[field.name]
    return field.verbose_name
