"""Category presets from the WCC tournament rules ("Tournament Scoring Information").

Kept free of Django so that forms, the API, the demo loader and tests share one table. The
names are marked for the translators here and translated where they are shown (the category
form's list of presets, the ``preset`` choices); a category made from a preset keeps the English
name as its data.
"""

from dataclasses import dataclass

from tournaments.translation import gettext_noop


@dataclass(frozen=True)
class CategoryPreset:
    key: str
    name: str
    kind: str  # "singles" or "doubles"
    discipline: str  # "fingers" or "cue"
    discs_per_player: int
    rounds_per_game: int = 4
    scoring_system: str = "nca"


#: WCC: "Competitive and Recreational Doubles 6 discs each per round; Cue Doubles 5 discs each;
#: Adult and Recreational Singles 8 discs each; Cue Singles 6 discs each; Junior and
#: Intermediate 6 discs each", all "X 4 rounds = 1 game".
PRESETS: dict[str, CategoryPreset] = {
    p.key: p
    for p in (
        CategoryPreset(
            "competitive-singles", gettext_noop("Competitive Singles"), "singles", "fingers", 8
        ),
        CategoryPreset(
            "recreational-singles", gettext_noop("Recreational Singles"), "singles", "fingers", 8
        ),
        CategoryPreset("cue-singles", gettext_noop("Cue Singles"), "singles", "cue", 6),
        CategoryPreset(
            "competitive-doubles", gettext_noop("Competitive Doubles"), "doubles", "fingers", 6
        ),
        CategoryPreset(
            "recreational-doubles", gettext_noop("Recreational Doubles"), "doubles", "fingers", 6
        ),
        CategoryPreset("cue-doubles", gettext_noop("Cue Doubles"), "doubles", "cue", 5),
        CategoryPreset("junior", gettext_noop("Junior"), "singles", "fingers", 6),
        CategoryPreset("intermediate", gettext_noop("Intermediate"), "singles", "fingers", 6),
    )
}
