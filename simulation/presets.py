"""Formats a dry run can rehearse, and the generated fields that play them.

Kept free of Django: the dry-run service turns a preset into a category, stages and entries.

- ``wcc-singles``: the WCC competitive singles format: a 10-game preliminary, the top 16 into two
  round-robin pools of 8, semifinals 1A v 2B and 1B v 2A, then the final and the match for 3rd
  and 4th, all best 2 of 3 (WCC "Tournament Scoring Information"). 88 players by default.
- ``wcc-doubles``: competitive doubles: an 8-game preliminary, the top 8 teams into a best-of-3
  knockout (quarterfinals, semifinals, final and 3rd place). 32 teams by default.
- ``club``: a club night: a 3-game preliminary, the top 4 into a best-of-3 knockout. 12 players.

A generated field's players draw their 20s per game from a spread around the field's level, so
the dry run sees favourites and outsiders; ``simulation.players.estimate`` turns each figure
into a skill profile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from simulation.players.estimate import TWENTIES_PER_GAME
from tournaments.translation import gettext_noop


@dataclass(frozen=True)
class StageSpec:
    """One stage of a preset format (see ``tournaments.models.Stage``); its name in English,
    translated when the dry run creates the stage."""

    name: str
    kind: str
    games_per_entry: int | None = None
    advance_count: int | None = None
    best_of: int = 1
    pools: int = 0
    third_place: bool = False


@dataclass(frozen=True)
class DryRunPreset:
    """A format a dry run can rehearse; its name in English, translated where it is shown."""

    key: str
    name: str
    category_preset: str
    entries: int
    stages: tuple[StageSpec, ...]
    #: Mean and spread of the field's 20s per game per player (4-round singles equivalent).
    twenties_mean: float
    twenties_sd: float

    @property
    def doubles(self) -> bool:
        return "doubles" in self.category_preset

    @property
    def min_entries(self) -> int:
        """The smallest field the format can take: more entries than preliminary games, and at
        least as many as advance from the first stage."""
        first = self.stages[0]
        return max((first.games_per_entry or 1) + 1, first.advance_count or 2)


PRESETS: dict[str, DryRunPreset] = {
    p.key: p
    for p in (
        DryRunPreset(
            key="wcc-singles",
            name=gettext_noop("WCC competitive singles"),
            category_preset="competitive-singles",
            entries=88,
            stages=(
                StageSpec(
                    gettext_noop("Preliminary"), "preliminary", games_per_entry=10, advance_count=16
                ),
                StageSpec(
                    gettext_noop("Round-robin playoff"), "round-robin", advance_count=4, pools=2
                ),
                StageSpec(gettext_noop("Championship"), "knockout", best_of=3, third_place=True),
            ),
            twenties_mean=TWENTIES_PER_GAME["competitive"],
            twenties_sd=1.4,
        ),
        DryRunPreset(
            key="wcc-doubles",
            name=gettext_noop("WCC competitive doubles"),
            category_preset="competitive-doubles",
            entries=32,
            stages=(
                StageSpec(
                    gettext_noop("Preliminary"), "preliminary", games_per_entry=8, advance_count=8
                ),
                StageSpec(gettext_noop("Playoff"), "knockout", best_of=3, third_place=True),
            ),
            twenties_mean=TWENTIES_PER_GAME["competitive"],
            twenties_sd=1.4,
        ),
        DryRunPreset(
            key="club",
            name=gettext_noop("Club night"),
            category_preset="recreational-singles",
            entries=12,
            stages=(
                StageSpec(
                    gettext_noop("Preliminary"), "preliminary", games_per_entry=3, advance_count=4
                ),
                StageSpec(gettext_noop("Playoff"), "knockout", best_of=3, third_place=True),
            ),
            twenties_mean=TWENTIES_PER_GAME["recreational"],
            twenties_sd=1.2,
        ),
    )
}

DEFAULT_PRESET = "wcc-singles"

FIRST_NAMES = [
    "Anna",
    "Ben",
    "Carla",
    "Dan",
    "Elise",
    "Finn",
    "Greta",
    "Hiro",
    "Ines",
    "Jack",
    "Kai",
    "Lena",
    "Marc",
    "Nora",
    "Oskar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sven",
    "Tara",
    "Ulla",
    "Victor",
    "Wren",
    "Xavier",
    "Yara",
    "Zeno",
    "Abby",
    "Bruno",
    "Cleo",
    "Dario",
    "Edda",
    "Felix",
    "Gus",
    "Hanna",
    "Ivo",
    "Jana",
    "Karl",
    "Lotte",
    "Milo",
    "Nadia",
]
LAST_NAMES = [
    "Bauman",
    "Brubacher",
    "Costa",
    "Dubois",
    "Eby",
    "Fischer",
    "Gerber",
    "Hoover",
    "Jantzi",
    "Kuepfer",
    "Larsen",
    "Martin",
    "Nowak",
    "Okafor",
    "Petrie",
    "Quast",
    "Roth",
    "Schmidt",
    "Tanaka",
    "Ulrich",
    "Voth",
    "Weber",
    "Yoder",
    "Zehr",
]
CLUBS = (
    "Tavistock",
    "Kitchener",
    "Waterloo",
    "Stratford",
    "London",
    "Toronto",
    "Ottawa",
    "Montréal",
    "Rochester",
    "Berlin",
    "Amsterdam",
    "Warsaw",
)


@dataclass(frozen=True)
class GeneratedPlayer:
    first_name: str
    last_name: str
    number: int
    club: str
    twenties_per_game: float


def generated_players(count: int, preset: DryRunPreset, seed: int) -> list[GeneratedPlayer]:
    """``count`` distinct players with IDs 101, 102 ... and a spread of skill, the same for the
    same seed."""
    rng = random.Random(seed)
    names = [(f, last) for last in LAST_NAMES for f in FIRST_NAMES]
    rng.shuffle(names)
    players = []
    for index in range(count):
        first, last = names[index % len(names)]
        if index >= len(names):
            last = f"{last} {index // len(names) + 1}"
        level = max(0.5, rng.gauss(preset.twenties_mean, preset.twenties_sd))
        players.append(
            GeneratedPlayer(first, last, 101 + index, rng.choice(CLUBS), round(level, 2))
        )
    return players
