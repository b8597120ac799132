"""Which skill profile an entry plays with: set for it, estimated from its recorded 20s, or its
category's level."""

from __future__ import annotations

import pytest

from scoring.engine import round_data
from scoring.results.services import record_game
from simulation.models import EntryProfile
from simulation.services.profiles import category_level, check_players, entry_players
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Game, Stage
from tournaments.services.draws import draw_stage


@pytest.mark.django_db
def test_profiles_come_from_the_entry_then_its_record_then_the_category():
    _, category = make_tournament(players=4, discs=8, rounds=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    people, simulated = Game.objects.filter(match__stage=stage).order_by("id")
    # People's game: entry A makes 2 of its 8 discs each round (8 per game), B none.
    record_game(people, [round_data(points=(2, 0), twenties=(2, 0))] * 4)
    # A simulated game does not count as a player's record.
    simulated.simulated = True
    simulated.save()
    record_game(simulated, [round_data(points=(2, 0), twenties=(8, 0))] * 4)
    a, b = people.match.entry_a, people.match.entry_b
    c, d = simulated.match.entry_a, simulated.match.entry_b
    EntryProfile.objects.create(entry=d, players=["best"], label="organizer's choice")

    profiles = entry_players([a, b, c, d], category)

    assert profiles[a.id].source.startswith("estimated from 8.0 20s per game")
    # One game says little: A's 8 20s are shrunk towards the competitive level (6.64), B's 0
    # further up from 0, and both keep a wide spread of their level on the day.
    player_a, player_b = profiles[a.id].players[0], profiles[b.id].players[0]
    assert 6.64 < player_a["twenties_per_game"] < 8.0
    assert 0.0 < player_b["twenties_per_game"] < player_a["twenties_per_game"]
    assert player_a["spread"] == player_b["spread"] > 2.0
    assert "on the day" in profiles[a.id].source
    assert profiles[c.id].players == ["competitive"]  # no game by people: the category's level
    assert profiles[d.id].players == ["best"] and "organizer's choice" in profiles[d.id].label


@pytest.mark.django_db
def test_category_levels_follow_the_presets():
    _, category = make_tournament(players=0)
    for preset, level in (
        ("competitive-doubles", "competitive"),
        ("recreational-singles", "recreational"),
        ("junior", "novice"),
    ):
        category.preset = preset
        category.name = preset
        assert category_level(category) == level


@pytest.mark.django_db
def test_a_doubles_entry_needs_a_profile_per_partner():
    _, category = make_tournament(players=2)
    entry = category.entries.first()
    with pytest.raises(ValueError, match="give 1 skill profile"):
        check_players(["top", "best"], entry.category.players_per_side, str(entry))
