"""Previews and dry runs take the people's ratings as well as their 20s here: each player's
20s level moves towards what their rating says, and the label says so."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.engine import round_data
from scoring.engine.rating import MU
from scoring.models import Rating
from scoring.results.services import record_game
from simulation.players.belief import rated_belief
from simulation.players.calibrate import LADDER
from simulation.services.profiles import entry_players
from tests.factories import CategoryFactory, EntryFactory, TournamentFactory
from tests.simulation.app.support import add_stage, make_tournament
from tournaments.models import Game, Person, Stage
from tournaments.services.draws import draw_stage


def _person(name: str) -> Person:
    return Person.objects.create(first_name=name, last_name="Rated")


def _rate(person: Person, mu: float, sigma: float, games: int, discipline="singles") -> Rating:
    return Rating.objects.create(
        person=person, discipline=discipline, mu=mu, sigma=sigma, games=games
    )


@pytest.mark.django_db
def test_a_strong_rating_lifts_the_20s_level_and_the_label_says_so():
    _, category = make_tournament(players=4, discs=8, rounds=4)
    stage = add_stage(category, 1, Stage.Kind.PRELIMINARY, games_per_entry=1)
    draw_stage(stage)
    game = Game.objects.filter(match__stage=stage).order_by("id").first()
    record_game(game, [round_data(points=(1, 1), twenties=(2, 2))] * 4)
    a, b = game.match.entry_a, game.match.entry_b
    strong, weak = _person("Strong"), _person("Weak")
    for entry, person in ((a, strong), (b, weak)):
        entry.player.person = person
        entry.player.save()
    _rate(strong, MU + 10, 2.0, 14)
    _rate(weak, MU - 10, 2.0, 20)
    _rate(weak, MU + 20, 2.0, 5, discipline="doubles")  # another discipline: not read

    profiles = entry_players([a, b], category)

    # Same 20s here (8 per game), so the ratings alone set them apart.
    level_a = profiles[a.id].players[0]["twenties_per_game"]
    level_b = profiles[b.id].players[0]["twenties_per_game"]
    assert level_a > level_b + 3
    assert "estimated from 8.0 20s per game in 1 game and rating 1900 ± 160, 14 games" in (
        profiles[a.id].source
    )
    assert "rating 1100 ± 160, 20 games" in profiles[b.id].source
    assert "on the day" in profiles[a.id].source


@pytest.mark.django_db
def test_a_rating_alone_starts_from_the_category_level():
    _, category = make_tournament(players=2, discs=8, rounds=4)
    rated, unrated = category.entries.order_by("id")
    person = _person("Only")
    rated.player.person = person
    rated.player.save()
    _rate(person, MU + 5, 1.0, 40)

    profiles = entry_players([rated, unrated], category)

    player = profiles[rated.id].players[0]
    expected, _spread = rated_belief(LADDER["competitive"], 1.0, 5.0, 1.0, LADDER["competitive"])
    assert player["twenties_per_game"] == pytest.approx(expected, abs=0.01)
    assert player["twenties_per_game"] > LADDER["competitive"]
    assert profiles[rated.id].source.startswith("estimated from rating 1700 ± 80, 40 games")
    assert profiles[unrated.id].players == ["competitive"]  # nothing known: the category's


@pytest.mark.django_db
def test_doubles_partners_move_each_by_their_own_rating_in_few_queries():
    tournament = TournamentFactory()
    category = CategoryFactory(
        tournament=tournament, doubles=True, preset="competitive-doubles", name="Doubles"
    )
    entries = [EntryFactory(category=category, doubles=True) for _ in range(6)]
    team = entries[0].team
    one, two = _person("One"), _person("Two")
    for player, person in ((team.player_one, one), (team.player_two, two)):
        player.person = person
        player.save()
    _rate(one, MU + 8, 1.5, 30, discipline="doubles")
    _rate(two, MU - 8, 1.5, 30, discipline="doubles")
    # Only one partner rated: the entry is read from its 20s and category alone.
    half = entries[1].team.player_one
    half.person = _person("Half")
    half.save()
    _rate(half.person, MU + 8, 1.5, 30, discipline="doubles")

    with CaptureQueriesContext(connection) as few:
        profiles = entry_players(entries[:2], category)
    with CaptureQueriesContext(connection) as more:
        entry_players(entries, category)

    first, second = profiles[entries[0].id].players
    assert first["twenties_per_game"] > second["twenties_per_game"]
    assert " / " in profiles[entries[0].id].source
    assert profiles[entries[1].id].players == ["competitive", "competitive"]
    assert len(few.captured_queries) == len(more.captured_queries) <= 6
